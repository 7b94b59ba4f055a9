package records;

import org.jfree.chart.StandardChartTheme;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The summary.csv part of report.html: how to read it, then a section per server and page (its charts, drawn by
 * {@link BenchCharts}, and the table of its points), and at the end the points that were not measured or are not
 * valid. Tables and legends list the baseline first, then engines and modes as the sweep met them.
 */
final class BenchSection {

    /** The columns of each server and page's table of points: what a reader compares, the rest is in the CSV. */
    private static final List<String> TABLE_COLUMNS = List.of("tool", "engine", "mode", "model", "connections",
            "rate", "req_per_s", "ttfb_p50_ms", "first_item_p50_ms", "ttlb_p50_ms", "ttlb_p99_ms", "cpu_ms_per_req",
            "rss_peak_mb", "heap_mb", "gc_ms", "listen_drops", "ceiling_fraction", "valid", "note");

    private record Group(String server, String page) {
    }

    private final List<Row> rows;
    private final List<String> engines = new ArrayList<>();
    private final List<String> modes = new ArrayList<>();
    private final BenchCharts charts;

    /** {@code baseline}: the id of the baseline engine (drawn grey, first in tables and legends). */
    BenchSection(List<Row> rows, String baseline, StandardChartTheme theme) {
        this.rows = rows;
        engines.add(baseline);   // the baseline first, in tables and legends
        rows.forEach(r -> {
            if (!engines.contains(r.engine())) {
                engines.add(r.engine());
            }
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
        });
        this.charts = new BenchCharts(engines, modes, baseline, theme);
    }

    /** How to read the rest, a list of the sections, and a section per server and page in the sweep's order. */
    String points() {
        StringBuilder h = new StringBuilder(HOW_TO_READ);
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
            h.append(charts.figures(g.server(), g.page(), closed, open));
            h.append("<h3>Measured points</h3>\n");
            table(h, all, TABLE_COLUMNS, "points");
            h.append("</section>\n");
        }
        return h.toString();
    }

    /** The points left out of every chart, with why (the "not measured / invalid" link of {@link #points}). */
    String invalid() {
        List<Row> invalid = rows.stream().filter(r -> !r.valid()).sorted(order()).toList();
        StringBuilder h = new StringBuilder("<h2 id=\"invalid\">Not measured / invalid</h2>\n");
        if (invalid.isEmpty()) {
            h.append("<p>None: every point was measured and is valid.</p>\n");
        } else {
            h.append("<p>Left out of every chart.</p>\n");
            table(h, invalid, List.of("tool", "server", "engine", "mode", "page", "model", "connections", "rate",
                    "requests", "errors", "note"), "invalid");
        }
        return h.toString();
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

    private static String esc(String text) {
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
            without a template engine) on the same server, mode, page and concurrency. <b>listen_drops</b> counts the
            connection attempts the kernel dropped at a listening socket during the point (a full accept queue among
            the causes), on the whole machine, other programs' included: each waited a second or more to be retried.
            Empty cells were not measured by that tool (wrk reports no TTFB) and are not drawn; invalid points are
            only listed.</p>
            """;
}
