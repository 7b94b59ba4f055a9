package importers;

import cli.Registry;
import model.Page;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The wrk/wrk2 parser and the row writer, on real outputs from ../shared/fixtures (skipped where absent). */
class WrkReportTest {

    private static final Path FIXTURES = Path.of(System.getProperty("user.dir")).resolve("../shared/fixtures");

    private static String fixture(String name) throws IOException {
        Path file = FIXTURES.resolve(name);
        assumeTrue(Files.isRegularFile(file), "fixture not present: " + file);
        return Files.readString(file);
    }

    @Test
    void wrk2AtAReachableRate() throws IOException {
        WrkReport r = WrkReport.parse(fixture("wrk2/wrk2-5s-R200.txt"));
        assertEquals("wrk2", r.tool());
        assertEquals("http://127.0.0.1:18080/stream", r.url());
        assertEquals(2, r.threads());
        assertEquals(10, r.connections());
        assertEquals(996, r.requests());
        assertEquals(5.01, r.durationS(), 1e-9);
        assertEquals(198.94, r.reqPerS(), 1e-9);
        assertEquals(43.49, r.percentileMs(50), 1e-9);
        assertEquals(48.99, r.percentileMs(99), 1e-9);
        assertEquals(50.75, r.percentileMs(99.9), 1e-9);
        assertEquals(51.232, r.latencyMaxMs(), 1e-9);
        assertEquals(0, r.errors());
        assertNull(r.invalidReason(200));
        assertTrue(r.spectrum().startsWith("       Value   Percentile   TotalCount 1/(1-Percentile)"), r.spectrum());
        assertTrue(r.spectrum().strip().endsWith("#[Buckets =           27, SubBuckets     =         2048]"));
        assertEquals("", r.uncorrectedSpectrum());
        assertEquals(2.23 * 1024 * 1024, r.bytesRead(), 1);
    }

    @Test
    void anOverloadMissesItsRateAndIsInvalid() throws IOException {
        WrkReport r = WrkReport.parse(fixture("wrk2/wrk2-5s-R1500-overload.txt"));
        assertEquals(642.59, r.reqPerS(), 1e-9);
        assertEquals(1640, r.percentileMs(50), 1e-9);   // printed as 1.64s
        assertTrue(r.invalidReason(1500).startsWith("achieved 642.6 req/s"), r.invalidReason(1500));
    }

    @Test
    void timeoutsMakeARunInvalidAndNanStatisticsAreEmpty() throws IOException {
        WrkReport r = WrkReport.parse(fixture("wrk2/wrk2-6s-timeout.txt"));
        assertEquals(8, r.timeouts());
        assertEquals(1, r.requests());
        assertTrue(r.invalidReason(0).startsWith("errors:"), r.invalidReason(0));
        Row row = r.row(Registry.combinations().get(0), Page.STOCKS, 10);
        assertFalse(row.valid());
        assertEquals(8L, row.errors());
    }

    @Test
    void theUncorrectedSpectrumOfDashUIsKeptApart() throws IOException {
        WrkReport r = WrkReport.parse(fixture("wrk2/wrk2-15s-R200-U.txt"));
        assertFalse(r.spectrum().isEmpty());
        assertFalse(r.uncorrectedSpectrum().isEmpty());
        assertTrue(r.spectrum().contains("Total count    =          994"));
        assertTrue(r.uncorrectedSpectrum().contains("#[Max     =       26.768"), r.uncorrectedSpectrum());
        assertEquals(28.704, r.latencyMaxMs(), 1e-9);   // the corrected maximum
    }

    @Test
    void debianWrkClosedLoopWithSocketErrors() throws IOException {
        WrkReport r = WrkReport.parse(fixture("wrk/wrk_stocks_jstachio_virtualSync_c1024.txt"));
        assertEquals("wrk", r.tool());
        assertEquals(1024, r.connections());
        assertEquals(4888, r.requests());
        assertEquals(485.03, r.reqPerS(), 1e-9);
        assertEquals(1240, r.percentileMs(50), 1e-9);
        assertEquals(1970, r.percentileMs(99), 1e-9);
        assertTrue(Double.isNaN(r.percentileMs(99.9)), "wrk prints no p99.9");
        assertEquals(2000, r.latencyMaxMs(), 1e-9);   // the Thread Stats maximum
        assertEquals(1515, r.timeouts());
        assertEquals("", r.spectrum());
        assertTrue(r.invalidReason(0).contains("timeout 1515"));
    }

    /** Every fixture parses, and a constant-rate run is judged against the rate named in its command line. */
    @Test
    void everyFixtureParsesIntoARow() throws IOException {
        assumeTrue(Files.isDirectory(FIXTURES), "no fixtures");
        List<Path> files;
        try (Stream<Path> all = Stream.concat(Files.list(FIXTURES.resolve("wrk2")), Files.list(FIXTURES.resolve("wrk")))) {
            files = all.filter(f -> f.toString().endsWith(".txt")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        Pattern rateInCommand = Pattern.compile("-R(\\d+)");
        for (Path f : files) {
            String text = Files.readString(f);
            WrkReport r = WrkReport.parse(text);
            Matcher rate = rateInCommand.matcher(text.lines().filter(l -> l.startsWith("#")).findFirst().orElse(""));
            double target = rate.find() ? Double.parseDouble(rate.group(1)) : 0;
            Row row = r.row(Registry.combinations().get(0), Page.PRESENTATIONS, target);
            assertEquals(Summary.COLUMNS.size(), cells(Summary.csv(row)), f.toString());
            assertNull(row.listenDrops(), "wrk and wrk2 cannot know the kernel's drops: " + f);
            assertTrue(r.requests() > 0, f.toString());
            if (r.tool().equals("wrk2") && r.requests() > 100) {
                assertFalse(r.spectrum().isEmpty(), f + " keeps its spectrum");
                assertTrue(r.percentileMs(50) > 0, f.toString());
            }
        }
    }

    /** Counts the cells of one CSV line, honouring quotes. */
    private static int cells(String line) {
        int cells = 1;
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells++;
            }
        }
        return cells;
    }

    @Test
    void rowsAppendUnderOneHeader(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path csv = dir.resolve("results/summary.csv");
        Row row = RowBuilder.of("wrk", "nima", "jstachio", "virtual", "stocks", 8, 0).failed("a, \"quoted\" note")
                .build();
        Summary.append(csv, row);
        Summary.append(csv, row);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(List.of(Summary.header(), Summary.csv(row), Summary.csv(row)), lines);
        assertTrue(Summary.csv(row).endsWith(",\"a, \"\"quoted\"\" note\""), Summary.csv(row));
    }

    /**
     * A real wrk2 run (giltene/wrk2 built from source) as scripts/wrk2-cell.sh makes it: -R200 -U with
     * scripts/pssrbench.lua, 10 s of calibration and 30 s recorded. The request count and duration cover all 40 s
     * (wrk2's own Requests/sec does too); the percentiles, from the JSON line, the recorded 30 s.
     */
    @Test
    void aRealWrk2RunWithTheLuaHook() throws IOException {
        String output;
        try (var in = WrkReportTest.class.getResourceAsStream("/wrk2/wrk2-40s-R200-U-with-json.txt")) {
            output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        WrkReport r = WrkReport.parse(output);
        assertEquals("wrk2", r.tool());
        assertEquals(16, r.connections());
        assertEquals(8002, r.requests());
        assertEquals(40.024329, r.durationS(), 1e-9);
        assertEquals(8002 / 40.024329, r.reqPerS(), 1e-9);   // the prose: 199.93
        assertEquals(22.879, r.percentileMs(50), 1e-9);
        assertEquals(43.327, r.percentileMs(99.9), 1e-9);
        assertEquals(47.968, r.latencyMaxMs(), 1e-9);
        assertNull(r.invalidReason(200));
        assertTrue(r.spectrum().contains("Total count    =         5992"), "the corrected spectrum: " + r.spectrum());
        assertTrue(r.uncorrectedSpectrum().contains("#[Max     =       43.616"), r.uncorrectedSpectrum());
        Row row = r.row(Registry.combinations().get(0), Page.STOCKS, 200);
        assertEquals("wrk2,open,200,true", String.join(",", Summary.text(row, "tool"), Summary.text(row, "model"),
                Summary.text(row, "rate"), Summary.text(row, "valid")));
    }

    /** A real Debian wrk output made with scripts/pssrbench.lua: the JSON line's exact numbers win over the prose. */
    @Test
    void theLuaHooksJsonLineIsPreferredToTheProse() throws IOException {
        String output;
        try (var in = WrkReportTest.class.getResourceAsStream("/wrk/wrk-closed-loop-with-json.txt")) {
            output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        WrkReport r = WrkReport.parse(output);
        assertEquals("wrk", r.tool());
        assertEquals(998, r.requests());
        assertEquals(3.004282, r.durationS(), 1e-9);
        assertEquals(998 / 3.004282, r.reqPerS(), 1e-9);   // the prose rounds it to 332.19
        assertEquals(23.117, r.percentileMs(50), 1e-9);     // the prose says 23.12ms
        assertEquals(39.275, r.percentileMs(99.9), 1e-9);   // the prose has no p99.9
        assertEquals(39.275, r.latencyMaxMs(), 1e-9);
        assertEquals(4986748, r.bytesRead(), 1e-9);
        assertEquals(0, r.errors());
        assertNull(r.invalidReason(0));
    }

    /** Output no wrk printed (a count past a long, a value a megabyte long) is one line, the value cut (issue 24). */
    @Test
    void unreadableOutputIsOneShortLine() throws IOException {
        String output;
        try (var in = WrkReportTest.class.getResourceAsStream("/wrk/wrk-closed-loop-with-json.txt")) {
            output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        for (String damaged : List.of(output.replaceFirst("\\d+ requests in", "9".repeat(1_000_000) + " requests in"),
                output.replaceFirst("Requests/sec:\\s+\\S+", "Requests/sec: " + "x".repeat(1_000_000)),
                output.replaceFirst("pssrbench-json \\{", "pssrbench-json {" + "\"".repeat(1_000_000)))) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> WrkReport.parse(damaged));
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertTrue(e.getMessage().length() < 300, e.getMessage().length() + " characters");
        }
    }
}
