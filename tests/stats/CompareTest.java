package stats;

import base.UsageException;
import report.BenchFolder;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code compare}: what it finds between folders written with known figures, and what it refuses. */
class CompareTest {

    private static final List<String> ALL = Compare.metrics(null);

    private static long count(String text, String part) {
        return text.lines().filter(l -> l.contains(part)).count();
    }

    /** The rows of the tables that judge a change so: {@code ... worse  p=0.008 n=5+5}. */
    private static long judged(String text, String verdict, String p) {
        return text.lines().filter(l -> l.matches(".* " + verdict + " +" + Pattern.quote(p) + ".*")).count();
    }

    @Test
    void identicalFoldersShowNoChangeAnywhere(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path b = new BenchFolder().write(dir.resolve("b"));
        Compare.Result r = Compare.folders(a, b, ALL);
        assertEquals(2, r.points().size());
        for (Compare.Point p : r.points()) {
            assertEquals(ALL, List.copyOf(p.cells().keySet()));
            for (Compare.Cell c : p.cells().values()) {
                assertTrue(c.tested(), p.label());
                assertFalse(c.significant(), p.label());
                assertEquals(1.0, c.shift().ratio(), 1e-12);
                assertEquals(1.0, c.shift().p(), 1e-12);
            }
        }
        assertEquals(List.of(), r.failures(0.1));
        String text = CompareText.of(r);
        assertEquals(2 * ALL.size(), count(text, "  ~ [-"), text);
        assertEquals(2 * ALL.size(), count(text, "p=1.000 n=5+5"), text);
        assertEquals(0, judged(text, "worse", "p=") + judged(text, "better", "p="), text);
        assertTrue(text.contains("  nima jstachio virtual presentations c16  900 ±5 (5)  900 ±5 (5)"), text);
        assertTrue(text.contains("exact permutation test"), text);
    }

    /** B: requests per second × 0.8, latencies and CPU × 1.25, each with its own noise within ±1%. */
    @Test
    void aTwentyPercentSlowerBIsSignificantlyWorseAndFailsATenPercentGate(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path b = new BenchFolder().slower(1.25).noise(3).write(dir.resolve("b"));
        Compare.Result r = Compare.folders(a, b, ALL);
        for (Compare.Point p : r.points()) {
            for (String metric : ALL) {
                Compare.Cell c = p.cells().get(metric);
                double expected = metric.equals("req_per_s") ? 0.8 : 1.25;
                String where = p.label() + " " + metric + ": " + c.shift();
                assertTrue(c.significant(), where);
                assertEquals(2.0 / 252, c.shift().p(), 1e-9, where);   // all of B on one side: 2 of C(10, 5) splits
                assertEquals(expected, c.shift().ratio(), 0.02 * expected, where);
                Stats.Interval ci = c.shift().interval();
                assertTrue(ci.lo() <= expected && expected <= ci.hi(), where);   // contains the true change
                assertTrue(ci.hi() < 1 || ci.lo() > 1, where);                    // and excludes none
                assertTrue(c.worsePct(metric) > 18, where);
            }
        }
        assertEquals(2 * ALL.size(), r.failures(10).size());
        assertEquals(List.of(), r.failures(30));
        String text = CompareText.of(r);
        assertEquals(2 * ALL.size(), judged(text, "worse", "p=0.008 n=5+5"), text);
        assertEquals(0, judged(text, "better", "p=") + count(text, "~ ["), text);
        assertTrue(text.contains("-20.0% [") || text.contains("-19.9% [") || text.contains("-20.1% ["), text);
        String gate = CompareText.gate(r, 10);
        assertTrue(gate.startsWith("\ngate --threshold=10%: FAILED, 16 changes significantly worse than 10%:\n"), gate);
        assertTrue(Pattern.compile("\n  nima jstachio virtual presentations c16  req_per_s +-(19|20)\\.\\d%"
                + "  p=0\\.008\n").matcher(gate).find(), gate);
        assertEquals("\ngate --threshold=30%: passed, no change significantly worse than 30%.\n",
                CompareText.gate(r, 30));
        Compare.Result back = Compare.folders(b, a, ALL);   // the other way round: better, and the gate passes
        assertEquals(2 * ALL.size(), judged(CompareText.of(back), "better", "p=0.008"), CompareText.of(back));
        assertEquals(List.of(), back.failures(10));
    }

    @Test
    void foldersThatMeasuredDifferentThingsAreRefusedNamingTheDifference(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path stocks = new BenchFolder().pages("stocks").write(dir.resolve("stocks"));
        UsageException pages = assertThrows(UsageException.class, () -> Compare.folders(a, stocks, ALL));
        assertEquals("A (" + a + ") and B (" + stocks + ") measured different things: pages presentations, stocks"
                + " in A, stocks in B.", pages.getMessage());

        Path slow = new BenchFolder().delay("5ms").write(dir.resolve("slow"));
        UsageException delay = assertThrows(UsageException.class, () -> Compare.folders(a, slow, ALL));
        assertEquals("A (" + a + ") and B (" + slow + ") measured different things: delay 1ms in A, 5ms in B.",
                delay.getMessage());

        Path unknown = new BenchFolder().delay(null).write(dir.resolve("unknown"));
        assertEquals("A (" + unknown + ") and B (" + a + ") measured different things: delay not recorded in A, 1ms"
                + " in B.", assertThrows(UsageException.class, () -> Compare.folders(unknown, a, ALL)).getMessage());
        Path unknownToo = new BenchFolder().delay(null).write(dir.resolve("unknown-too"));
        assertEquals(2, Compare.folders(unknown, unknownToo, ALL).points().size(), "missing in both is fine");

        Path h2c = new BenchFolder().transport("h2c", 8).write(dir.resolve("h2c"));
        assertEquals("A (" + a + ") and B (" + h2c + ") measured different things: protocols h1 in A, h2c x8 streams"
                + " in B.", assertThrows(UsageException.class, () -> Compare.folders(a, h2c, ALL)).getMessage());
        Path h2cToo = new BenchFolder().transport("h2c", 8).noise(1).write(dir.resolve("h2c-too"));
        Compare.Result same = Compare.folders(h2c, h2cToo, ALL);
        assertEquals(2, same.points().size(), "the same protocol and streams: compared");
        assertTrue(same.points().get(0).label().endsWith(" h2c x8 streams"), same.points().get(0).label());
    }

    @Test
    void threeRepetitionsCannotBeSignificantAndFewerAreNotTested(@TempDir Path dir) throws IOException {
        Compare.Result three = Compare.folders(new BenchFolder().repetitions(3).write(dir.resolve("a3")),
                new BenchFolder().repetitions(3).slower(1.25).noise(3).write(dir.resolve("b3")), ALL);
        for (Compare.Point p : three.points()) {
            for (Compare.Cell c : p.cells().values()) {
                assertTrue(c.tested());
                assertFalse(c.significant(), "3+3 can do no better than p = 0.1");
                assertEquals(0.1, c.shift().p(), 1e-12);
            }
        }
        assertEquals(List.of(), three.failures(10));
        String text = CompareText.of(three);
        assertEquals(2 * ALL.size(), count(text, "p=0.100 n=3+3"), text);
        assertEquals(2 * ALL.size(), count(text, "  ~ ["), text);
        assertTrue(text.contains("With 3 repetitions a side no change can reach p < 0.05"), text);

        Compare.Result two = Compare.folders(new BenchFolder().repetitions(2).write(dir.resolve("a2")),
                new BenchFolder().repetitions(2).slower(1.25).write(dir.resolve("b2")), ALL);
        String twoText = CompareText.of(two);
        assertEquals(2 * ALL.size(), count(twoText, "too few repetitions to test  "), twoText);
        assertEquals(0, count(twoText, "p="), twoText);
        assertTrue(two.points().stream().flatMap(p -> p.cells().values().stream()).noneMatch(Compare.Cell::tested));
        assertEquals(List.of(), two.failures(10));
    }

    /**
     * Two pool sizes (--threads) are two points: compared each with its own between folders, and against the
     * baseline at the same size, or the baseline's only point where it has no pool (virtual).
     */
    @Test
    void eachPoolSizeIsAPointOfItsOwn(@TempDir Path dir) throws IOException {
        String[] pools = {"nima/raw/blocking@4", "nima/raw/blocking@200", "nima/jstachio/blocking@4",
                "nima/jstachio/blocking@200"};
        Compare.Result ab = Compare.folders(new BenchFolder().pages("stocks").combinations(pools).write(
                dir.resolve("a")), new BenchFolder().pages("stocks").combinations(pools).slower(
                "nima/jstachio/blocking@4", 2).write(dir.resolve("b")), List.of("req_per_s"));
        assertEquals(List.of("nima jstachio blocking stocks c16 t4", "nima jstachio blocking stocks c16 t200",
                "nima raw blocking stocks c16 t4", "nima raw blocking stocks c16 t200"),
                ab.points().stream().map(Compare.Point::label).toList());
        assertEquals(1, ab.failures(20).size(), "only the point on 4 threads got slower: " + CompareText.of(ab));
        Path one = new BenchFolder().pages("stocks").combinations("nima/raw/virtual", "nima/raw/blocking@4",
                "nima/raw/blocking@200", "nima/jstachio/blocking@4", "nima/jstachio/blocking@200",
                "nima/jstachio/virtual").slower("nima/jstachio/blocking@4", 2).write(dir.resolve("one"));
        Compare.Result pooled = Compare.baseline(one, "nima/raw/blocking", List.of("req_per_s"));
        assertEquals(List.of("nima jstachio blocking stocks c16 t4", "nima jstachio blocking stocks c16 t200"),
                pooled.points().stream().map(Compare.Point::label).toList(), "virtual has no pool size to match");
        assertEquals(1, pooled.failures(20).size(), "against raw on 4 threads: " + CompareText.of(pooled));
        assertEquals(List.of("nima jstachio blocking stocks c16 t4", "nima jstachio blocking stocks c16 t200",
                "nima jstachio virtual stocks c16", "nima raw blocking stocks c16 t4",
                "nima raw blocking stocks c16 t200"),
                Compare.baseline(one, "nima/raw/virtual", List.of("req_per_s"))
                .points().stream().map(Compare.Point::label).toList(), "the baseline's only point, for any size");
    }

    /** One folder, the raw engine as the baseline: pebble 10% faster than it, jstachio 40% slower. */
    @Test
    void theBaselineModeRanksEachCombinationAgainstTheBaseline(@TempDir Path dir) throws IOException {
        Path folder = new BenchFolder().combinations("nima/raw/virtual", "nima/jstachio/virtual", "nima/pebble/virtual")
                .slower("nima/jstachio/virtual", 1.4).slower("nima/pebble/virtual", 0.9).write(dir.resolve("one"));
        Compare.Result r = Compare.baseline(folder, "nima/raw/virtual", List.of("req_per_s", "ttlb_p50_ms"));
        assertEquals(List.of("nima jstachio virtual presentations c16", "nima jstachio virtual stocks c16",
                "nima pebble virtual presentations c16", "nima pebble virtual stocks c16"),
                r.points().stream().map(Compare.Point::label).toList());
        String text = CompareText.of(r);
        for (String metric : List.of("req_per_s (", "ttlb_p50_ms (")) {
            String table = text.substring(text.indexOf(metric));
            int pebble = table.indexOf("geomean nima/pebble/virtual");
            int jstachio = table.indexOf("geomean nima/jstachio/virtual");
            assertTrue(0 < pebble && pebble < jstachio, "the better one first: " + table);
        }
        assertTrue(Pattern.compile("geomean nima/pebble/virtual +\\+11\\.1% ").matcher(text).find(), text);
        assertTrue(Pattern.compile("geomean nima/jstachio/virtual +-28\\.6% ").matcher(text).find(), text);
        assertEquals(4, judged(text, "better", "p=0.008"), text);
        assertEquals(4, judged(text, "worse", "p=0.008"), text);
        assertEquals(4, r.failures(20).size(), "jstachio's, both metrics, both pages");

        UsageException unknown = assertThrows(UsageException.class,
                () -> Compare.baseline(folder, "nima/raw/blocking", ALL));
        assertEquals("no combination nima/raw/blocking in " + folder + "; it holds nima/jstachio/virtual,"
                + " nima/pebble/virtual, nima/raw/virtual.", unknown.getMessage());
    }

    @Test
    void anInvalidPointIsListedNotTested(@TempDir Path dir) throws IOException {
        Compare.Result r = Compare.folders(new BenchFolder().write(dir.resolve("a")),
                new BenchFolder().failing("stocks", 2).write(dir.resolve("b")), ALL);
        assertEquals(List.of("nima jstachio virtual presentations c16"),
                r.points().stream().map(Compare.Point::label).toList());
        assertEquals(List.of(new Compare.Skipped("nima jstachio virtual stocks c16",
                "invalid in B (errors: timeout 3)")), r.notCompared());
        assertTrue(CompareText.of(r).contains("\nnot compared: nima jstachio virtual stocks c16: invalid in B"
                + " (errors: timeout 3)\n"), CompareText.of(r));
    }

    /** A disturbed repetition measured again counts by its new window; one that was not is marked. */
    @Test
    void disturbedRepetitionsAreMarkedAndCountedAndRetriedOnesUseTheirNewWindow(@TempDir Path dir)
            throws IOException {
        Compare.Result r = Compare.folders(new BenchFolder().retried("presentations", 2).write(dir.resolve("a")),
                new BenchFolder().disturbed("stocks", 4).write(dir.resolve("b")), ALL);
        assertEquals(List.of(false, true), r.points().stream().map(Compare.Point::disturbed).toList());
        r.points().forEach(p -> assertEquals(1.0, p.cells().get("req_per_s").shift().p(), 1e-12, "the same runs"));
        String text = CompareText.of(r);
        assertEquals(ALL.size(), count(text, "  nima jstachio virtual stocks c16 !  "), text);
        assertEquals(0, count(text, "presentations c16 !"), text);
        assertTrue(text.contains("!: 1 of 2 points had disturbed repetitions in A or B"), text);
    }

    @Test
    void combinationsMeasuredOnOneSideOnlyAreLeftOutAndCounted(@TempDir Path dir) throws IOException {
        Compare.Result r = Compare.folders(
                new BenchFolder().combinations("nima/jstachio/virtual", "nima/pebble/virtual").write(dir.resolve("a")),
                new BenchFolder().write(dir.resolve("b")), ALL);
        assertEquals(2, r.points().size());
        assertEquals(List.of("left out: 2 points measured only in A, 0 only in B (combinations in A only:"
                + " nima/pebble/virtual; in B only: none)."), r.leftOut());
    }

    @Test
    void aFolderWithoutRunsCsvOrAnUnknownMetricIsRefused(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path old = Files.createDirectories(dir.resolve("old"));
        Summary.append(old.resolve("summary.csv"), RowBuilder.of(Row.PSSRBENCH, "nima", "jstachio", "virtual", "stocks",
                16, 0).measured(2, 1400, 0, "", 700).build());
        assertEquals(old + " has no runs.csv (measured before repetitions, or not a results folder of bench), and"
                + " compare reads every repetition from it.",
                assertThrows(UsageException.class, () -> Compare.folders(a, old, ALL)).getMessage());
        assertEquals("unknown metric 'rps'; valid metrics: req_per_s, ttfb_p50_ms, ttfb_p99_ms, first_item_p50_ms,"
                + " ttlb_p50_ms, ttlb_p95_ms, ttlb_p99_ms, cpu_ms_per_req.",
                assertThrows(UsageException.class, () -> Compare.metrics(List.of("req_per_s", "rps"))).getMessage());
        assertEquals(List.of("ttlb_p99_ms", "req_per_s"), Compare.metrics(List.of("ttlb_p99_ms", "req_per_s")));
    }
}
