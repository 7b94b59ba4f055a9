package model;

import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One page render for one request, its life cycle: the chunk writer with the flush policy of {@link ChunkWriter},
 * cancel, failure, and its end reported exactly once. How the page is rendered is the mode's ({@link Algorithm});
 * where it runs, the plan's ({@link Serving}, acted on by {@link site.Site}).
 *
 * <p>On failure the render logs one line (a data-source or template error at WARNING; a client that went away, a
 * page cut by a stopping server, or a render whose thread a stopping server interrupted, only at FINE) and throws {@link RenderFailedException} or completes its future with it: the server then aborts
 * the response so that it never ends as if complete.
 */
public final class Render {

    private static final Logger LOG = Logger.getLogger("pssrbench");

    private final Feed feed;
    private final Page<?> page;
    private final ChunkWriter out;
    private final AtomicInteger inFlight;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CompletableFuture<Void> result = new CompletableFuture<>();
    private volatile boolean clientGone;
    /** Cut by {@link #cut}: the server stops before the page could end; the drain logged it already. */
    private volatile boolean cut;
    private volatile boolean cancelled;
    /** What stops the algorithm's work on cancel ({@link #whenCancelled}). */
    private volatile Runnable onCancel;

    /**
     * What a render reads: the engine's templates, and the data source's items at {@code delay} per item on
     * {@code timers}, failing after {@code failAfter} items (-1: never). The part of {@link site.ServeConfig} a render
     * needs ({@link site.ServeConfig#feed()}, its only maker).
     */
    public record Feed(Engine engine, Duration delay, DataSource.Timers timers, int failAfter) {
    }

    public Render(Feed feed, Page<?> page, ChunkSink sink, AtomicInteger inFlight) {
        this.feed = feed;
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

    /**
     * A mode's way of rendering a page through this render ({@link Mode}): it writes to {@link #out()}, reads
     * {@link #items}, stops what it started when cancelled ({@link #whenCancelled}), and returns a future that
     * completes once the page is rendered; a blocking algorithm returns it completed. The render then flushes what
     * is left and ends.
     */
    @FunctionalInterface
    public interface Algorithm {
        CompletableFuture<Void> render(Render render) throws Exception;
    }

    /** The page being rendered. */
    public Page<?> page() {
        return page;
    }

    /** The engine's templates. */
    public Templates templates() {
        return feed.engine().templates();
    }

    /** The page's items from the data source (subscribe once), at the site's delay and with its faults. */
    public <T> Observable<T> items(Page<T> of) {
        if (of != page) {
            throw new IllegalArgumentException("a render reads the items of its own page, " + page.path());
        }
        return DataSource.items(of.items(), feed.delay(), feed.timers(), feed.failAfter());
    }

    /** Where the page goes: each {@link ChunkWriter#flush()} is one chunk for the server. */
    public ChunkWriter out() {
        return out;
    }

    /**
     * Registers what stops the algorithm's work when the render is cancelled (a disposed subscription, a cancelled
     * iterator), run at once if it has been already; returns whether it had. Any thread.
     */
    public boolean whenCancelled(Runnable stop) {
        onCancel = stop;
        if (cancelled) {   // both volatile: either this sees the cancel, or the cancel sees the action
            stop.run();
            return true;
        }
        return false;
    }

    /**
     * Runs {@code algorithm} on the calling thread (for a blocking one, until the page is rendered), then ends the
     * render: its last chunk flushed, or its failure logged once. Never throws; {@link #done()} tells the end.
     */
    public CompletableFuture<Void> run(Algorithm algorithm) {
        CompletableFuture<Void> rendered;
        try {
            rendered = algorithm.render(this);
        } catch (Throwable t) {
            rendered = CompletableFuture.failedFuture(t);
        }
        rendered.whenComplete((v, failure) -> {
            if (failure == null) {
                try {
                    out.flush();
                } catch (Throwable t) {
                    failure = t;
                }
            }
            end(failure);
        });
        return result;
    }

    /** The client went away: stop promptly, dispose the subscription, fail the render. Any thread, idempotent. */
    public void cancel() {
        clientGone = true;
        stop(new CancellationException("client disconnected"));
    }

    /**
     * The grace period of a stopping server ended before the page did ({@link site.Site#drain}): stop as for
     * {@link #cancel}, so that the server aborts the response (no last chunk), logged only at FINE since the drain
     * announced the cut. Any thread, idempotent; a render that has ended already is left as it ended.
     */
    public void cut() {
        cut = true;
        stop(new CancellationException("cut: the server is stopping and its grace period has ended"));
    }

    private void stop(CancellationException why) {
        cancelled = true;
        Runnable action = onCancel;
        if (action != null) {
            action.run();
        }
        end(why);
    }

    /** Completes when the render ends: normally, or exceptionally with {@link RenderFailedException}. */
    public CompletableFuture<Void> done() {
        return result;
    }

    /** The failure the render ended with, or null while running or after a complete page. */
    public RenderFailedException failure() {
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

    /** A write to the client failed on another thread than the render's (see {@link site.ChunkQueue}). */
    public void clientGone(Throwable why) {
        clientGone = true;
        cancel();
    }

    /** The render could not even start (its executor refused it). */
    public void failToStart(Throwable why) {
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
                LOG.log(reported.clientGone() || cut || interrupted(failure) ? Level.FINE : Level.WARNING,
                        reported.getMessage());
                result.completeExceptionally(reported);
            }
        }
        return reported;
    }

    /**
     * Whether the render's thread was interrupted: PssrBench interrupts a render only as a server stops (the
     * executors' {@code shutdownNow} in {@link site.Workers#close} and the JDK server's close, Helidon's stop after its
     * grace period), and a client gone or a drain's cut is logged as such; so an interrupted render is a page the
     * stop ended (seen after {@code http10StillStreams} and drain cuts as "render failed for /stocks:
     * InterruptedException" at WARNING), not a failure of the data source or the template.
     */
    private static boolean interrupted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // Not InterruptedIOException: its SocketTimeoutException is a timeout, not an interrupt.
            if (t instanceof InterruptedException || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
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
