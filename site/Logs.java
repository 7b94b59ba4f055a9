package site;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * One logging setup for every server: everything goes through java.util.logging (Helidon's own choice;
 * Javalin, Jetty and Reactor Netty reach it through slf4j-jdk14), one line per record on stderr;
 * {@code -Dpssrbench.stacktraces=true} adds the stack traces of logged exceptions.
 */
public final class Logs {

    /** JUL holds loggers weakly: a level set on a logger nobody references would be lost at the next GC. */
    private static final java.util.List<Logger> CONFIGURED = new java.util.ArrayList<>();

    private Logs() {
    }

    public static synchronized void configure() {
        LogManager.getLogManager().reset();
        ConsoleHandler handler = new ConsoleHandler();   // stderr: stdout stays machine-readable
        handler.setLevel(Level.ALL);
        handler.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                String thrown = r.getThrown() == null ? "" : " (" + r.getThrown() + ")";
                if (r.getThrown() != null && Boolean.getBoolean("pssrbench.stacktraces")) {
                    java.io.StringWriter trace = new java.io.StringWriter();
                    r.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                    thrown = "\n" + trace;
                }
                return String.format("%1$tT.%1$tL %2$s %3$s: %4$s%5$s%n", r.getMillis(), r.getLevel().getName(),
                        r.getLoggerName(), formatMessage(r), thrown);
            }
        });
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        root.setLevel(Level.INFO);
    }

    /**
     * Drops the records of {@code logger} (its own, not its children's) that {@code ordinary} says a client caused by
     * ordinary behaviour: a malformed request the server already answered with a 4xx, a client that hung up. They
     * are not server faults, and at one line (or a request dump) per client they would flood a server's log under
     * load; PssrBench's stress scenarios require none at warning level. Anything else from the logger still shows.
     */
    public static synchronized void ignoreClientNoise(String logger, java.util.function.Predicate<LogRecord> ordinary) {
        Logger l = Logger.getLogger(logger);
        java.util.logging.Filter previous = l.getFilter();
        l.setFilter(r -> !ordinary.test(r) && (previous == null || previous.isLoggable(r)));
        CONFIGURED.add(l);
    }

    /** Whether {@code t} or one of its causes is of the class named {@code className} (or a subclass). */
    public static boolean causedBy(Throwable t, String className) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (Class<?> k = c.getClass(); k != null; k = k.getSuperclass()) {
                if (k.getName().equals(className)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Warnings and worse only, for a server library's loggers: their start-up banners and per-connection chatter are
     * noise in a benchmark log. Each server names its own when it starts.
     */
    public static synchronized void quiet(String... loggerPrefixes) {
        for (String noisy : loggerPrefixes) {
            Logger logger = Logger.getLogger(noisy);
            logger.setLevel(Level.WARNING);
            CONFIGURED.add(logger);
        }
    }
}
