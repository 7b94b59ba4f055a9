package site;

import base.Durations;
import model.Render;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The requests of one {@link Site} not finished yet, for its graceful drain: each counted once, until its handler
 * has returned and its render (if it started one) has ended, whichever is later. The handler may still write after
 * the render ended (the last chunk), so neither alone is enough for a drain; counting both would count a page
 * twice.
 */
final class Requests {

    private static final Logger LOG = Logger.getLogger("pssrbench");

    /** How long {@link #drain} waits for the handlers of the pages it cut. */
    static final Duration CUT_WAIT = Duration.ofMillis(500);

    /** The request being handled on this thread. */
    private static final ThreadLocal<Request> CURRENT = new ThreadLocal<>();

    private final AtomicInteger requests = new AtomicInteger();
    /** The renders not ended yet, for the drain to cut when its grace period ends. */
    private final Set<Render> rendering = ConcurrentHashMap.newKeySet();

    /** One request's parts still running: its handler, and its render once there is one. */
    final class Request implements AutoCloseable {
        private final AtomicInteger parts = new AtomicInteger(1);

        private Request() {
            requests.incrementAndGet();
        }

        private void join(Render render) {
            parts.incrementAndGet();
            render.done().whenComplete((v, failure) -> release());
        }

        private Runnable hold() {
            parts.incrementAndGet();
            AtomicBoolean released = new AtomicBoolean();
            return () -> {
                if (released.compareAndSet(false, true)) {
                    release();
                }
            };
        }

        private void release() {
            if (parts.decrementAndGet() == 0) {
                requests.decrementAndGet();
            }
        }

        /** The handler has returned. */
        @Override
        public void close() {
            CURRENT.remove();
            release();
        }
    }

    /** A request handled on this thread from now until its {@link Request#close()} (and its render's end). */
    Request begin() {
        Request request = new Request();   // counted before any render exists, so a drain cannot miss it
        CURRENT.set(request);
        return request;
    }

    /** A new render: cut by a drain until it ends, and part of the request handled on this thread, if any. */
    void track(Render render) {
        rendering.add(render);
        render.done().whenComplete((v, failure) -> rendering.remove(render));
        Request request = CURRENT.get();
        if (request != null) {   // created while handling a request: part of it
            request.join(render);
        }
    }

    /** See {@link Site#hold()}. */
    Runnable hold() {
        Request request = CURRENT.get();
        return request == null ? () -> { } : request.hold();
    }

    /** See {@link Site#drain}, which refuses new pages first. */
    int drain(Duration grace) throws InterruptedException {
        int left = awaitRequests(grace);
        if (left > 0) {
            LOG.warning(left + " page(s) still in flight after the " + Durations.format(grace)
                    + " grace period; cutting them");
            rendering.forEach(Render::cut);
            awaitRequests(CUT_WAIT);
        }
        return left;
    }

    /** Waits up to {@code limit} for every request to finish; returns how many have not. */
    private int awaitRequests(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (requests.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return requests.get();
    }
}
