package core;

import sun.misc.Signal;

/**
 * Ctrl-C and SIGTERM start a graceful stop instead of killing the JVM, so that in-flight pages can finish and
 * the process exits 0. A shutdown hook could not do that: the JVM exits 143 after a SIGTERM whatever the hooks do.
 */
final class Signals {

    private Signals() {
    }

    static void onTermination(Runnable action) {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> action.run());
        }
    }
}
