package bench;

import http.Protocol;
import model.Page;
import site.Combination;
import site.ServeConfig;

/**
 * One measured point of a sweep: a combination, a page, a connection count and a rate (0: the closed loop), over a
 * protocol with a number of HTTP/2 streams in flight per connection (1 over HTTP/1.1), on a server whose platform
 * pool has {@code threads} threads (--threads; null where the combination runs its handlers and renders on none:
 * {@link model.Serving#onPlatformPool}). A foreign app's point ({@code --target} with {@code --label}) has no
 * combination: {@code app} is its label, and it has no pool size known here.
 */
record Point(Combination combination, String app, Page<?> page, int connections, double rate, Protocol protocol,
             int streams, Integer threads) {

    /** At serve's default pool size, over HTTP/1.1. */
    Point(Combination combination, Page<?> page, int connections, double rate) {
        this(combination, page, connections, rate, Protocol.H1, 1);
    }

    /** At serve's default pool size. */
    Point(Combination combination, Page<?> page, int connections, double rate, Protocol protocol, int streams) {
        this(combination, page, connections, rate, protocol, streams, ServeConfig.DEFAULT_THREADS);
    }

    /** On a server started with {@code --threads=threads}: the point's pool size if the combination has a pool. */
    Point(Combination combination, Page<?> page, int connections, double rate, Protocol protocol, int streams,
          int threads) {
        this(combination, null, page, connections, rate, protocol, streams,
                combination.serving().onPlatformPool() ? threads : null);
    }

    static Point foreign(String label, Page<?> page, int connections, double rate) {
        return foreign(label, page, connections, rate, Protocol.H1, 1);
    }

    static Point foreign(String label, Page<?> page, int connections, double rate, Protocol protocol, int streams) {
        return new Point(null, label, page, connections, rate, protocol, streams, null);
    }

    /**
     * File-name label: server-engine-mode-page-cN[-rR] (a foreign app: foreign-LABEL-foreign-page-...), then the
     * protocol and streams where they are not HTTP/1.1's one ({@code -h2c-s8}) and the pool size where it is not
     * serve's default ({@code -t4}), so that the names of a sweep at the defaults stay what they were.
     */
    String name() {
        return subject() + "-" + page.id() + "-c" + connections + (rate > 0 ? "-r" + (long) rate : "")
                + (protocol == Protocol.H1 && streams == 1 ? "" : "-" + protocol.id() + "-s" + streams)
                + threadsSuffix("-t", threads);
    }

    /** {@code -t4} (with {@code sep} "-t") for a pool size other than serve's default; nothing for it or none. */
    static String threadsSuffix(String sep, Integer threads) {
        return threads == null || threads == ServeConfig.DEFAULT_THREADS ? "" : sep + threads;
    }

    /** The combination, or the foreign app as its row names it. */
    String subject() {
        return app == null ? label(combination) : ForeignApp.SERVER + "-" + app + "-" + ForeignApp.MODE;
    }

    /** What is measured, for the console. */
    String describe() {
        return app == null ? combination.toString() : "foreign app " + app;
    }

    static String label(Combination c) {
        return c.server().id() + "-" + c.engine().id() + "-" + c.mode().id();
    }

    /**
     * The combination's label for what runs over {@code protocol} (its logs): HTTP/1.1's keeps the name it had
     * before protocols, another protocol's says which ({@code nima-jstachio-virtual.h2c}).
     */
    static String label(Combination c, Protocol protocol) {
        return label(c) + (protocol == Protocol.H1 ? "" : "." + protocol.id());
    }

    /** The same on a server started with {@code --threads=threads} (null: the default): {@code .t4} where not it. */
    static String label(Combination c, Protocol protocol, Integer threads) {
        return label(c, protocol) + threadsSuffix(".t", threads);
    }
}
