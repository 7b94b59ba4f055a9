package harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server JVM's standard output: its URL line found past the JVM's own lines, and every other line kept. */
class StandardOutTest {

    private static final Pattern URL = Pattern.compile("serving (https?://\\S+/) ");

    /** bench --server-jvm=-Xlog:gc: the JVM logs to standard output before the server says where it serves. */
    @Test
    void theJvmsOwnLinesBeforeAndAfterTheUrlGoToTheLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "an error line\n");
        BufferedReader out = new BufferedReader(new StringReader("[0.003s][info][gc] Using G1\n"
                + "pssrbench: serving http://127.0.0.1:4321/ server=jdk engine=jstachio mode=virtual delay=1ms\n"
                + "Terminating due to java.lang.OutOfMemoryError: Java heap space\n"));
        Matcher url = StandardOut.untilServing(out, URL, log);
        assertEquals("http://127.0.0.1:4321/", url.group(1));
        StandardOut.drain(out, log, "test");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!Files.readString(log).contains("Terminating") && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals("an error line\n[0.003s][info][gc] Using G1\n"
                + "Terminating due to java.lang.OutOfMemoryError: Java heap space\n", Files.readString(log));
    }

    @Test
    void aJvmThatEndsBeforeServingLeavesItsLinesInTheLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        assertNull(StandardOut.untilServing(new BufferedReader(new StringReader(
                "Terminating due to java.lang.OutOfMemoryError: Java heap space\n")), URL, log));
        assertTrue(Files.readString(log).contains("OutOfMemoryError"));
    }
}
