package core;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;

/**
 * Ctrl-C and SIGTERM start a graceful stop instead of killing the JVM, so that in-flight pages can finish (serve)
 * or finished points are kept (bench) and the process exits with its own code. A shutdown hook could not do that:
 * the JVM exits 143 after a SIGTERM whatever the hooks do.
 */
public final class Signals {

    private Signals() {
    }

    /** Runs {@code action} on SIGTERM or SIGINT until the returned handle is run, which restores the previous handlers. */
    public static Runnable onTermination(Runnable action) {
        List<Runnable> restore = new ArrayList<>();
        for (String name : new String[] {"TERM", "INT"}) {
            Signal signal = new Signal(name);
            SignalHandler previous = Signal.handle(signal, s -> action.run());
            restore.add(() -> Signal.handle(signal, previous));
        }
        return () -> restore.forEach(Runnable::run);
    }
}
