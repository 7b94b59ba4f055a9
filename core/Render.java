package core;

import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.disposables.Disposable;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One page render for one request: subscribes the data source, runs the engine with the flush policy of
 * {@link ChunkWriter}, and reports its end exactly once. Servers decide on which thread it runs.
 *
 * <p>On failure the render logs one line (a data-source or template error at WARNING; a client that went away, or
 * a page cut by a stopping server, only at FINE) and throws {@link RenderFailedException} or completes its future with it: the server then aborts
 * the response so that it never ends as if complete.
 */
public final class Render {

    private static final Logger LOG = Logger.getLogger("pssrbench");

    private final Engine engine;
    private final Duration delay;
    private final DataSource.Timers timers;
    private final int failAfter;
    private final Page<?> page;
    private final ChunkWriter out;
    private final AtomicInteger inFlight;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CompletableFuture<Void> result = new CompletableFuture<>();
    private volatile boolean clientGone;
    /** Cut by {@link #cut}: the server stops before the page could end; the drain logged it already. */
    private volatile boolean cut;
    private volatile boolean cancelled;
    private volatile ProgressiveItems<?> items;
    private volatile Disposable subscription;

    Render(Engine engine, Duration delay, DataSource.Timers timers, int failAfter, Page<?> page, ChunkSink sink,
           AtomicInteger inFlight) {
        this.engine = engine;
        this.delay = delay;
        this.timers = timers;
        this.failAfter = failAfter;
        this.page = page;
        this.inFlight = inFlight;
        this.out = new ChunkWriter(bytes -> {
            if (cancelled) {
                throw new ClientGoneException();
            }
            try {
                sink.chunk(bytes);
            } catch (Throwable t) {   // Helidon signals a closed connection with an unchecked exception
                clientGone = true;
                throw t;
            }
        });
        inFlight.incrementAndGet();
    }

    private <T> Observable<T> source(Page<T> of) {
        return DataSource.items(of.items(), delay, timers, failAfter);
    }

    /**
     * Renders the whole page on the calling thread, blocking while it waits for items.
     *
     * @throws RenderFailedException when the data source, the engine or the client failed; already logged
     */
    public void blocking() {
        try {
            blocking(page);
            out.flush();
            end(null);
        } catch (Throwable t) {
            throw end(t);
        }
    }

    private <T> void blocking(Page<T> of) throws IOException {
        try (ProgressiveItems<T> progressive = new ProgressiveItems<>(source(of), out)) {
            items = progressive;
            if (cancelled) {
                progressive.cancel();
            }
            engine.templates().blocking(of).render(progressive, out);
        }
    }

    /**
     * Renders the whole page on the calling thread into memory, blocking while it waits for items, and hands it to
     * the sink as one chunk at the end: classic server-side rendering, the baseline of the {@code buffered} mode.
     *
     * @throws RenderFailedException when the data source, the engine or the client failed; already logged
     */
    public void buffered() {
        out.hold();
        try {
            blocking(page);
            out.release();
            end(null);
        } catch (Throwable t) {
            throw end(t);
        }
    }

    /**
     * Starts a non-blocking render through the engine's async template and returns at once. The head is flushed
     * when the engine subscribes to the items, each item's markup after the engine has rendered it, the tail when
     * the engine completes. The future completes after the last chunk went to the sink, or exceptionally with
     * {@link RenderFailedException}.
     */
    public CompletableFuture<Void> reactive() {
        return onCallbacks(this::reactive);
    }

    /**
     * Starts a non-blocking render through the engine's fragments and returns at once: the head is rendered and
     * flushed on subscription, each item's fragment when the item is emitted (on the data source's thread), the
     * tail on completion. No thread waits for data, whatever the engine. Completes as {@link #reactive()} does.
     */
    public CompletableFuture<Void> fragments() {
        return onCallbacks(this::fragments);
    }

    private CompletableFuture<Void> onCallbacks(java.util.function.Function<Page<?>, CompletableFuture<Void>> how) {
        CompletableFuture<Void> rendered;
        try {
            rendered = how.apply(page);
        } catch (Throwable t) {
            rendered = CompletableFuture.failedFuture(t);
        }
        rendered.whenComplete((v, failure) -> {
            if (failure == null) {
                try {
                    out.flush();
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            }
            if (failure == null) {
                end(null);
            } else {
                end(failure);
            }
        });
        return result;
    }

    private <T> CompletableFuture<Void> reactive(Page<T> of) {
        Observable<T> source = source(of)
                .doOnSubscribe(d -> {
                    subscription = d;
                    if (cancelled) {
                        d.dispose();
                    }
                    out.flush();
                })
                .doAfterNext(item -> out.flush());
        return engine.templates().nonBlocking(of).render(source, out);
    }

    private <T> CompletableFuture<Void> fragments(Page<T> of) {
        Templates.Fragments<T> parts = engine.templates().fragments(of).start();
        CompletableFuture<Void> done = new CompletableFuture<>();
        source(of).subscribe(new io.reactivex.rxjava3.core.Observer<T>() {
            @Override
            public void onSubscribe(Disposable d) {
                subscription = d;
                if (cancelled) {
                    d.dispose();
                    return;
                }
                step(d, parts::head);
            }

            @Override
            public void onNext(T item) {
                step(subscription, w -> parts.item(item, w));
            }

            @Override
            public void onError(Throwable e) {
                done.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                if (!done.isDone()) {
                    try {
                        parts.tail(out);
                        done.complete(null);
                    } catch (IOException | RuntimeException e) {
                        done.completeExceptionally(e);
                    }
                }
            }

            /** One part, then its chunk; a failure stops the source so that no later part is rendered. */
            private void step(Disposable d, Templates.Part part) {
                if (done.isDone()) {
                    return;
                }
                try {
                    part.render(out);
                    out.flush();
                } catch (IOException | RuntimeException e) {
                    d.dispose();
                    done.completeExceptionally(e);
                }
            }
        });
        return done;
    }

    /** The client went away: stop promptly, dispose the subscription, fail the render. Any thread, idempotent. */
    public void cancel() {
        clientGone = true;
        stop(new CancellationException("client disconnected"));
    }

    /**
     * The grace period of a stopping server ended before the page did ({@link Site#drain}): stop as for
     * {@link #cancel}, so that the server aborts the response (no last chunk), logged only at FINE since the drain
     * announced the cut. Any thread, idempotent; a render that has ended already is left as it ended.
     */
    void cut() {
        cut = true;
        stop(new CancellationException("cut: the server is stopping and its grace period has ended"));
    }

    private void stop(CancellationException why) {
        cancelled = true;
        ProgressiveItems<?> progressive = items;
        if (progressive != null) {
            progressive.cancel();
        }
        Disposable d = subscription;
        if (d != null) {
            d.dispose();
        }
        end(why);
    }

    /** Completes when the render ends: normally, or exceptionally with {@link RenderFailedException}. */
    public CompletableFuture<Void> done() {
        return result;
    }

    /** The failure the render ended with, or null while running or after a complete page. */
    RenderFailedException failure() {
        if (!result.isCompletedExceptionally()) {
            return null;
        }
        try {
            result.join();
            return null;
        } catch (java.util.concurrent.CompletionException | CancellationException e) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException ? e.getCause() : e;
            return cause instanceof RenderFailedException r ? r : new RenderFailedException(page, cause, clientGone);
        }
    }

    /** A write to the client failed on another thread than the render's (see {@link ChunkQueue}). */
    void clientGone(Throwable why) {
        clientGone = true;
        cancel();
    }

    /** The render could not even start (its executor refused it). */
    void failToStart(Throwable why) {
        end(why);
    }

    /** Chunks handed to the server so far. */
    public int chunks() {
        return out.chunks();
    }

    private RenderFailedException end(Throwable failure) {
        RenderFailedException reported = failure == null ? null : new RenderFailedException(page, failure, clientGone);
        if (ended.compareAndSet(false, true)) {
            inFlight.decrementAndGet();
            if (reported == null) {
                result.complete(null);
            } else {
                LOG.log(reported.clientGone() || cut ? Level.FINE : Level.WARNING, reported.getMessage());
                result.completeExceptionally(reported);
            }
        }
        return reported;
    }

    /** Why a render stopped; the message is the one log line. */
    public static final class RenderFailedException extends RuntimeException {
        private final boolean clientGone;

        RenderFailedException(Page<?> page, Throwable cause, boolean clientGone) {
            super((clientGone ? "client went away during " : "render failed for ") + page.path() + ": "
                    + rootMessage(cause) + (clientGone ? "" : "; response aborted"), cause, false, false);
            this.clientGone = clientGone;
        }

        public boolean clientGone() {
            return clientGone;
        }

        /** The deepest cause names what really happened; engines and servers only wrap it. */
        private static String rootMessage(Throwable t) {
            Throwable root = t;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        }
    }

    /** Thrown into the engine when the render was cancelled because the client went away. */
    static final class ClientGoneException extends IOException {
        ClientGoneException() {
            super("client disconnected", null);
        }
    }
}
