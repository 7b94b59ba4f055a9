package bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32, item 4: a server JVM that runs out of heap is a death bench says, quoting the JVM's own line. Not tagged
 * parallel: there (CI, 2026-11-28) bench ended but its output stayed open past end()'s 10 s once, and its
 * verification missed verify's timing rules another time; alone it passes (11 to 21 s).
 */
class ServerOomIT {

    private final List<Process> started = new ArrayList<>();

    /**
     * A heap too small for the load: 16 MiB passes verification (10 requests at a time) and runs out at 128
     * connections, in every JVM (4 of 4 tried, at load averages 2 to 11). Bench's server JVMs exit on an
     * OutOfMemoryError (left to the default, this one lost its JMX and its SIGTERM handler and held bench for good),
     * so it is a death like kill -9's, with the JVM's own line quoted; it happens again in the fresh JVM: exit 3.
     */
    @Test
    void aServerOutOfMemoryIsSaidWithTheJvmsOwnLineAndEndsBenchWhenItRunsOutAgain(@TempDir Path out)
            throws Exception {
        Process bench = ServerDiesIT.bench(started, out, "--connections=128", "--server-jvm=-Xmx16m");
        ServerDiesIT.Ended ended = ServerDiesIT.end(bench, harness.Drain.of(bench.getInputStream()),
                harness.Drain.of(bench.getErrorStream()));
        String all = ended.out() + ended.err();
        assertEquals(3, ended.status(), all);
        String oom = "(exited with status 3; its log ends: Terminating due to java.lang.OutOfMemoryError: Java heap"
                + " space)";
        assertTrue(ended.out().contains("bench: the server of repetition 1 of jdk-jstachio-virtual died ")
                && ended.out().contains(oom + "; repetition 1 is measured again in a fresh JVM (1 of at most 1)."),
                all);
        assertTrue(ended.err().startsWith("pssrbench: the server of repetition 1 of jdk-jstachio-virtual died ")
                && ended.err().contains(oom + ", after 1 fresh JVM for that repetition already"), ended.err());
        assertTrue(Files.readString(out.resolve("logs/jdk-jstachio-virtual.rep1-2.server.log"))
                .contains("Terminating due to java.lang.OutOfMemoryError"), "the JVM's standard output is in its log");
    }

    @AfterEach
    void stopWhatIsLeft() {
        ServerDiesIT.stop(started);
    }
}
