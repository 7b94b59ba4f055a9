package site;

import model.ChunkSink;
import model.Handler;
import model.Mode;
import model.Page;
import model.Render;
import model.Serving;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The renders of one {@link Site}: created for a request, started where the plan says ({@link Serving}) and, for
 * a handler that waits for its page, streamed on its thread. Nothing here asks the mode how; the mode only renders
 * ({@link Render.Algorithm}).
 */
final class Renders implements AutoCloseable {

    private final Render.Feed feed;
    private final Requests requests;
    private final Workers workers;
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Renders that read {@code feed}; the platform pool of {@code threads}. */
    Renders(Render.Feed feed, int threads, Requests requests) {
        this.feed = feed;
        this.requests = requests;
        this.workers = new Workers(threads);
    }

    /** A new render of {@code page} for one request, writing its chunks to {@code sink}. */
    Render render(Page<?> page, ChunkSink sink) {
        Render render = new Render(feed, page, sink, inFlight);
        requests.track(render);
        return render;
    }

    /**
     * Starts {@code render} in {@code mode} where {@code plan} says, and returns it. {@code elsewhere}: never on the
     * calling thread (a handler that answers later), even where the plan has the handler render.
     */
    Render start(Render render, Serving plan, Mode mode, boolean elsewhere) {
        try {
            // Where the plan has the handler render, it does, unless told elsewhere: then a thread of the same kind
            // (the plan puts a render on the handler only when the handler's thread is of the kind the mode runs on).
            Executor where = plan.onHandler() && !elsewhere ? null : switch (plan.renderOn()) {
                case VIRTUAL -> workers.virtual();
                case PLATFORM -> workers.platform();
                case CALLBACKS, COROUTINE -> null;   // returns at once: the data source's threads (or its
                                                     // emissions, resuming a coroutine) render
            };
            // The plan trusts each server's word on its handler's thread (Server.handling); a server configured
            // otherwise would measure the wrong thing without a symptom (tests run with -ea).
            assert where != null || !plan.onHandler()
                    || Thread.currentThread().isVirtual() == (plan.handler().kind() == Handler.Kind.VIRTUAL)
                    : "the handler runs on " + Thread.currentThread() + ", not on a thread of kind "
                    + plan.handler().kind();
            if (where == null) {
                render.run(mode);
            } else {
                where.execute(() -> render.run(mode));
            }
        } catch (RuntimeException e) {   // e.g. an executor that refuses work while stopping
            render.failToStart(e);
        }
        return render;
    }

    /** See {@link Site#streamHere}. */
    void streamHere(Page<?> page, ChunkSink sink, Serving plan, Mode mode) {
        boolean queued = plan.writes() == Serving.Writes.QUEUE;   // the data source's threads must not block
        ChunkQueue queue = queued ? new ChunkQueue() : null;
        Render render = start(render(page, queued ? queue : sink), plan, mode, false);
        try {
            if (queued) {
                queue.drainTo(sink, render);
            } else {
                render.done().handle((v, failure) -> null).get();
            }
        } catch (InterruptedException e) {
            render.cancel();
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("handle() maps every outcome to a normal completion", e);
        }
        Render.RenderFailedException failure = render.failure();
        if (failure != null) {
            throw failure;
        }
    }

    /** Renders not yet finished, failed or cancelled. */
    int inFlight() {
        return inFlight.get();
    }

    /** The render threads stop. */
    @Override
    public void close() {
        workers.close();
    }
}
