package harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a server JVM that ended on its own is told: its signal or exit status, its log's end after an OOM. */
class ServerEndTest {

    @Test
    void aSignalIsNamedAndAPlainExitIsItsStatus(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "Picked up JAVA_TOOL_OPTIONS: -Xmx12m\nsomething went wrong\n");
        assertEquals("killed by signal 9 (SIGKILL)", ServerEnd.describe(137, log), "128 + 9, as Java reports it");
        assertEquals("killed by signal 6 (SIGABRT)", ServerEnd.describe(134, log));
        assertEquals("exited with status 1", ServerEnd.describe(1, log), "no OutOfMemoryError: the log not quoted");
        assertEquals("exited with status 0", ServerEnd.describe(0, null));
        assertEquals("exited with status 3", ServerEnd.describe(3, dir.resolve("missing.log")));
    }

    /** -XX:+ExitOnOutOfMemoryError exits with status 3 after one line; a JVM left to its default writes more. */
    @Test
    void anOutOfMemoryErrorQuotesTheLogsLastLines(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "Picked up JAVA_TOOL_OPTIONS: -Xmx12m -XX:+ExitOnOutOfMemoryError\n\n"
                + "Terminating due to java.lang.OutOfMemoryError: Java heap space\n");
        assertEquals("exited with status 3; its log ends: Picked up JAVA_TOOL_OPTIONS: -Xmx12m"
                + " -XX:+ExitOnOutOfMemoryError | Terminating due to java.lang.OutOfMemoryError: Java heap space",
                ServerEnd.describe(3, log));
        Files.writeString(log, "a\nb\nException in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n"
                + "\tat Foo.bar(Foo.java:1)\n\tat Foo.main(Foo.java:2)\n");
        assertEquals("exited with status 1; its log ends: Exception in thread \"main\" java.lang.OutOfMemoryError:"
                + " Java heap space | at Foo.bar(Foo.java:1) | at Foo.main(Foo.java:2)", ServerEnd.describe(1, log));
    }
}
