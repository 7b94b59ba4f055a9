package base;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one way a results folder's files are written: whole into a temporary file beside the target, then renamed
 * over it in one atomic step. A Ctrl-C, a crash or a full disk at any moment leaves the old file or the new one,
 * never half of one (a reader such as {@code report} or {@code --resume} would take a cut line for data). The
 * temporary file is in the same folder because a rename is atomic only within one file system.
 */
public final class AtomicFile {

    /** What writes a file's bytes. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private static final AtomicLong COUNTER = new AtomicLong();

    private AtomicFile() {
    }

    /** Replaces {@code file} with {@code text} in UTF-8, whole or not at all. */
    public static void write(Path file, CharSequence text) throws IOException {
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        write(file, out -> out.write(bytes));
    }

    /** Replaces {@code file} with what {@code content} writes, whole or not at all (its folder is created). */
    public static void write(Path file, Content content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        // A name of its own per writer (two JVMs may write the same folder), hidden, and recognisable if a kill -9
        // leaves it behind. Not Files.createTempFile: its file is readable by the owner only, and the results are
        // made to be shared (created here, the umask decides, as for any other file).
        Path temporary = dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + "."
                + COUNTER.incrementAndGet() + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot replace " + file + " atomically on this file system: " + e.getMessage(),
                        e);
            }
        } finally {
            Files.deleteIfExists(temporary);   // after a failure; gone already after the move
        }
    }

    /**
     * Adds {@code text} to the end of {@code file} (created if missing) by writing the whole new file: the files
     * appended to (runs.csv, a summary.csv of a script) are small, and an interrupted append must not leave a
     * half line.
     */
    public static void append(Path file, CharSequence text) throws IOException {
        byte[] before = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        byte[] added = text.toString().getBytes(StandardCharsets.UTF_8);
        write(file, out -> {
            out.write(before);
            out.write(added);
        });
    }
}
