package bench;

import bench.InterruptIT.Running;
import bench.InterruptIT.Stopped;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static bench.InterruptIT.assertReported;
import static bench.InterruptIT.signal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24's interrupt, for stress: the real jar as a process, stopped while a scenario runs, with InterruptIT's
 * helpers. A class of its own so that it runs beside InterruptIT's chain of sweeps, the longest of the classes tagged
 * parallel, instead of after it (pom.xml: each such class runs its tests one at a time).
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class StressInterruptIT {

    @BeforeAll
    static void findJar() {
        InterruptIT.findJar();
    }

    /**
     * stress, stopped (SIGTERM) while its second scenario runs: 130, one sentence, the server JVMs stopped, the first
     * scenario's row kept in stress.csv, provenance.json saying so, and report renders the folder.
     */
    @Test
    void stressStoppedDuringAScenarioKeepsTheFinishedOnes(@TempDir Path out) throws Exception {
        long started = System.nanoTime();
        Running r = Running.start(List.of("stress", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--scenario=aborts,idle", "--aborts=20", "--idle=20", "--half-sent=5", "--trickling=5",
                "--idle-timeout=10s", "--out=" + out));
        r.await("stress: idle on");   // the first scenario's row is written; the second's server starts
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (r.process().descendants().findAny().isEmpty()) {
            assertTrue(System.nanoTime() < deadline && r.process().isAlive(), "the idle scenario's server JVM");
            Thread.sleep(20);
        }
        Stopped s = signal(r, "TERM");
        assertEquals(130, s.code(), s.err());
        assertEquals(1, s.err().strip().lines().count(), "one sentence: " + s.err());
        assertTrue(s.err().startsWith("pssrbench: stopped; 1 finished scenarios kept"), s.err());
        List<String> csv = Files.readAllLines(out.resolve("stress.csv"));
        assertEquals(2, csv.size(), "the header and aborts' row: " + csv);
        assertTrue(csv.get(1).startsWith("aborts,jdk,"), csv.get(1));
        var p = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.resolve("provenance.json").toFile());
        assertTrue(p.path("stopped").asBoolean() && p.path("scenarios_run").asInt() == 1, p.toString());
        assertReported(out, "stress stopped");
        System.out.printf("StressInterruptIT: stress in %.0f s%n", (System.nanoTime() - started) / 1e9);
    }

    /**
     * stress stopped (SIGTERM) during a 2-minute soak: it ends within 15 s, 130, nothing measured. Its windows ran to
     * the soak's end against a server the stop had ended (seen: 62 s for a 60 s soak stopped 12 s in; a 30-minute
     * soak was deaf to Ctrl-C), until each window ended with its server.
     */
    @Test
    void stressStoppedDuringASoakEndsAtOnce(@TempDir Path out) throws Exception {
        Running r = Running.start(List.of("stress", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--scenario=soak", "--soak-duration=120s", "--out=" + out));
        r.await("stress: soak on");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (r.process().descendants().findAny().isEmpty()) {
            assertTrue(System.nanoTime() < deadline && r.process().isAlive(), "the soak's server JVM");
            Thread.sleep(20);
        }
        Thread.sleep(3000);   // its server serving the soak's load
        long stopped = System.nanoTime();
        Stopped s = signal(r, "TERM");
        double took = (System.nanoTime() - stopped) / 1e9;
        assertTrue(took < 15, "stopped in " + took + " s, not at the soak's end");
        assertEquals(130, s.code(), s.err());
        assertTrue(s.err().startsWith("pssrbench: stopped before a first scenario ended"), s.err());
    }
}
