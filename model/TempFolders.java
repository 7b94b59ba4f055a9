package model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary folders of engines that compile their templates at start-up (their generated classes). */
public final class TempFolders {

    private TempFolders() {
    }

    /** Deletes {@code folder} when the JVM exits. */
    public static void deleteOnExit(Path folder) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(folder)));
    }

    /** Deletes {@code folder} and everything in it, as far as it can. */
    public static void delete(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind: nothing to report at exit
        }
    }
}
