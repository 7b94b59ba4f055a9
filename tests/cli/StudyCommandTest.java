package cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code study}: the page of a folder to DIR/study.md or --out; a folder that does not exist is a usage error. */
class StudyCommandTest {

    @Test
    void writesThePageOrRefusesAMissingFolder(@TempDir Path dir) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Cli.run(new PrintWriter(out), new PrintWriter(err), "study", "--from=" + dir), err.toString());
        assertTrue(Files.readString(dir.resolve("study.md")).contains("**not measured**"));
        assertTrue(out.toString().contains("study: " + dir.resolve("study.md")), out.toString());
        Path other = dir.resolve("other.md");
        assertEquals(0, Cli.run(new PrintWriter(out), new PrintWriter(err), "study", "--from=" + dir,
                "--out=" + other));
        assertTrue(Files.isRegularFile(other));
        assertEquals(2, Cli.run(new PrintWriter(out), new PrintWriter(err), "study", "--from=" + dir.resolve("no")));
        assertTrue(err.toString().contains("no such folder: " + dir.resolve("no")), err.toString());
    }
}
