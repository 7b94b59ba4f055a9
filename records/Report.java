package records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.general.DatasetUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code report}: one self-contained {@code report.html} from a results folder (summary.csv, provenance.json).
 * Charts are drawn by JFreeChart onto JFreeSVG and inlined, the page has no script and no external resource, so it
 * opens offline, from an archive or a mail attachment, exactly as it was written.
 */
public final class Report {


    private static final int WIDTH = 640;
    private static final int HEIGHT = 400;
    /** Okabe-Ito colours: told apart by colour-blind readers and in print; one per engine, the same in every chart. */
    private static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
            new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), Color.BLACK};
    private static final Color BASELINE = new Color(0x8C8C8C);
    private static final Color FLOOR = new Color(0xB22222);
    /** One marker shape per mode, so a mode reads the same across engines (and without colour). */
    private static final Shape[] SHAPES = DefaultDrawingSupplier.createStandardSeriesShapes();
    private static final List<String> TABLE_COLUMNS = List.of("tool", "engine", "mode", "model", "connections",
            "rate", "req_per_s", "ttfb_p50_ms", "first_item_p50_ms", "ttlb_p50_ms", "ttlb_p99_ms", "cpu_ms_per_req", "rss_peak_mb",
            "heap_mb", "gc_ms", "ceiling_fraction", "valid", "note");
    private static final Map<String, String> PROVENANCE_LABELS = Map.ofEntries(Map.entry("pssrbench",
                    "PssrBench version"), Map.entry("git", "git revision"), Map.entry("started", "date (start, UTC)"),
            Map.entry("finished", "date (end, UTC)"), Map.entry("load_generator", "load generator"),
            Map.entry("warmup_generator", "warm-up"), Map.entry("java", "JDK"), Map.entry("java_vendor", "JDK vendor"),
            Map.entry("os", "OS"), Map.entry("cpu", "CPU"), Map.entry("cores", "cores"), Map.entry("load_average",
                    "load average (/proc/loadavg at start)"), Map.entry("load_average_after",
                    "load average (/proc/loadavg at the end)"), Map.entry("server_cpus", "server CPU pinning"),
            Map.entry("server_jvm_flags", "server JVM flags"), Map.entry("delay", "data source delay per item"),
            Map.entry("source_scheduler", "data source scheduler"),
            Map.entry(records.Provenance.LATER_RUNS, "later runs into this folder"));

    /** What one chart plots on its y axis. */
    private record Metric(String column, String title, String axis, boolean floor) {
    }

    private static final List<Metric> CLOSED = List.of(
            new Metric("req_per_s", "Throughput", "throughput (requests/s)", false),
            new Metric("ttfb_p50_ms", "Time to first byte, median", "TTFB p50 (ms)", false),
            // What progressive rendering buys over the buffered mode: the first item's markup long before the last.
            new Metric("first_item_p50_ms", "Time to the first item's markup, median", "first item p50 (ms)", false),
            new Metric("ttlb_p50_ms", "Time to last byte, median", "TTLB p50 (ms)", true),
            new Metric("ttlb_p99_ms", "Time to last byte, 99th percentile", "TTLB p99 (ms)", true),
            new Metric("cpu_ms_per_req", "Server CPU per request", "server CPU (ms/request)", false),
            new Metric("rss_peak_mb", "Server resident memory, peak", "RSS peak (MB)", false),
            new Metric("heap_mb", "Server heap", "heap (MB)", false));
    private static final List<Metric> OPEN = List.of(
            new Metric("ttlb_p50_ms", "Open loop: time to last byte, median", "TTLB p50 (ms)", true),
            new Metric("ttlb_p99_ms", "Open loop: time to last byte, 99th percentile", "TTLB p99 (ms)", true));

    private record Group(String server, String page) {
    }

    private final List<String> engines = new ArrayList<>();
    private final List<String> modes = new ArrayList<>();
    private final StandardChartTheme theme = Charts.theme();
    private int charts;

    /** The engine that writes the page without a template engine: the ceiling the others are compared with. */
    private final String raw;

    private Report(List<Row> rows, String baseline) {
        this.raw = baseline;
        engines.add(raw);   // the baseline first, in tables and legends
        rows.forEach(r -> {
            if (!engines.contains(r.engine())) {
                engines.add(r.engine());
            }
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
        });
    }

    /**
     * Writes {@code folder/report.html} from {@code folder/summary.csv} and {@code folder/browser.csv} (either may
     * be missing, not both) and provenance.json when present; {@code baseline} is the id of the baseline engine
     * (drawn grey, first in tables and legends).
     */
    public static Path write(Path folder, String baseline) throws IOException {
        return write(folder, baseline, "buffered");
    }

    /** The same; {@code bufferedMode}: the id of the buffered mode, listed after the progressive ones. */
    public static Path write(Path folder, String baseline, String bufferedMode) throws IOException {
        // AWT lays the charts' text out with font metrics; on a machine without a display (a benchmark host, CI)
        // it must not try to open one. It takes effect only before AWT's first use in this JVM, so set it first.
        System.setProperty("java.awt.headless", "true");
        Path summary = folder.resolve("summary.csv");
        Path browser = folder.resolve(BrowserCsv.FILE);
        if (!Files.isRegularFile(summary) && !Files.isRegularFile(browser)) {
            throw new IOException(folder + " has no summary.csv or " + BrowserCsv.FILE);
        }
        List<Row> rows = Files.isRegularFile(summary) ? Summary.read(summary) : null;
        List<BrowserRow> browserRows = Files.isRegularFile(browser) ? BrowserCsv.read(browser) : null;
        Path provenanceFile = folder.resolve("provenance.json");
        JsonNode provenance = Files.isRegularFile(provenanceFile) ? new ObjectMapper().readTree(provenanceFile.toFile())
                : null;
        Path html = folder.resolve("report.html");
        Report report = new Report(rows == null ? List.of() : rows, baseline);
        Files.writeString(html, report.html(folder, rows, browserRows, bufferedMode, provenance),
                StandardCharsets.UTF_8);
        return html;
    }

    private String html(Path folder, List<Row> summaryRows, List<BrowserRow> browserRows, String bufferedMode,
                        JsonNode provenance) {
        Path name = folder.toAbsolutePath().normalize().getFileName();
        String title = "PssrBench report" + (name == null ? "" : " " + name);
        List<Row> rows = summaryRows == null ? List.of() : summaryRows;
        long valid = rows.stream().filter(Row::valid).count();
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n")
                .append("<h1>").append(esc(title)).append("</h1>\n");
        if (summaryRows != null) {
            h.append("<p>").append(rows.size()).append(" points, ")
                    .append(valid).append(" valid, from <a href=\"summary.csv\">summary.csv</a> (every column")
                    .append(Files.exists(folder.resolve("summary.json")) ? "; also summary.json" : "")
                    .append(Files.isDirectory(folder.resolve("hgrm")) ? "; the full latency spectra in hgrm/" : "")
                    .append(").</p>\n");
        }
        if (browserRows != null) {
            h.append("<p>").append(browserRows.size()).append(" combinations and pages loaded in a browser, ")
                    .append(browserRows.stream().filter(BrowserRow::valid).count()).append(" valid, from <a href=\"")
                    .append(BrowserCsv.FILE).append("\">").append(BrowserCsv.FILE).append("</a> (every load in <a")
                    .append(" href=\"").append(BrowserCsv.RUNS_FILE).append("\">").append(BrowserCsv.RUNS_FILE)
                    .append("</a>): <a href=\"#browser\">in a browser</a>.</p>\n");
        }
        h.append("<h2 id=\"provenance\">Provenance</h2>\n");
        h.append(provenance == null ? "<p>No provenance.json in this folder.</p>\n" : keyValues(provenance));
        if (browserRows != null) {
            h.append(BrowserReport.section(browserRows, bufferedMode, theme));
        }
        if (summaryRows == null) {
            return h.append("</body>\n</html>\n").toString();
        }
        h.append(HOW_TO_READ);

        Map<Group, List<Row>> groups = new LinkedHashMap<>();   // servers and pages in the sweep's order
        rows.forEach(r -> groups.computeIfAbsent(new Group(r.server(), r.page()), g -> new ArrayList<>()).add(r));
        h.append("<nav><ul>\n");
        groups.keySet().forEach(g -> h.append("<li><a href=\"#").append(esc(anchor(g))).append("\">")
                .append(esc(g.server())).append(" &middot; ").append(esc(g.page())).append("</a></li>\n"));
        h.append("<li><a href=\"#invalid\">not measured / invalid</a></li>\n</ul></nav>\n");
        for (var e : groups.entrySet()) {
            Group g = e.getKey();
            List<Row> all = e.getValue().stream().sorted(order()).toList();
            List<Row> measured = all.stream().filter(Row::valid).toList();
            List<Row> closed = measured.stream().filter(r -> !r.model().equals(Row.OPEN)).toList();
            List<Row> open = measured.stream().filter(r -> r.model().equals(Row.OPEN)).toList();
            h.append("<section>\n<h2 id=\"").append(esc(anchor(g))).append("\">").append(esc(g.server()))
                    .append(" &middot; ").append(esc(g.page())).append("</h2>\n");
            String where = g.server() + " \u00b7 " + g.page();
            StringBuilder figures = new StringBuilder();
            for (Metric m : CLOSED) {
                figure(figures, chart(m.title() + ", " + where,
                        "concurrent connections, closed loop (log\u2082 scale)", "connections", true, m, closed));
            }
            for (Metric m : OPEN) {
                figure(figures, chart(m.title() + ", " + where, "target rate (requests/s)", "rate", false, m, open));
            }
            h.append(figures.isEmpty() ? "<p>No valid point to chart.</p>\n"
                    : "<div class=\"charts\">\n" + figures + "</div>\n");
            h.append("<h3>Measured points</h3>\n");
            table(h, all, TABLE_COLUMNS, "points");
            h.append("</section>\n");
        }

        List<Row> invalid = rows.stream().filter(r -> !r.valid()).sorted(order()).toList();
        try {
            h.append(StressReport.section(folder));   // a stress run into the same folder
        } catch (IOException e) {
            h.append("<p>stress.csv could not be read: ").append(esc(e.getMessage())).append("</p>\n");
        }
        h.append("<h2 id=\"invalid\">Not measured / invalid</h2>\n");
        if (invalid.isEmpty()) {
            h.append("<p>None: every point was measured and is valid.</p>\n");
        } else {
            h.append("<p>Left out of every chart.</p>\n");
            table(h, invalid, List.of("tool", "server", "engine", "mode", "page", "model", "connections", "rate",
                    "requests", "errors", "note"), "invalid");
        }
        return h.append("</body>\n</html>\n").toString();
    }

    /** Tables and legends list the baseline first, then engines and modes as the sweep met them, then by load. */
    private Comparator<Row> order() {
        return Comparator.<Row>comparingInt(r -> engines.indexOf(r.engine()))
                .thenComparingInt(r -> modes.indexOf(r.mode()))
                .thenComparing(Row::tool)
                .thenComparing(Row::model)
                .thenComparingDouble(r -> Summary.number(r, "rate"))
                .thenComparingInt(Row::connections);
    }

    private static String anchor(Group g) {
        return (g.server() + "-" + g.page()).replaceAll("[^A-Za-z0-9_-]", "_");
    }

    private static void figure(StringBuilder h, String svg) {
        if (svg != null) {
            h.append("<figure>").append(svg).append("</figure>\n");
        }
    }

    /**
     * One metric against connections (or rate), one series per engine and mode; null when no row has both values.
     * An empty cell is a value the tool did not measure (wrk has no TTFB): it is left out, never drawn as 0.
     */
    private String chart(String title, String xLabel, String xColumn, boolean logX, Metric m, List<Row> rows) {
        boolean tools = rows.stream().map(Row::tool).distinct().count() > 1;
        boolean rawModes = rows.stream().filter(r -> r.engine().equals(raw)).map(Row::mode).distinct().count() > 1;
        boolean connections = !logX && rows.stream().map(Row::connections).distinct().count() > 1;
        XYSeriesCollection dataset = new XYSeriesCollection();
        List<Row> firstOfSeries = new ArrayList<>();
        TreeSet<Double> floors = new TreeSet<>();
        for (Row r : rows) {
            double x = Summary.number(r, xColumn);
            double y = Summary.number(r, m.column());
            if (Double.isNaN(x) || Double.isNaN(y) || (logX && x <= 0)) {
                continue;
            }
            String engine = r.engine();
            String label = engine.equals(raw) ? (rawModes ? "raw/" + r.mode() : "raw") + " (baseline)"
                    : engine + "/" + r.mode();
            // The built-in load generator is the default; another tool's rows (wrk) say so in their label.
            label += (r.tool().equals(Row.PSSRBENCH) ? "" : " [" + r.tool() + "]")
                    + (connections ? ", " + r.connections() + " connections" : "");
            int index = dataset.getSeriesIndex(label);
            if (index < 0) {
                dataset.addSeries(new XYSeries(label));
                firstOfSeries.add(r);
                index = dataset.getSeriesCount() - 1;
            }
            dataset.getSeries(index).add(x, y);
            if (m.floor() && r.sourceMs() != null) {
                floors.add(r.sourceMs());
            }
        }
        if (dataset.getSeriesCount() == 0) {
            return null;
        }

        ValueAxis xAxis;
        if (logX) {
            LogAxis log = new LogAxis(xLabel);
            log.setBase(2);
            log.setTickUnit(new NumberTickUnit(1));   // one tick per power of two: 1, 2, 4, ... 128
            log.setNumberFormatOverride(NumberFormat.getIntegerInstance(Locale.ROOT));
            log.setMinorTickMarksVisible(false);
            xAxis = log;
        } else {
            NumberAxis rate = new NumberAxis(xLabel);
            rate.setAutoRangeIncludesZero(true);   // also gives a single rate a range to put ticks on
            rate.setStandardTickUnits(NumberAxis.createStandardTickUnits(Locale.ROOT));
            xAxis = rate;
        }
        NumberAxis yAxis = new NumberAxis(m.axis());
        yAxis.setAutoRangeIncludesZero(true);   // differences read as proportions, not magnified by a cut axis
        yAxis.setStandardTickUnits(NumberAxis.createStandardTickUnits(Locale.ROOT));
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setDrawOutlines(false);   // filled markers only: an outline in the same colour adds nothing
        XYPlot plot = new XYPlot(dataset, xAxis, yAxis, renderer);
        JFreeChart chart = new JFreeChart(title, plot);
        theme.apply(chart);
        for (int i = 0; i < firstOfSeries.size(); i++) {
            Row r = firstOfSeries.get(i);
            boolean baseline = r.engine().equals(raw);
            int engine = engines.indexOf(r.engine()) - 1;   // the baseline is index 0 and grey
            renderer.setSeriesPaint(i, baseline ? BASELINE : PALETTE[engine % PALETTE.length]);
            renderer.setSeriesShape(i, SHAPES[modes.indexOf(r.mode()) % SHAPES.length]);
            boolean otherTool = tools && !r.tool().equals(Row.PSSRBENCH);
            renderer.setSeriesStroke(i, baseline || otherTool ? new BasicStroke(2f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_ROUND, 1f, baseline ? new float[] {7f, 4f} : new float[] {2f, 3f}, 0f)
                    : new BasicStroke(2f));
        }
        for (double floor : floors) {
            ValueMarker marker = new ValueMarker(floor, FLOOR, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
            marker.setLabel(String.format(Locale.ROOT, "data source floor %.1f ms", floor));
            marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            marker.setLabelPaint(FLOOR);
            marker.setLabelBackgroundColor(Color.WHITE);
            marker.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            marker.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(marker);
        }
        Range data = DatasetUtils.findRangeBounds(dataset);
        if (!floors.isEmpty() && data != null && floors.last() >= data.getUpperBound()) {
            yAxis.setRange(0, floors.last() * 1.15);   // markers do not widen the auto range
        }

        return Charts.svg(chart, "c" + ++charts, WIDTH, HEIGHT);
    }

    private static void table(StringBuilder h, List<Row> rows, List<String> columns, String cssClass) {
        h.append("<div class=\"scroll\"><table class=\"").append(cssClass).append("\">\n<thead><tr>");
        columns.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr></thead>\n<tbody>\n");
        for (Row r : rows) {
            h.append(r.valid() ? "<tr>" : "<tr class=\"bad\">");
            for (String c : columns) {
                h.append(Double.isNaN(Summary.number(r, c)) ? "<td>" : "<td class=\"num\">")
                        .append(esc(Summary.text(r, c))).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
    }

    /**
     * Any JSON object as a key/value table, nested objects as nested tables: new provenance keys need no code. Lists
     * of objects (the later runs into a folder) and the long list of libraries fold away (details, no script).
     */
    private static String keyValues(JsonNode node) {
        StringBuilder h = new StringBuilder("<table class=\"kv\">\n");
        for (var field : node.properties()) {
            JsonNode v = field.getValue();
            h.append("<tr><th>").append(esc(PROVENANCE_LABELS.getOrDefault(field.getKey(), field.getKey())))
                    .append("</th><td>");
            if (v.isArray() && v.size() > 0 && v.get(0).isObject()) {
                int n = 0;
                for (JsonNode item : v) {
                    h.append(folded(++n + ": " + item.path("command").asText("") + ", "
                            + item.path("started").asText(""), keyValues(item)));
                }
            } else if (v.isObject() && field.getKey().equals("libraries")) {
                h.append(folded(v.size() + " libraries", keyValues(v)));
            } else {
                h.append(v.isObject() ? keyValues(v) : esc(scalar(v)));
            }
            h.append("</td></tr>\n");
        }
        return h.append("</table>\n").toString();
    }

    private static String folded(String summary, String content) {
        return "<details><summary>" + esc(summary) + "</summary>\n" + content + "</details>\n";
    }

    private static String scalar(JsonNode v) {
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> items.add(item.isValueNode() ? item.asText() : item.toString()));
            return String.join(", ", items);
        }
        return v.isNull() ? "" : v.asText();
    }

    static String esc(String text) {
        return Charts.esc(text);
    }

    private static final String HOW_TO_READ = """
            <h2 id="how">How to read this</h2>
            <p>Each point is one server, engine, mode and page under one load. <b>Closed loop</b>: N connections,
            each sending its next request when the previous response has ended, so throughput is what the server
            sustains at N concurrent users. <b>Open loop</b>: requests are sent at a fixed target rate whatever the
            responses do, and latency counts from the intended send time. <b>TTFB</b> is the time to the first byte
            of the response (how soon a progressive page starts to show), <b>TTLB</b> the time to its last byte (the
            whole page); the <i>data source floor</i> is the time the data source alone needs for the page, which no
            TTLB can beat. <b>ceiling_fraction</b> is the throughput divided by the raw baseline's (the page written
            without a template engine) on the same server, mode, page and concurrency. Empty cells were not measured
            by that tool (wrk reports no TTFB) and are not drawn; invalid points are only listed.</p>
            """;

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5rem auto;max-width:1400px;
            padding:0 1rem;color:#222;line-height:1.45}
            h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
            .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:1rem}
            figure{margin:0;border:1px solid #e3e3e3}
            figure.wide{max-width:900px;margin-bottom:1rem}
            figure svg{display:block;width:100%;height:auto}
            .scroll{overflow-x:auto}
            table{border-collapse:collapse;font-size:.85rem}
            th,td{border:1px solid #ddd;padding:.15rem .45rem;text-align:left;vertical-align:top}
            thead th{background:#f3f3f3;position:sticky;top:0}
            td.num{text-align:right;font-variant-numeric:tabular-nums}
            tr.bad td{background:#fff1f0}
            table.kv th{background:#f8f8f8;font-weight:600}
            """;
}
