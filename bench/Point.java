package bench;

import http.Protocol;
import model.Page;
import site.Combination;

/**
 * One measured point of a sweep: a combination, a page, a connection count and a rate (0: the closed loop), over a
 * protocol with a number of HTTP/2 streams in flight per connection (1 over HTTP/1.1). A foreign app's point
 * ({@code --target} with {@code --label}) has no combination: {@code app} is its label.
 */
record Point(Combination combination, String app, Page<?> page, int connections, double rate, Protocol protocol,
             int streams) {

    Point(Combination combination, Page<?> page, int connections, double rate) {
        this(combination, null, page, connections, rate, Protocol.H1, 1);
    }

    Point(Combination combination, Page<?> page, int connections, double rate, Protocol protocol, int streams) {
        this(combination, null, page, connections, rate, protocol, streams);
    }

    static Point foreign(String label, Page<?> page, int connections, double rate) {
        return foreign(label, page, connections, rate, Protocol.H1, 1);
    }

    static Point foreign(String label, Page<?> page, int connections, double rate, Protocol protocol, int streams) {
        return new Point(null, label, page, connections, rate, protocol, streams);
    }

    /**
     * File-name label: server-engine-mode-page-cN[-rR] (a foreign app: foreign-LABEL-foreign-page-...), then the
     * protocol and streams where they are not HTTP/1.1's one ({@code -h2c-s8}), so that the names of a folder
     * measured before protocols stay what they were.
     */
    String name() {
        return subject() + "-" + page.id() + "-c" + connections + (rate > 0 ? "-r" + (long) rate : "")
                + (protocol == Protocol.H1 && streams == 1 ? "" : "-" + protocol.id() + "-s" + streams);
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
}
