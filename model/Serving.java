package model;

import java.util.List;
import java.util.function.Predicate;

/**
 * How a page is served in one combination, decided once from the server's declared ways to run handlers
 * ({@link site.Server#handling()}) and the mode's needs ({@link Mode#runs()}, {@link Mode#wholePage()}): the plan that
 * {@link site.Site} and the servers act on, and that the README's "what each mode means on each server" describes
 * ({@link site.Delivery}). Neither Site nor a server asks the mode how to serve it.
 *
 * @param handler   the server's handler: its thread, and whether it answers later
 * @param renderOn  where the render runs: the mode's {@link Mode#runs()}
 * @param onHandler the render runs on the handler's own thread (of the kind {@code renderOn} names), which
 *                  therefore waits for its page
 * @param writes    who hands the chunks to the server
 * @param wholePage the page is rendered whole to memory and sent with {@code Content-Length}, instead of streamed
 */
public record Serving(Handler handler, Mode.Runs renderOn, boolean onHandler, Writes writes, boolean wholePage) {

    /** Who hands a streamed page's chunks to the server. */
    public enum Writes {
        /** The render, from the thread it runs on. */
        DIRECT,
        /**
         * The handler that waits for its page, from a queue the render fills: the render's threads (the data
         * source's, or a coroutine's) must not block on a socket, and the server cannot answer later.
         */
        QUEUE
    }

    /** The plan of {@code mode} on a server that offers {@code offered} (in its order of preference). */
    public static Serving of(List<Handler> offered, Mode mode) {
        return on(choose(offered, mode), mode);
    }

    /**
     * The handler a mode gets: for a blocking render, one of the kind it renders on (it renders there when that
     * handler waits for its page); for a page rendered whole, one that renders it itself, else one that answers
     * later (it has no chunks to wait for one by one); for a render on callbacks, one that answers later, so that
     * no thread waits. Otherwise the server's first.
     */
    private static Handler choose(List<Handler> offered, Mode mode) {
        if (offered.isEmpty()) {
            throw new IllegalArgumentException("a server offers at least one way to run its handlers");
        }
        Handler.Kind kind = kind(mode.runs());
        Predicate<Handler> itsKind = h -> h.kind() == kind;
        Predicate<Handler> later = Handler::answersLater;
        if (mode.wholePage()) {
            return first(offered, itsKind.and(later.negate()), later);
        }
        return mode.runs().onEmission() ? first(offered, later) : first(offered, itsKind);
    }

    @SafeVarargs
    private static Handler first(List<Handler> offered, Predicate<Handler>... wanted) {
        for (Predicate<Handler> w : wanted) {
            for (Handler h : offered) {
                if (w.test(h)) {
                    return h;
                }
            }
        }
        return offered.get(0);
    }

    /** The handler thread a blocking render can run on, or null (a render on callbacks or in a coroutine: none). */
    private static Handler.Kind kind(Mode.Runs runs) {
        return switch (runs) {
            case VIRTUAL -> Handler.Kind.VIRTUAL;
            case PLATFORM -> Handler.Kind.PLATFORM;
            case CALLBACKS, COROUTINE -> null;
        };
    }

    /**
     * The plan of {@code mode} on a given handler: also for the demo's buffered pages ({@link site.Demo}), served by a
     * server whose handler follows the site's own mode.
     */
    public static Serving on(Handler handler, Mode mode) {
        Mode.Runs runs = mode.runs();
        boolean onHandler = !runs.onEmission() && !handler.answersLater() && handler.kind() == kind(runs);
        Writes writes = runs.onEmission() && !handler.answersLater() && !mode.wholePage()
                ? Writes.QUEUE : Writes.DIRECT;
        return new Serving(handler, runs, onHandler, writes, mode.wholePage());
    }

    /** Whether the handler returns before its page ends, the server answering from other threads. */
    public boolean answersLater() {
        return handler.answersLater();
    }

    /**
     * Whether the handler or the render runs on a platform pool, whose size serve's --threads sets: the blocking mode
     * on every server, and every mode whose handler is a thread of such a pool (javalin's callback modes). The others
     * (virtual threads, event loops, callbacks) run alike whatever the pool's size.
     */
    public boolean onPlatformPool() {
        return handler.kind() == Handler.Kind.PLATFORM || renderOn == Mode.Runs.PLATFORM;
    }
}
