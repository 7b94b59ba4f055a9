package harness;

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
