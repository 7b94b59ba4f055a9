package stress;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak's figures (each series' first and last quarter, as medians) and its pass rule: a real passing run's
 * figures pass, and each kind of creep a misbehaving server would show fails it alone.
 */
class SoakTest {

    private static final StressSettings SETTINGS = new StressSettings(1, Duration.ofMillis(1), 1, 0, 0, 0,
            Duration.ofSeconds(1), 0, Duration.ofSeconds(1), Path.of("."), System.out, 1, 1, 1, http.Protocol.H1,
            Duration.ofSeconds(8), 16);

    /** jdk/jstachio/virtual, 8 s at 16 connections, 2026-11-28 (load average 11). */
    private static final Map<String, Object> JDK = Map.ofEntries(Map.entry("pages", 3845L), Map.entry("errors", 0L),
            Map.entry("heap_first_mb", 7.5), Map.entry("heap_last_mb", 6.99), Map.entry("rss_first_mb", 613.94),
            Map.entry("rss_last_mb", 623.38), Map.entry("threads_first", 34.0), Map.entry("threads_last", 34.0),
            Map.entry("fds_first", 14.0), Map.entry("fds_last", 14.0), Map.entry("ttlb_p99_first_ms", 43.76),
            Map.entry("ttlb_p99_last_ms", 64.47));

    private static Map<String, Object> with(String name, Object value) {
        Map<String, Object> f = new LinkedHashMap<>(JDK);
        f.put(name, value);
        return f;
    }

    private static boolean pass(Map<String, Object> f) {
        return Soak.SCENARIO.rule().pass(f);
    }

    @Test
    void aRealRunPassesAndEachCreepFailsAlone() {
        assertTrue(pass(JDK));
        assertFalse(pass(with("errors", 1L)), "a page not complete");
        assertFalse(pass(with("heap_last_mb", 7.5 * 1.25 + 8.1)), "the heap after GC grew: a Java leak");
        assertTrue(pass(with("heap_last_mb", 7.5 * 1.25 + 7.9)), "within 25% + 8 MB");
        assertFalse(pass(with("rss_last_mb", 613.94 * 1.1 + 32.5)), "RSS grew outside the heap: a native leak");
        assertFalse(pass(with("threads_last", 43.0)), "a thread per request leaked");
        assertFalse(pass(with("fds_last", 31.0)), "connections or files never closed");
        assertFalse(pass(with("ttlb_p99_last_ms", 43.76 * 2 + 10.5)), "pages slower and slower");
        assertFalse(pass(with("pages", 0L)), "nothing served");
    }

    @Test
    void eachFigureIsTheMedianOfItsQuarter() {
        List<Soak.Sample> taken = new ArrayList<>();
        for (int i = 0; i < 8; i++) {   // a heap that grows 10 MB a window; one slow window in the last quarter
            taken.add(new Soak.Sample(i + 1, 100, 0, 100, i == 7 ? 500 : 20, 10 + 10 * i, 600, 30 + i, 0, 14));
        }
        Map<String, Object> f = Soak.figures(taken, SETTINGS, "no JMX");
        assertEquals(15.0, f.get("heap_first_mb"));   // windows 1 and 2: 10, 20
        assertEquals(75.0, f.get("heap_last_mb"));    // windows 7 and 8: 70, 80
        assertEquals(260.0, f.get("ttlb_p99_last_ms"));
        assertEquals(800L, f.get("pages"));
        assertFalse(Soak.SCENARIO.rule().pass(f), "the growing heap fails: " + f);
    }

    @Test
    void aQuarterWithNoReadingCannotPass() {
        List<Soak.Sample> taken = new ArrayList<>();
        for (int i = 0; i < 8; i++) {   // no heap reading in the first quarter (-1: no JMX), then 10 MB
            taken.add(new Soak.Sample(i + 1, 100, 0, 100, 20, i < 2 ? -1 : 10, 600, 30, 0, 14));
        }
        Map<String, Object> f = Soak.figures(taken, SETTINGS, "no JMX from the server");
        assertEquals(new Scenario.Unread("no JMX from the server (none of the quarter's 2 sample(s) read it)"),
                f.get("heap_first_mb"));
        assertEquals(10.0, f.get("heap_last_mb"));
        assertFalse(Soak.SCENARIO.rule().pass(f), "a heap it could not read is not a heap that held: " + f);
        taken.set(1, new Soak.Sample(2, 100, 0, 100, 20, 9, 600, 30, 0, 14));
        assertEquals(9.0, Soak.figures(taken, SETTINGS, "").get("heap_first_mb"), "the median of what was read");
        assertTrue(Soak.SCENARIO.rule().pass(Soak.figures(taken, SETTINGS, "")));
    }

    @Test
    void noHeapAfterGcIsReadBeforeTheServersFirstGc() {
        // A G1 JVM read before its first GC: the pools' use after GC is 0, which is no reading (a soak whose first
        // quarter came before it compared its last quarter's heap with 0 and failed, or passed on 0 and 0)
        assertEquals(-1, StressServer.afterGc(new harness.ServerJmx.Sample(0, 0, 0, 0)));
        assertEquals(30L << 20, StressServer.afterGc(new harness.ServerJmx.Sample(0, 30L << 20, 1, 4)));
    }
}
