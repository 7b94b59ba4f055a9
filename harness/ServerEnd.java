package harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How a server JVM that ended on its own ended, in words for one sentence: its exit status or the signal that
 * killed it, and, when its log says OutOfMemoryError, that log's last lines (the JVM says there what ran out).
 */
public final class ServerEnd {

    /** The log's last lines quoted after an OutOfMemoryError: the error and the JVM's word on leaving. */
    static final int LOG_LINES = 3;

    private ServerEnd() {
    }

    /**
     * {@code exitValue} as Java reports a child's end (128 + the signal for one killed by a signal, as shells do)
     * and its standard error in {@code log} (null or unreadable: not quoted): e.g. "killed by signal 9 (SIGKILL)",
     * "exited with status 3; its log ends: java.lang.OutOfMemoryError: Java heap space | …".
     */
    public static String describe(int exitValue, Path log) {
        String how = exitValue > 128 && exitValue < 128 + 32 ? "killed by signal " + (exitValue - 128)
                + signalName(exitValue - 128) : "exited with status " + exitValue;
        List<String> lines = lines(log);
        if (lines.stream().noneMatch(l -> l.contains("OutOfMemoryError"))) {
            return how;
        }
        return how + "; its log ends: " + String.join(" | ", lines.subList(Math.max(0, lines.size() - LOG_LINES),
                lines.size()));
    }

    /** The non-blank lines of {@code log}, stripped; none when it is missing or unreadable. */
    private static List<String> lines(Path log) {
        try {
            return log == null ? List.of() : Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (IOException | RuntimeException e) {   // a log half written as the JVM died: nothing to quote
            return List.of();
        }
    }

    /** " (SIGKILL)" for the signals that end a JVM from outside or on a fatal error, else nothing. */
    private static String signalName(int signal) {
        return switch (signal) {
            case 9 -> " (SIGKILL)";
            case 15 -> " (SIGTERM)";
            case 6 -> " (SIGABRT)";
            case 11 -> " (SIGSEGV)";
            case 2 -> " (SIGINT)";
            default -> "";
        };
    }
}
