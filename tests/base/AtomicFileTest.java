package base;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A results file is replaced whole or not at all, and nothing is left beside it. */
class AtomicFileTest {

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void replacesAFileWholeAndLeavesNoTemporaryFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/summary.csv");
        AtomicFile.write(file, "a\n");
        AtomicFile.write(file, "b\n");
        AtomicFile.append(file, "c\n");
        assertEquals("b\nc\n", Files.readString(file));
        assertEquals(List.of("summary.csv"), names(file.getParent()));
        // Readable by others as any file the user creates (a temporary file's owner-only mode would hide it).
        assertTrue(Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_READ));
        assertEquals(Files.getPosixFilePermissions(Files.writeString(dir.resolve("plain"), "x")),
                Files.getPosixFilePermissions(file));
    }

    @Test
    void aWriteThatFailsHalfWayLeavesTheOldFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("provenance.json");
        AtomicFile.write(file, "old");
        assertThrows(IOException.class, () -> AtomicFile.write(file, out -> {
            out.write("half of the new".getBytes());
            throw new IOException("interrupted");
        }));
        assertEquals("old", Files.readString(file));
        assertEquals(List.of("provenance.json"), names(dir));
    }
}
