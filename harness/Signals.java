package harness;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * Ctrl-C and SIGTERM start a graceful stop instead of killing the JVM, so that in-flight pages can finish (serve)
 * or finished points are kept (bench) and the process exits with its own code. A shutdown hook could not do that:
 * the JVM exits 143 after a SIGTERM whatever the hooks do.
 *
 * <p>The JDK's only way to handle a signal is {@code sun.misc.Signal} (module jdk.unsupported, exported to all). It
 * is reached by reflection, not imported: javac warns about every use of an internal API ("internal proprietary API
 * and may be removed") and no {@code @SuppressWarnings} or option silences that warning, which every jbang user saw
 * on the first run. The calls are the same ones; should the class ever go away, this fails on the first use, as an
 * import would have failed to compile.
 */
public final class Signals {

    private static final Class<?> SIGNAL = type("sun.misc.Signal");
    private static final Class<?> HANDLER = type("sun.misc.SignalHandler");
    private static final Method HANDLE = method(SIGNAL, "handle", SIGNAL, HANDLER);
    private static final Method RAISE = method(SIGNAL, "raise", SIGNAL);

    /**
     * Set to 1 in the environment of a PssrBench JVM started by another ({@link ServerProcess#child}): its standard
     * input is a pipe from the parent, and {@link #endWithParent} ends it when the pipe ends.
     */
    public static final String PARENT_PIPE = "PSSRBENCH_PARENT_PIPE";

    /**
     * How long a child whose parent is gone may take to stop as on SIGTERM (serve's drain is its --grace, 3 s by
     * default) before it is halted: an orphan must not outlive a stop that hangs.
     */
    static final long ORPHAN_HALT_MILLIS = 30_000;

    private Signals() {
    }

    /** Runs {@code action} on SIGTERM or SIGINT until the returned handle is run, which restores the previous handlers. */
    public static Runnable onTermination(Runnable action) {
        Object handler = Proxy.newProxyInstance(HANDLER.getClassLoader(), new Class<?>[] {HANDLER},
                (proxy, method, args) -> switch (method.getName()) {
                    case "handle" -> {   // SignalHandler's one method, handle(Signal)
                        action.run();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "Signals.onTermination handler";   // toString
                });
        List<Runnable> restore = new ArrayList<>();
        for (String name : new String[] {"TERM", "INT"}) {
            Object signal = construct(name);
            Object previous = invoke(HANDLE, signal, handler);
            restore.add(() -> invoke(HANDLE, signal, previous));
        }
        return () -> restore.forEach(Runnable::run);
    }

    /**
     * In a JVM started by another PssrBench JVM (the environment says so, {@link #PARENT_PIPE}), ends this one as
     * SIGTERM would once the parent is gone, however it ended. Linux gives a Java child no "die with the parent"
     * (prctl's PR_SET_PDEATHSIG needs native code), but the kernel closes a dead process's pipes, SIGKILL included:
     * a daemon thread reads the standard input, a pipe nobody writes to, until its end, then raises SIGTERM, which
     * runs the command's own stop (serve drains its pages) or the JVM's. Elsewhere (a terminal, /dev/null, a user's
     * own pipe) nothing is watched: a serve started by hand ends only when it is told to.
     */
    public static void endWithParent() {
        if (!"1".equals(System.getenv(PARENT_PIPE))) {
            return;
        }
        InputStream parent = System.in;
        Thread.ofPlatform().daemon(true).name("end-with-parent").start(() -> {
            byte[] ignored = new byte[256];
            try {
                while (parent.read(ignored) >= 0) {
                    // the parent writes nothing: only the end counts
                }
            } catch (IOException e) {
                // a broken pipe is an end as well
            }
            invoke(RAISE, construct("TERM"));
            try {
                Thread.sleep(ORPHAN_HALT_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(143);   // as SIGTERM's status: the stop did not finish in time
        });
    }

    private static Object construct(String name) {
        try {
            return SIGNAL.getConstructor(String.class).newInstance(name);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("sun.misc.Signal cannot be used: " + e, e);
        }
    }

    /** A static call ({@code Signal.handle}), its own exceptions (an unknown signal, one the JVM uses) as they are. */
    private static Object invoke(Method method, Object... args) {
        try {
            return method.invoke(null, args);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("sun.misc.Signal cannot be used: " + e, e);
        }
    }

    private static RuntimeException unwrap(InvocationTargetException e) {
        return e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }

    private static Class<?> type(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("this JDK has no " + name + " (module jdk.unsupported), which PssrBench"
                    + " needs to stop gracefully on Ctrl-C", e);
        }
    }

    private static Method method(Class<?> owner, String name, Class<?>... parameters) {
        try {
            return owner.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("this JDK's " + owner.getName() + " has no " + name, e);
        }
    }
}
