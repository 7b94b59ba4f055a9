package importers;

import tables.TimelineCsv;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader on real recordings: this JVM records itself twice as bench records a server's two windows of a ramp
 * (the JDK's "default" settings, named as bench names them), with a pause between them as --settle leaves one; the
 * first with the virtual threads' start and end enabled, as bench --jfr records, the second without, as a recording
 * of an earlier PssrBench was made. In each window it starts virtual threads that allocate, and collects once.
 */
public class JfrTimelineTest {

    public static final String FIRST = "nima-jstachio-virtual-stocks-c1-rep1";
    public static final String SECOND = "nima-jstachio-virtual-stocks-c4-rep1";
    static final int VIRTUAL = 200;
    private static final long SETTLE_MS = 300;

    @TempDir
    static Path folder;
    private static List<TimelineCsv.Line> lines;

    /** Two windows of one JVM into {@code dir}: about 2.5 s. */
    public static void record(Path dir) throws Exception {
        window(dir.resolve(FIRST + ".jfr"), true);
        Thread.sleep(SETTLE_MS);
        window(dir.resolve(SECOND + ".jfr"), false);
    }

    private static void window(Path file, boolean virtualThreads) throws Exception {
        try (Recording r = new Recording(Configuration.getConfiguration("default"))) {
            // Every 100 ms rather than the default's every second: a 1.1 s window in a test JVM shared with other
            // classes on a loaded machine met its periodic events' turn or not (failed once in a 12-class run).
            r.enable("jdk.CPULoad").withPeriod(java.time.Duration.ofMillis(100));
            r.enable("jdk.JavaThreadStatistics").withPeriod(java.time.Duration.ofMillis(100));
            if (virtualThreads) {
                r.enable("jdk.VirtualThreadStart");
                r.enable("jdk.VirtualThreadEnd");
            }
            r.start();
            long end = System.nanoTime() + 1_100_000_000L;
            List<Thread> started = new ArrayList<>();
            while (System.nanoTime() < end) {
                if (started.size() < VIRTUAL) {
                    started.add(Thread.ofVirtual().start(() -> sink = new byte[64 * 1024]));
                }
                sink = new byte[4096];
                if (started.size() == VIRTUAL / 2) {
                    System.gc();   // one pause at least: its figures are what is checked
                    started.add(Thread.ofVirtual().start(() -> { }));
                }
            }
            for (Thread t : started) {
                t.join();
            }
            r.stop();
            r.dump(file);
        }
    }

    static volatile byte[] sink;

    @BeforeAll
    static void read() throws Exception {
        Path jfr = Files.createDirectories(folder.resolve("jfr"));
        record(jfr);
        lines = JfrTimeline.read(jfr);
    }

    private static List<TimelineCsv.Line> of(String point, String metric) {
        return lines.stream().filter(l -> l.point().equals(point) && l.metric().equals(metric)).toList();
    }

    private static double sum(String point, String metric) {
        return of(point, metric).stream().mapToDouble(TimelineCsv.Line::value).sum();
    }

    @Test
    void bothWindowsAreOneJvmsRampOnOneClockWithTheirCountsAndTheGapBetween() {
        assertEquals(Set.of("nima-jstachio-virtual-stocks-rep1"),
                lines.stream().map(TimelineCsv.Line::jvm).collect(Collectors.toSet()));
        TimelineCsv.Line start1 = of(FIRST, TimelineCsv.WINDOW_START).get(0);
        TimelineCsv.Line end1 = of(FIRST, TimelineCsv.WINDOW_END).get(0);
        TimelineCsv.Line start2 = of(SECOND, TimelineCsv.WINDOW_START).get(0);
        TimelineCsv.Line end2 = of(SECOND, TimelineCsv.WINDOW_END).get(0);
        assertEquals(0.0, start1.second());
        assertEquals(1.0, start1.value());
        assertEquals(4.0, start2.value());
        assertTrue(end1.second() >= 1.0, end1.toString());   // no upper bound: a loaded machine stretches it
        assertTrue(start2.second() - end1.second() >= SETTLE_MS / 1000.0 * 0.9, start2 + " after " + end1);
        assertTrue(end2.second() - start2.second() >= 1.0, end2 + " after " + start2);
        for (TimelineCsv.Line l : lines) {   // every figure inside its own window
            boolean first = l.point().equals(FIRST);
            double from = (first ? start1 : start2).second();
            double to = (first ? end1 : end2).second();
            assertTrue(l.second() >= Math.floor(from) && l.second() <= Math.ceil(to), l.toString());
        }
    }

    @Test
    void eachWindowHasItsCollectionsHeapThreadsAndCpu() {
        for (String point : List.of(FIRST, SECOND)) {
            assertTrue(sum(point, "gc_count") >= 1, point);
            assertTrue(sum(point, "gc_pause_ms") > 0, point);
            List<TimelineCsv.Line> used = of(point, "heap_used_after_gc_mb");
            assertFalse(used.isEmpty(), point);
            assertTrue(used.stream().allMatch(l -> l.value() > 0), used.toString());
            assertTrue(of(point, "heap_committed_mb").stream().allMatch(l -> l.value() >= used.get(0).value() * 0.5));
            assertFalse(of(point, "threads_live").isEmpty(), point);
            assertTrue(of(point, "threads_live").stream().allMatch(l -> l.value() >= 1), point);
            assertFalse(of(point, "virtual_threads_pinned").isEmpty(), point);
        }
        List<TimelineCsv.Line> cpu = lines.stream().filter(l -> l.metric().equals("cpu_process_pct")).toList();
        assertFalse(cpu.isEmpty());
        // JFR's first CPU sample of a JVM reads 0 (it has no earlier one to count from): some, not all, above 0.
        assertTrue(cpu.stream().allMatch(l -> l.value() >= 0 && l.value() <= 100), cpu.toString());
        assertTrue(cpu.stream().anyMatch(l -> l.value() > 0), cpu.toString());
        assertTrue(lines.stream().filter(l -> l.metric().equals("cpu_machine_pct"))
                .allMatch(l -> l.value() >= 0 && l.value() <= 100));
    }

    @Test
    void virtualThreadsAreCountedWhereRecordedOnly() {
        assertTrue(sum(FIRST, "virtual_threads_started") >= VIRTUAL, "" + sum(FIRST, "virtual_threads_started"));
        assertTrue(sum(FIRST, "virtual_threads_ended") >= VIRTUAL, "" + sum(FIRST, "virtual_threads_ended"));
        assertTrue(of(SECOND, "virtual_threads_started").isEmpty());
        assertTrue(of(SECOND, "virtual_threads_ended").isEmpty());
    }

    @Test
    void aFileThatIsNoRecordingIsOneSentenceNamingIt(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("nima-jstachio-virtual-stocks-c1-rep1.jfr");
        Files.writeString(bad, "not a recording");
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> JfrTimeline.read(dir));
        assertTrue(e.getMessage().startsWith("JFR recording " + bad + " cannot be read: "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void theCsvKeepsEveryLineToAThousandth() throws Exception {
        TimelineCsv.write(folder, lines);
        List<TimelineCsv.Line> read = TimelineCsv.read(folder.resolve(TimelineCsv.FILE));
        assertEquals(lines.size(), read.size());
        for (int i = 0; i < read.size(); i++) {
            TimelineCsv.Line a = lines.get(i);
            TimelineCsv.Line b = read.get(i);
            assertEquals(List.of(a.jvm(), a.point(), a.metric()), List.of(b.jvm(), b.point(), b.metric()));
            assertEquals(a.second(), b.second(), 0.0005);
            assertEquals(a.value(), b.value(), 0.0005);
        }
        Map<String, Long> header = Map.of(String.join(",", TimelineCsv.COLUMNS), 1L);
        assertEquals(header, Files.readAllLines(folder.resolve(TimelineCsv.FILE)).stream().limit(1)
                .collect(Collectors.groupingBy(s -> s, Collectors.counting())));
    }
}
