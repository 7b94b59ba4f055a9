package tables;

import base.UsageException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether a folder may receive results: {@code --out} writes only into a folder that is new, empty, or PssrBench's
 * own results folder, so that a user's {@code report.html}, {@code summary.json} or {@code provenance.json} in a
 * folder named by mistake (often {@code .}) is never replaced or appended to. Checked by every command that writes
 * a results folder (bench, stress, browser) before anything is written.
 *
 * <p>How a folder is recognised as PssrBench's: its {@code provenance.json} is a JSON object whose {@code pssrbench}
 * (the version that wrote it) and {@code command} are text and whose {@code flags} is an object. Those are keys
 * {@link Provenance#record} writes into every run's record, whoever measured (bench, stress, browser, the wrk2
 * scripts through the {@code provenance} command), and every version has written them; a results file alone
 * ({@code summary.csv}, {@code report.html}) is not enough, as those names are common, and a folder without
 * provenance.json was not written by PssrBench (the first thing each command writes into it is its record).
 */
public final class ResultsFolder {

    private ResultsFolder() {
    }

    /** Whether {@code folder} holds a provenance.json that PssrBench wrote (see the class comment). */
    public static boolean isPssrBench(Path folder) {
        return Provenance.writtenHere(folder);
    }

    /** Whether {@code folder} is missing or an empty folder: a fresh start. */
    public static boolean isFresh(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return true;
        }
        if (!Files.isDirectory(folder)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.findAny().isEmpty();
        }
    }

    /**
     * Refuses, in one sentence naming {@code flag}, a folder that is neither fresh nor PssrBench's (a file, or a
     * folder with anything else in it), before anything is written into it.
     */
    public static void checkWritable(Path folder, String flag) {
        try {
            if (Files.exists(folder) && !Files.isDirectory(folder)) {
                throw new UsageException(flag + "=" + folder + " is a file, not a folder; choose a new or empty"
                        + " folder.");
            }
            if (!isFresh(folder) && !isPssrBench(folder)) {
                throw new UsageException(flag + "=" + folder + " is not empty and is not a PssrBench results folder"
                        + " (it has no " + Provenance.FILE + " written by PssrBench), so nothing in it is replaced;"
                        + " choose a new or empty folder.");
            }
        } catch (IOException e) {
            throw new UsageException(flag + "=" + folder + " cannot be read: " + e.getMessage() + ".");
        }
    }

    /** Whether {@code folder}'s provenance.json has a record of {@code command} (a run of it began there). */
    public static boolean hasRunOf(Path folder, String command) {
        try {
            return isPssrBench(folder) && !Provenance.recorded(folder, command, "command").isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
