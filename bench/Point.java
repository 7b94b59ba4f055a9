package bench;

import core.Combination;
import core.Page;

/**
 * One measured point of a sweep: a combination, a page, a connection count and a rate (0: the closed loop). A
 * foreign app's point ({@code --target} with {@code --label}) has no combination: {@code app} is its label.
 */
record Point(Combination combination, String app, Page<?> page, int connections, double rate) {

    Point(Combination combination, Page<?> page, int connections, double rate) {
        this(combination, null, page, connections, rate);
    }

    static Point foreign(String label, Page<?> page, int connections, double rate) {
        return new Point(null, label, page, connections, rate);
    }

    /** File-name label: server-engine-mode-page-cN[-rR] (a foreign app: foreign-LABEL-foreign-page-...). */
    String name() {
        return subject() + "-" + page.id() + "-c" + connections + (rate > 0 ? "-r" + (long) rate : "");
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
}
