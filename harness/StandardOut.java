package harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server JVM's standard output, which bench reads for the line that gives the server's URL and which the JVM itself
 * also writes to: a {@code -Xlog} option's log goes there by default (before that line, too), and
 * {@code -XX:+ExitOnOutOfMemoryError} says there why it ends. Every other line is appended to the server's log, beside
 * its standard error, and the pipe is drained for the JVM's whole life, since a pipe nobody reads fills (64 KiB on
 * Linux) and then stops the JVM at its next write.
 */
final class StandardOut {

    private StandardOut() {
    }

    /** Reads {@code out} up to the first line {@code serving} matches, the lines before it appended to {@code log}. */
    static Matcher untilServing(BufferedReader out, Pattern serving, Path log) throws IOException {
        try (Writer w = append(log)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                Matcher m = serving.matcher(line);
                if (m.find()) {
                    return m;
                }
                w.write(line + "\n");
                w.flush();   // the JVM appends its standard error to the same file meanwhile
            }
        }
        return null;   // ended before serving: its log says why
    }

    /** Appends the rest of {@code out} to {@code log} in a daemon thread, until the JVM closes it (ends). */
    static void drain(BufferedReader out, Path log, String name) {
        Thread.ofPlatform().daemon().name("stdout of " + name).start(() -> {
            try (out; Writer w = append(log)) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    w.write(line + "\n");
                    w.flush();
                }
            } catch (IOException e) {
                // the JVM ended or its log went away: nothing more to keep
            }
        });
    }

    /** O_APPEND, as the JVM's own redirect: each line lands whole at the end, whoever writes next. */
    private static Writer append(Path log) throws IOException {
        return Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
