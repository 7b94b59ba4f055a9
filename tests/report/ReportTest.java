package report;

import cli.Cli;
import stats.Repetitions;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {

    private static final String SCRIPT_NOTE = "errors: <script>alert('x')</script> & more";

    /** Two servers, the raw baseline and two engines, closed loop at 1, 2, 4 connections; a wrk row; an invalid row. */
    private static int writeResults(Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        int rows = 0;
        for (String server : List.of("nima", "netty")) {
            for (String[] em : List.of(new String[] {"raw", "virtual"}, new String[] {"jstachio", "virtual"},
                    new String[] {"pebble", "reactive"})) {
                for (int c : List.of(1, 2, 4)) {
                    double scale = em[0].equals("raw") ? 1.0 : 0.8;
                    Summary.append(csv, RowBuilder.of("pssrbench", server, em[0], em[1], "stocks", c, 0)
                            .measured(3, 1000, 0, "", 500.0 * c * scale).ttfbMs(1.5 * c, Double.NaN)
                            .ttlbMs(20.0 + c, Double.NaN, 30.0 + c, Double.NaN, Double.NaN).sourceMs(19.0)
                            .cpuMsPerReq(0.4, Double.NaN).rssMb(80.0 + c, Double.NaN).listenDrops(c == 4 ? 7L : 0L)
                            .ceilingFraction(scale).build());
                    rows++;
                }
            }
        }
        Summary.append(csv, RowBuilder.of("wrk", "nima", "jstachio", "virtual", "stocks", 8, 0)
                .measured(3, 9000, 0, "", 3000.0).ttfbMs(Double.NaN, Double.NaN)
                .ttlbMs(25.0, Double.NaN, Double.NaN, Double.NaN, Double.NaN).build());
        Summary.append(csv, RowBuilder.of("pssrbench", "netty", "htmlflow", "virtual", "stocks", 1, 0)
                .failed(SCRIPT_NOTE).build());
        Files.writeString(dir.resolve("provenance.json"), """
                {"pssrbench": "0.1.0", "git": "abc1234", "started": "2025-06-01T10:00:00Z", "java": "21.0.7+6",
                 "os": "Linux 6.8.0 amd64", "cpu": "Test CPU <model>", "cores": 8, "load_average": "0.10 0.20 0.30",
                 "flags": {"--connections": "[1, 2, 4]", "selected": "[nima raw virtual]"},
                 "libraries": {"io.jstach:jstachio": "1.3.7"}}
                """);
        return rows + 2;
    }

    @Test
    void theReportIsSelfContainedAndShowsEveryRow(@TempDir Path dir) throws IOException {
        int rows = writeResults(dir);
        Path html = Report.write(dir, "raw");
        assertEquals(dir.resolve("report.html"), html);
        Document doc = Jsoup.parse(html.toFile());

        // Nothing to fetch: no script at all (so none injected by the note), no external link or source.
        assertTrue(doc.select("script").isEmpty(), "no script element");
        for (Element e : doc.select("[src], [href], link")) {
            String target = e.hasAttr("src") ? e.attr("src") : e.attr("href");
            assertFalse(target.matches("(?i)^(https?:)?//.*"), "external resource: " + e.outerHtml());
        }
        assertTrue(doc.select("link").isEmpty());

        // A throughput chart per server and page, drawn as inline SVG; wrk's empty TTFB is skipped, not plotted.
        assertTrue(doc.select("svg").size() >= 2, "inline charts");
        for (String server : List.of("nima", "netty")) {
            assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("Throughput, " + server)),
                    "throughput chart for " + server);
        }
        assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("raw (baseline)")));
        assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("data source floor 19.0 ms")));
        assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("[wrk]")),
                "wrk's row has its own series where two tools share a chart");
        assertTrue(doc.select("svg").stream().noneMatch(svg -> svg.text().contains("Time to first byte")
                && svg.text().contains("[wrk]")), "wrk has no TTFB: no series for it");
        assertEquals(doc.select("svg").size(), doc.select("svg").stream().map(svg -> svg.id()).distinct().count());
        assertNoRepetitions(doc);

        // The tables hold every row once; the invalid one is listed again with its note, escaped.
        assertEquals(rows, doc.select("table.points tbody tr").size());
        assertEquals(1, doc.select("table.invalid tbody tr").size());
        assertTrue(doc.select("table.invalid").text().contains(SCRIPT_NOTE));
        assertTrue(Files.readString(html).contains("&lt;script&gt;"));
        assertTrue(doc.select("a[href=summary.csv]").size() >= 1);

        // Each point's listen drops in its table: a count where bench knew it, empty for wrk.
        List<String> drops = column(doc, "nima-stocks", "listen_drops");
        List<String> tools = column(doc, "nima-stocks", "tool");
        List<String> connections = column(doc, "nima-stocks", "connections");
        for (int i = 0; i < drops.size(); i++) {
            String want = tools.get(i).equals("wrk") ? "" : connections.get(i).equals("4") ? "7" : "0";
            assertEquals(want, drops.get(i), tools.get(i) + " c" + connections.get(i));
        }
        assertEquals(10, drops.size(), "nine points of bench and wrk's");

        String provenance = doc.select("table.kv").first().text();
        for (String value : List.of("0.1.0", "abc1234", "2025-06-01T10:00:00Z", "21.0.7+6", "Linux 6.8.0 amd64",
                "Test CPU <model>", "8", "0.10 0.20 0.30", "--connections", "[nima raw virtual]", "1.3.7")) {
            assertTrue(provenance.contains(value), value + " in " + provenance);
        }
    }

    /** The cells of one column of the points table of one server and page's section, top to bottom. */
    private static List<String> column(Document doc, String section, String column) {
        Element table = doc.getElementById(section).parent().selectFirst("table.points");
        int at = table.select("thead th").eachText().indexOf(column);
        assertTrue(at >= 0, "a " + column + " column in " + section);
        return table.select("tbody tr").stream().map(tr -> tr.select("td").get(at).text()).toList();
    }

    /** Rows without repetitions or conditions (an earlier folder, another tool's): the report as it always was. */
    private static void assertNoRepetitions(Document doc) {
        assertFalse(doc.select("svg").isEmpty());
        assertTrue(doc.select("svg g.whisker, svg g.disturbed").isEmpty(), "no whisker, no ring");
        assertTrue(doc.select("p.method, p.setup, tr.disturbed").isEmpty());
        assertFalse(doc.text().contains("Repetitions"));
        for (String header : doc.select("table.points thead th").eachText()) {
            assertFalse(List.of("n", "req/s interval", "disturbed").contains(header), header);
        }
    }

    /**
     * Each point repeated: nima 5 times (jstachio at 4 connections 3 times), netty 6 times; jstachio at 2
     * connections on nima had a repetition disturbed in every attempt. Returns the summary rows.
     */
    private static List<Row> writeRepetitions(Path dir) throws IOException {
        List<Row> runs = new java.util.ArrayList<>();
        for (String server : List.of("nima", "netty")) {
            for (String engine : List.of("raw", "jstachio")) {
                for (int c : List.of(1, 2, 4)) {
                    int n = server.equals("netty") ? 6 : engine.equals("jstachio") && c == 4 ? 3 : 5;
                    for (int rep = 1; rep <= n; rep++) {
                        boolean disturbed = server.equals("nima") && engine.equals("jstachio") && c == 2 && rep == 2;
                        for (int attempt = 1; attempt <= (disturbed ? Row.DISTURBED_ATTEMPTS : 1); attempt++) {
                            double jitter = 1 + 0.02 * (rep - 3) + 0.01 * attempt;
                            runs.add(RowBuilder.of("pssrbench", server, engine, "virtual", "stocks", c, 0)
                                    .measured(2, 1000, 0, "", 400.0 * c * jitter).ttfbMs(1.5 * jitter, 3.0 * jitter)
                                    .ttlbMs(20 * jitter, 22, 30 * jitter, 31, 32).sourceMs(19).rssMb(80, 79)
                                    .cpuMsPerReq(0.4 * jitter, 0.2).warmupS(7)
                                    .conditions(disturbed ? 0.9 : 0.01, 0.1).build().withRepetition(rep));
                        }
                    }
                }
            }
        }
        Summary.write(dir.resolve(Repetitions.FILE), runs);
        List<Row> summary = Repetitions.summarize(runs);
        Summary.write(dir.resolve("summary.csv"), summary);
        Files.writeString(dir.resolve("provenance.json"), """
                {"pssrbench": "0.1.0", "command": "bench", "flags": {"--repeat": "5", "cpu_sets": "apart: server on \
                CPUs 0-1, load generator on CPUs 2-3"}, "repeat": 5, "warmup": "auto: until 5 one-second windows \
                are within 2%, at most 60s", "duration": "2s", "later_runs": [{"command": "bench", "flags": \
                {"cpu_sets": "given: server 1, load generator 0"}, "repeat": 6, "warmup": "auto: until 5 one-second \
                windows are within 2%, at most 60s", "duration": "2s"}]}
                """);
        return summary;
    }

    @Test
    void repetitionsDrawWhiskersSayHowManyAndMarkWhatWasDisturbed(@TempDir Path dir) throws IOException {
        List<Row> summary = writeRepetitions(dir);
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());

        // A bar per point where the metric has an interval, none where it has not (memory).
        assertEquals(6, chart(doc, "Throughput, nima").select("g.whisker").size());
        assertEquals(6, chart(doc, "Time to last byte, 99th percentile, netty").select("g.whisker").size());
        assertEquals(3, chart(doc, "Throughput, nima").select("g.whisker").first().select("line").size(),
                "a bar and its two caps");
        assertTrue(chart(doc, "Server resident memory, peak, nima").select("g.whisker").isEmpty());

        // Under each section's charts: n and the interval, from the rows.
        Element nima = doc.getElementById("nima-stocks").parent();
        Element netty = doc.getElementById("netty-stocks").parent();
        assertEquals("Each point is the median of 5 repetitions (3 for jstachio/virtual at 4 connections), each in "
                + "a fresh server JVM; whiskers: for n = 3, the range of the repetitions (a 75% interval for the "
                + "median); for n = 5, the range of the repetitions (a 93.8% interval for the median).",
                nima.selectFirst("p.method").text());
        assertEquals("Each point is the median of 6 repetitions, each in a fresh server JVM; whiskers: a 96.9% "
                + "distribution-free interval for the median (exact order statistics).",
                netty.selectFirst("p.method").text());

        // The disturbed point: ringed in its charts (with why), its row marked, the section says what it means.
        List<String> disturbed = column(doc, "nima-stocks", "disturbed");
        assertEquals(List.of("no", "no", "no", "no", "disturbed", "no"), disturbed);
        assertEquals(1, nima.select("table.points tr.disturbed").size());
        assertEquals(1, chart(doc, "Throughput, nima").select("g.disturbed").size());
        assertTrue(chart(doc, "Throughput, nima").selectFirst("g.disturbed title").text()
                .startsWith("disturbed: foreign CPU up to 0.9"));
        assertTrue(chart(doc, "Throughput, nima").select("text").eachText().contains("disturbed"), "in the legend");
        assertTrue(chart(doc, "Throughput, netty").select("g.disturbed").isEmpty());
        assertTrue(nima.text().contains("more than 0.1 cores of CPU") && nima.text().contains("more than 2% of"));
        assertFalse(netty.text().contains("more than 0.1 cores of CPU"));

        // The table: n, and the throughput's interval beside its median.
        assertEquals(List.of("5", "5", "5", "5", "5", "3"), column(doc, "nima-stocks", "n"));
        Row raw1 = summary.stream().filter(r -> r.server().equals("nima") && r.engine().equals("raw")
                && r.connections() == 1).findFirst().orElseThrow();
        assertEquals(String.format(java.util.Locale.ROOT, "%.0f\u2013%.0f", raw1.spread().lo().get("req_per_s"),
                raw1.spread().hi().get("req_per_s")), column(doc, "nima-stocks", "req/s interval").get(0));
        assertEquals("404.000", column(doc, "nima-stocks", "req_per_s").get(0), "the median (of 1 + 0.02k + 0.01)");

        // Near the top: how the CPUs were shared, repetitions, warm-up and window, each run's where they differ.
        assertEquals("CPUs: apart: server on CPUs 0-1, load generator on CPUs 2-3, then given: server 1, load "
                + "generator 0 \u00b7 repetitions per point: 5, then 6 \u00b7 warm-up: auto: until 5 one-second "
                + "windows are within 2%, at most 60s \u00b7 measured window: 2s", doc.selectFirst("p.setup").text());
        String html = doc.outerHtml();
        assertTrue(html.indexOf("class=\"setup\"") < html.indexOf("<svg"), "before the charts");
        assertTrue(doc.select("a[href=runs.csv]").size() == 1);

        // After a --resume measured a repetition again, its earlier window is linked too.
        assertTrue(doc.select("a[href=runs-replaced.csv]").isEmpty(), "none where no window was replaced");
        Summary.write(dir.resolve(Repetitions.REPLACED_FILE), Repetitions.read(dir.resolve(Repetitions.FILE))
                .subList(0, 1));
        Document again = Jsoup.parse(Report.write(dir, "raw").toFile());
        assertEquals(1, again.select("a[href=runs-replaced.csv]").size(), again.selectFirst("p").text());
    }

    private static Element chart(Document doc, String title) {
        return doc.select("svg").stream().filter(svg -> svg.text().contains(title)).findFirst()
                .orElseThrow(() -> new AssertionError("no chart " + title));
    }

    @Test
    void aFolderWithoutProvenanceOrValidRowsStillGivesAReport(@TempDir Path dir) throws IOException {
        Summary.append(dir.resolve("summary.csv"), RowBuilder.of("pssrbench", "nima", "jstachio", "virtual", "stocks",
                1, 0).failed("no request completed").build());
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        assertTrue(doc.select("svg").isEmpty(), "no chart without data");
        assertTrue(doc.text().contains("No provenance.json"));
        assertEquals(1, doc.select("table.points tbody tr").size());
    }

    @Test
    void theReportCommandWritesTheFileOrRefusesInOneSentence(@TempDir Path dir) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), "report", "/nonexistent"));
        assertEquals("", out.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("pssrbench: no such folder: /nonexistent"), err.toString());

        err.getBuffer().setLength(0);
        assertEquals(2, Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), "report", dir.toString()));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("has no summary.csv"), err.toString());

        writeResults(dir);
        assertEquals(0, Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), "report", dir.toString()));
        assertEquals("report: " + dir.resolve("report.html") + "\n", out.toString());
        assertTrue(Files.isRegularFile(dir.resolve("report.html")));
    }

    /** What a reader came for first: the contents, then the charts and tables; the provenance last. */
    @Test
    void theChartsComeFirstAndTheProvenanceLast(@TempDir Path dir) throws IOException {
        writeResults(dir);
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        String html = doc.outerHtml();
        assertTrue(html.indexOf("<nav") < html.indexOf("<svg"), "the contents before the charts");
        assertTrue(html.indexOf("<svg") < html.indexOf("id=\"provenance\""), "the charts before the provenance");
        assertTrue(html.indexOf("class=\"points\"") < html.indexOf("id=\"provenance\""), "the tables too");
        assertEquals("provenance", doc.select("h2").last().id(), "the provenance is the last section");
        assertTrue(doc.select("table.kv").first().text().contains("abc1234"), "still all there");
        // How to read the page is one line until opened, above the first chart.
        Element how = doc.selectFirst("details#how");
        assertTrue(how != null && how.selectFirst("summary").text().startsWith("How to read this"));
        assertTrue(html.indexOf("id=\"how\"") < html.indexOf("<svg"));
        assertTrue(how.text().contains("ceiling_fraction"), how.text());
        // Every entry of the contents leads somewhere on the page.
        List<String> targets = doc.select("nav a").eachAttr("href");
        assertEquals(List.of("#nima-stocks", "#netty-stocks", "#invalid", "#provenance"), targets);
        targets.forEach(t -> assertTrue(doc.getElementById(t.substring(1)) != null, t));
    }

    /**
     * Each combination has a colour of its own, the same in every chart, the baselines greys of their own; each mode
     * a line style of its own, the same for every engine: two modes of one engine, or two baselines, never look alike.
     */
    @Test
    void eachCombinationHasItsOwnColourAndEachModeItsOwnLine(@TempDir Path dir) throws IOException {
        new BenchFolder().combinations("nima/raw/virtual", "nima/raw/reactive", "nima/jstachio/virtual",
                "nima/jstachio/reactive", "nima/htmlflow/virtual", "netty/raw/virtual", "netty/raw/reactive",
                "netty/htmlflow/reactive").pages("stocks").repetitions(3).write(dir);
        Summary.write(dir.resolve("summary.csv"), Repetitions.summarize(Repetitions.read(dir.resolve(
                Repetitions.FILE))));
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        java.util.Set<String> labels = java.util.Set.of("raw/virtual (baseline)", "raw/reactive (baseline)",
                "jstachio/virtual", "jstachio/reactive", "htmlflow/virtual", "htmlflow/reactive");
        java.util.Map<String, String> colour = new java.util.HashMap<>();
        java.util.Map<String, String> dash = new java.util.HashMap<>();
        int charts = 0;
        for (Element svg : doc.select("svg")) {
            java.util.Map<String, String[]> legend = legend(svg, labels);
            if (legend.isEmpty()) {
                continue;
            }
            charts++;
            assertEquals(legend.size(), legend.values().stream().map(l -> l[0]).distinct().count(),
                    "a colour per combination in " + svg.selectFirst("text").text());
            legend.forEach((label, look) -> {
                assertEquals(colour.computeIfAbsent(label, l -> look[0]), look[0], label + " in every chart");
                assertEquals(dash.computeIfAbsent(label, l -> look[1]), look[1], label + " in every chart");
            });
        }
        assertEquals(2 * 7, charts, "seven closed-loop charts per server (no memory figures in these rows)");
        assertEquals(labels, colour.keySet());
        assertEquals(labels.size(), colour.values().stream().distinct().count(), "one colour each, page-wide");
        for (String baseline : List.of("raw/virtual (baseline)", "raw/reactive (baseline)")) {
            java.util.List<String> rgb = List.of(colour.get(baseline).replaceAll("[^0-9,]", "").split(","));
            assertEquals(1, rgb.stream().distinct().count(), baseline + " is grey: " + colour.get(baseline));
        }
        assertFalse(dash.get("jstachio/virtual").equals(dash.get("jstachio/reactive")), "a line style per mode");
        assertEquals(dash.get("jstachio/reactive"), dash.get("htmlflow/reactive"), "the same for every engine");
        assertEquals(dash.get("jstachio/reactive"), dash.get("raw/reactive (baseline)"), "and for the baseline");
        assertEquals(dash.get("jstachio/virtual"), dash.get("raw/virtual (baseline)"));
    }

    /**
     * Each legend entry of a chart among {@code labels}: its marker's colour and its line's dashes ("" for a solid
     * line). JFreeSVG draws an entry as its line, its marker and its text, each in a group of its own.
     */
    private static java.util.Map<String, String[]> legend(Element svg, java.util.Set<String> labels) {
        java.util.Map<String, String[]> legend = new java.util.LinkedHashMap<>();
        for (Element text : svg.select("text")) {
            if (labels.contains(text.text())) {
                Element marker = text.parent().previousElementSibling();
                Element line = marker.previousElementSibling();
                legend.put(text.text(), new String[] {style(marker, "fill"), style(line, "stroke-dasharray")});
            }
        }
        return legend;
    }

    private static String style(Element e, String property) {
        for (String declaration : e.attr("style").split(";")) {
            String[] kv = declaration.split(":", 2);
            if (kv.length == 2 && kv[0].trim().equals(property)) {
                return kv[1].trim();
            }
        }
        return "";
    }

    /** Each point measured its own floor, a fraction apart: one line and one label per chart, with their range. */
    @Test
    void theDataSourceFloorIsLabelledOnce(@TempDir Path dir) throws IOException {
        int i = 0;
        for (String engine : List.of("raw", "jstachio", "htmlflow", "pebble")) {
            for (int c : List.of(1, 4, 16)) {
                Summary.append(dir.resolve("summary.csv"), RowBuilder.of("pssrbench", "nima", engine, "virtual",
                        "stocks", c, 0).measured(3, 1000, 0, "", 300.0 * c).ttlbMs(23.0 + c, Double.NaN, 30.0 + c,
                        Double.NaN, Double.NaN).sourceMs(22.31 + 0.05 * i++).build());
            }
        }
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        for (String title : List.of("Time to last byte, median", "Time to last byte, 99th percentile")) {
            assertEquals(List.of("data source floor 22.3\u201322.9 ms"), chart(doc, title).select("text").eachText()
                    .stream().filter(t -> t.startsWith("data source floor")).toList(), title);
        }
        assertTrue(chart(doc, "Throughput").text().indexOf("floor") < 0, "only where the floor bounds the figure");
    }

    /** A folder of the wrk2 scripts: the sweep's record, each cell's under later_runs, written by tables.Provenance. */
    @Test
    void aWrk2FolderShowsEveryRunsProvenance(@TempDir Path dir) throws IOException {
        Summary.append(dir.resolve("summary.csv"), RowBuilder.of("wrk2", "nima", "jstachio", "virtual", "stocks", 16,
                200).measured(40, 7996, 0, "", 199.9).ttlbMs(22.9, Double.NaN, 26.8, Double.NaN, Double.NaN).build());
        tables.Provenance.add(dir, tables.Provenance.record("scripts/wrk2-sweep.sh", "/opt/wrk2: wrk 4.0.0",
                java.util.Map.of("--fractions", "50,90"), java.util.Map.of()));
        tables.Provenance.add(dir, tables.Provenance.record("scripts/wrk2-cell.sh", "/opt/wrk2: wrk 4.0.0",
                java.util.Map.of("--rate", "200"), java.util.Map.of("warmup_generator", "/usr/bin/wrk: wrk 4.1.0")));
        tables.Provenance.finish(dir);
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        Element provenance = doc.select("table.kv").first();
        String text = provenance.text();
        assertFalse(doc.text().contains("No provenance.json"));
        for (String value : List.of("scripts/wrk2-sweep.sh", "50,90", "later runs into this folder",
                "1: scripts/wrk2-cell.sh", "/usr/bin/wrk: wrk 4.1.0", "load average (/proc/loadavg at the end)",
                "io.reactivex.rxjava3:rxjava")) {
            assertTrue(text.contains(value), value + " in " + text);
        }
        assertFalse(text.contains("{\""), "no raw JSON: " + text);
        assertEquals(2, provenance.select("details > summary").stream()
                .filter(e -> e.text().endsWith(" libraries")).count(), "each run's libraries fold away");
        assertFalse(doc.text().contains("summary.json"), "the wrk2 scripts write none");
    }
}
