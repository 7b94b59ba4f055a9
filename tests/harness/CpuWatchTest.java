package harness;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Foreign CPU and steal between two readings. */
@Tag("alone")   // reads the whole machine's CPU: a test JVM beside it would be foreign CPU (pom.xml)
class CpuWatchTest {

    @Test
    void foreignCpuIsTheMachinesBusyTimeLessTheMeasuredProcesses() {
        // Two seconds: the machine busy 300 ticks, the measured processes 120 of them, 4 ticks stolen of 400.
        CpuWatch.Mark a = new CpuWatch.Mark(1000, 10, 5000, 500, 0, true);
        CpuWatch.Mark b = new CpuWatch.Mark(1300, 14, 5400, 620, 2_000_000_000L, true);
        CpuWatch.Conditions c = CpuWatch.between(a, b);
        assertEquals(0.9, c.foreignCores(), 1e-9, "180 ticks over 2 s at 100 a second");
        assertEquals(1.0, c.stealPct(), 1e-9);
        assertTrue(Double.isNaN(CpuWatch.between(a, new CpuWatch.Mark(0, 0, 0, 0, 1, false)).foreignCores()),
                "unknown where /proc could not be read");
    }

    /** On this machine: a busy thread in another process counts as foreign, this JVM's own work does not. */
    @Test
    void aNeighboursWorkIsForeignAndOurOwnIsNot() throws Exception {
        if (!java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat"))) {
            return;   // not Linux: nothing to read
        }
        long self = ProcessHandle.current().pid();
        CpuWatch.Mark a = CpuWatch.mark(self);
        long end = System.nanoTime() + 1_000_000_000L;
        double sink = 0;
        while (System.nanoTime() < end) {
            sink += Math.sqrt(sink + 1);   // one core busy in a measured process
        }
        CpuWatch.Conditions own = CpuWatch.between(a, CpuWatch.mark(self));
        assertTrue(own.foreignCores() < 0.5, "our own busy core is not foreign: " + own + " " + sink);

        Process hog = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try {
            Thread.sleep(200);
            CpuWatch.Mark b = CpuWatch.mark(self);
            Thread.sleep(1500);
            CpuWatch.Conditions neighbour = CpuWatch.between(b, CpuWatch.mark(self));
            assertTrue(neighbour.foreignCores() > 0.6, "a shell loop is about one core: " + neighbour);
        } finally {
            hog.destroyForcibly().waitFor();
        }
    }
}
