package tables;

import report.Report;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** browser.csv: medians and spread per milestone beside the buffered counterpart, written, read back, reported. */
class BrowserCsvTest {

    /** A load whose milestones are {@code base} plus each milestone's index (ttfb = base, fcp = base + 1, ...). */
    private static BrowserRun load(String mode, int run, double base) {
        Map<Milestone, Double> ms = new EnumMap<>(Milestone.class);
        for (Milestone m : Milestone.values()) {
            ms.put(m, base + m.ordinal());
        }
        return new BrowserRun("nima", "jstachio", mode, "stocks", run, ms, 20, 200, "");
    }

    private static List<BrowserRow> rows() {
        BrowserRow buffered = BrowserRow.of("nima", "jstachio", "buffered", "stocks", 20, 200, List.of(
                load("buffered", 1, 4000), load("buffered", 2, 4100), load("buffered", 3, 4050)), null, null);
        BrowserRow progressive = BrowserRow.of("nima", "jstachio", "virtual", "stocks", 20, 200, List.of(
                load("virtual", 1, 100), load("virtual", 2, 300), load("virtual", 3, 200), load("virtual", 4, 250)),
                buffered.medians(), null);
        BrowserRow failed = BrowserRow.of("nima", "pebble", "virtual", "stocks", 20, 200, List.of(
                load("virtual", 1, 100), BrowserRun.failed("nima", "pebble", "virtual", "stocks", 2, "status 500")),
                buffered.medians(), null);
        return List.of(progressive, buffered, failed);
    }

    @Test
    void medianSpreadAndRatioToTheBufferedCounterpart() {
        List<BrowserRow> rows = rows();
        BrowserRow progressive = rows.get(0);
        BrowserRow buffered = rows.get(1);
        assertEquals(new BrowserRow.Stat(226, 101, 301), progressive.stats().get(Milestone.FCP),
                "the median of four is the mean of the middle two");
        assertEquals(4051, buffered.p50(Milestone.FCP));
        assertEquals(4051, progressive.bufferedP50().get(Milestone.FCP));
        assertEquals(226 / 4051.0, progressive.ratio(Milestone.FCP), 1e-12);
        assertEquals(1.0, buffered.ratio(Milestone.LOAD), 1e-12, "a buffered row is its own counterpart");
        assertTrue(progressive.valid() && buffered.valid());
        BrowserRow failed = rows.get(2);
        assertFalse(failed.valid());
        assertEquals(1, failed.runs(), "the statistics are over the loads that counted");
        assertEquals("1 of 2 loads failed; the first: status 500", failed.note());
    }

    @Test
    void writtenAndReadBackInNamedUnitSuffixedColumns(@TempDir Path dir) throws IOException {
        List<BrowserRow> rows = rows();
        BrowserCsv.write(dir, rows, List.of(load("virtual", 1, 100)));
        List<String> lines = Files.readAllLines(dir.resolve(BrowserCsv.FILE));
        assertEquals(String.join(",", BrowserCsv.COLUMNS), lines.get(0));
        for (String column : BrowserCsv.COLUMNS) {
            assertTrue(column.matches("[a-z0-9_]+") && (column.endsWith("_ms") || column.endsWith("_ratio")
                    || List.of("server", "engine", "mode", "page", "protocol", "items", "runs", "valid",
                    "foreign_cpu_max", "disturbed", "note").contains(column)),
                    "lower-case, unit-suffixed: " + column);
        }
        assertTrue(BrowserCsv.COLUMNS.containsAll(List.of("fcp_p50_ms", "fcp_min_ms", "fcp_max_ms",
                "fcp_buffered_p50_ms", "fcp_ratio", "first_item_p50_ms", "last_item_p50_ms", "lcp_p50_ms",
                "ttfb_p50_ms", "dcl_p50_ms", "load_p50_ms", "delay_ms")));
        assertEquals(rows, BrowserCsv.read(dir.resolve(BrowserCsv.FILE)), "read back equal");
        assertEquals(String.join(",", BrowserCsv.RUN_COLUMNS), Files.readAllLines(dir.resolve(BrowserCsv.RUNS_FILE))
                .get(0));
        assertEquals("nima,jstachio,virtual,stocks,h1,1,100.000,101.000,102.000,103.000,104.000,105.000,106.000,20,200,"
                + "true,,", Files.readAllLines(dir.resolve(BrowserCsv.RUNS_FILE)).get(1));
    }

    /** A load while the rest of the machine was busy marks its row disturbed, in the note and its own column. */
    @Test
    void aLoadOnABusyMachineMarksItsRowDisturbed(@TempDir Path dir) throws IOException {
        BrowserRun quiet = new BrowserRun("nima", "jstachio", "virtual", "stocks", 1, Map.of(Milestone.FCP, 120.0), 20,
                200, "", 0.01);
        BrowserRun busy = new BrowserRun("nima", "jstachio", "virtual", "stocks", 2, Map.of(Milestone.FCP, 480.0), 20,
                200, "", 0.9);
        BrowserRow row = BrowserRow.of("nima", "jstachio", "virtual", "stocks", 20, 200, List.of(quiet, busy), null,
                null);
        assertTrue(busy.disturbed() && !quiet.disturbed());
        assertTrue(row.disturbed());
        assertEquals(0.9, row.foreignCpuMax());
        assertEquals("disturbed: 1 of 2 loads (foreign CPU up to 0.90 cores)", row.note());
        assertFalse(BrowserRow.of("nima", "jstachio", "virtual", "stocks", 20, 200, List.of(quiet), null, null)
                .disturbed());
        BrowserCsv.write(dir, List.of(row), List.of(quiet, busy));
        assertEquals(List.of(row), BrowserCsv.read(dir.resolve(BrowserCsv.FILE)));
        String line = Files.readAllLines(dir.resolve(BrowserCsv.FILE)).get(1);
        assertTrue(line.endsWith(",0.900,true,disturbed: 1 of 2 loads (foreign CPU up to 0.90 cores)"), line);
        assertTrue(Files.readAllLines(dir.resolve(BrowserCsv.RUNS_FILE)).get(2).endsWith(",true,0.900,"));
    }

    /** Rows over h2 beside rows over h1: keyed by protocol in both files, each beside its own buffered counterpart. */
    private static List<BrowserRow> byProtocol() {
        List<BrowserRow> rows = new java.util.ArrayList<>();
        for (String protocol : List.of("h1", "h2")) {
            double slower = protocol.equals("h2") ? 30 : 0;
            BrowserRun buffered = new BrowserRun("nima", "jstachio", "buffered", "stocks", protocol, 1,
                    Map.of(Milestone.FCP, 4000 + slower), 20, 200, "", null);
            BrowserRun progressive = new BrowserRun("nima", "jstachio", "virtual", "stocks", protocol, 1,
                    Map.of(Milestone.FCP, 100 + slower), 20, 200, "", null);
            BrowserRow b = BrowserRow.of("nima", "jstachio", "buffered", "stocks", protocol, 20, 200,
                    List.of(buffered), null, null);
            rows.add(BrowserRow.of("nima", "jstachio", "virtual", "stocks", protocol, 20, 200, List.of(progressive),
                    b.medians(), null));
            rows.add(b);
        }
        return rows;
    }

    @Test
    void rowsOverEachProtocolAreKeptApart(@TempDir Path dir) throws IOException {
        List<BrowserRow> rows = byProtocol();
        assertEquals(130 / 4030.0, rows.get(2).ratio(Milestone.FCP), 1e-12, "h2 against h2's buffered counterpart");
        BrowserRun load = new BrowserRun("nima", "jstachio", "virtual", "stocks", "h2", 1, Map.of(Milestone.FCP,
                130.0), 20, 200, "", null);
        BrowserCsv.write(dir, rows, List.of(load));
        assertEquals(rows, BrowserCsv.read(dir.resolve(BrowserCsv.FILE)), "read back equal, protocols and all");
        assertEquals(List.of("h1", "h1", "h2", "h2"), Files.readAllLines(dir.resolve(BrowserCsv.FILE)).stream()
                .skip(1).map(l -> l.split(",")[4]).toList());
        assertTrue(Files.readAllLines(dir.resolve(BrowserCsv.RUNS_FILE)).get(1)
                .startsWith("nima,jstachio,virtual,stocks,h2,1,"));
    }

    @Test
    void theReportShowsEachProtocolSideBySide(@TempDir Path dir) throws IOException {
        BrowserCsv.write(dir, byProtocol(), List.of());
        Document doc = Jsoup.parse(Report.write(dir, "raw", "buffered").toFile());
        assertEquals(List.of("virtual h1", "buffered h1", "virtual h2", "buffered h2"),
                doc.select("section table tbody tr").stream().map(tr -> tr.child(2).text() + " " + tr.child(3).text())
                        .toList(), "per protocol, the progressive rows then their buffered counterpart");
        String svg = doc.select("section svg").text();
        assertTrue(svg.contains("jstachio virtual h1") && svg.contains("jstachio virtual h2"), "named by protocol");
    }

    @Test
    void theReportDrawsAChartPerPageFromBrowserCsvAlone(@TempDir Path dir) throws IOException {
        BrowserCsv.write(dir, rows(), List.of());
        Document doc = Jsoup.parse(Report.write(dir, "raw", "buffered").toFile());
        assertEquals(1, doc.select("section svg").size(), "one page, one chart");
        assertTrue(doc.select("section svg").text().contains("jstachio virtual")
                && doc.select("section svg").text().contains("jstachio buffered"), "progressive beside buffered");
        assertTrue(doc.select("section svg").text().contains("first contentful paint"));
        assertTrue(doc.select("section svg").text().contains("last item exists"), "the data's own end is marked");
        assertEquals(List.of("virtual", "buffered", "virtual"), doc.select("section table tbody tr").stream()
                .map(tr -> tr.child(2).text()).toList(), "each engine's buffered row after its progressive ones");
        assertTrue(doc.select("a[href=browser.csv]").size() == 1);
        assertTrue(doc.select("h2#invalid").isEmpty(), "no bench section without summary.csv");
        // Each milestone in its own colour of the report's palette, not JFreeChart's defaults (its first, a light
        // red, is the theme's when the colours are set before it is applied).
        String svg = doc.select("section svg").outerHtml();
        assertTrue(svg.contains("fill:rgb(0,114,178)") && svg.contains("fill:rgb(213,94,0)"), "first contentful "
                + "paint blue, last item vermillion");
        assertFalse(svg.contains("rgb(255,85,85)"), "no default colour");
        String html = doc.outerHtml();
        assertTrue(html.indexOf("<svg") < html.indexOf("id=\"provenance\""), "the chart before the provenance");
    }
}
