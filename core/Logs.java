package core;

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
