package bench;

import core.Combination;
import core.Page;

/** One measured point of a sweep: a combination, a page, a connection count and a rate (0: the closed loop). */
record Point(Combination combination, Page<?> page, int connections, double rate) {

    /** File-name label: server-engine-mode-page-cN[-rR]. */
    String name() {
        return label(combination) + "-" + page.id() + "-c" + connections + (rate > 0 ? "-r" + (long) rate : "");
    }

    static String label(Combination c) {
        return c.server().id() + "-" + c.engine().id() + "-" + c.mode().id();
    }
}
