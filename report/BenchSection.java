package report;

import stats.ScalesTo;
import tables.Metric;
import tables.Row;
import tables.Summary;

import org.jfree.chart.StandardChartTheme;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The summary.csv part of report.html: how to read it (folded, one line until opened), the page's contents, a
 * section per server and page (its charts, drawn by {@link BenchCharts}, and the table of its points), and, further
 * down, the points that were not measured or are not valid. Tables and legends list the baseline first, then engines
 * and modes as the sweep met them.
 *
 * <p>Rows of repetitions ({@link Row#spread}) add what they carry: a sentence under each section's charts on what a
 * point and its whiskers are ({@link Spreads#method}), the columns {@code n} and {@code req/s interval}, and, where
 * the conditions were measured, {@code disturbed}. A folder without them reads as it always did.
 */
final class BenchSection {

    /** A column of a table: its header, its cell's text, whether the cell is a number (right-aligned). */
    private record Column(String name, Function<Row, String> text, Predicate<Row> numeric) {
        /** A column of summary.csv, as the file writes it. */
        static Column of(String name) {
            return new Column(name, r -> Summary.text(r, name), r -> !Double.isNaN(Summary.number(r, name)));
        }
    }

    /**
     * A section: a server and page, and the protocol and streams the points were measured over (empty for HTTP/1.1
     * with one stream), so that an h1 and an h2c point never share a chart.
     */
    private record Group(String server, String page, String transport) {
        Group(Row r) {
            this(r.server(), r.page(), r.plainHttp1() ? "" : r.transport());
        }

        /** The page, and the protocol where it is not plain HTTP/1.1: what the heading and chart titles say. */
        String pageOver() {
            return transport.isEmpty() ? page : page + " over " + transport;
        }
    }

    private final List<Row> rows;
    private final List<String> engines = new ArrayList<>();
    private final List<String> modes = new ArrayList<>();
    private final BenchCharts charts;
    /**
     * The columns of each points table: the metrics a reader compares ({@link Metric#table}; the rest is in the
     * CSV), what repetitions add, then the verdict: disturbed (where the conditions were measured), valid, note.
     */
    private final List<Column> columns = new ArrayList<>();

    /** {@code baseline}: the id of the baseline engine (drawn grey, first in tables and legends). */
    BenchSection(List<Row> rows, String baseline, StandardChartTheme theme) {
        this.rows = ScalesTo.apply(rows);   // computed as bench does, for rows it did not write (wrk2's) too
        engines.add(baseline);   // the baseline first, in tables and legends
        rows.forEach(r -> {
            if (!engines.contains(r.engine())) {
                engines.add(r.engine());
            }
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
        });
        this.charts = new BenchCharts(modes, baseline, theme);
        boolean repeated = Spreads.any(rows);
        boolean conditions = rows.stream().anyMatch(r -> r.disturbed() != null);
        for (Metric m : Metric.values()) {
            if (m.table()) {
                columns.add(Column.of(m.column()));
            }
            if (m == Metric.RATE && repeated) {
                columns.add(new Column("n", r -> r.spread() == null ? "" : String.valueOf(r.spread().n()),
                        r -> r.spread() != null));
            } else if (m == Metric.REQ_PER_S && repeated) {
                columns.add(new Column("req/s interval", r -> Spreads.interval(r, "req_per_s"), r -> true));
            }
        }
        if (conditions) {
            columns.add(new Column("disturbed", r -> r.disturbed() == null ? "" : r.disturbed() ? "disturbed" : "no",
                    r -> false));
        }
        columns.add(Column.of(Metric.VALID.column()));
        columns.add(Column.of(Metric.NOTE.column()));
    }

    /** How to read the charts and tables: folded, its summary one line that says what it explains. */
    String guide() {
        boolean users = rows.stream().anyMatch(r -> r.get(Metric.SCALES_TO) != null);
        return "<details class=\"how\" id=\"how\"><summary>How to read this: closed and open loop, TTFB and "
                + "TTLB, the data source floor, the baselines, colours and lines"
                + (Spreads.any(rows) ? ", repetitions and whiskers" : "") + (users ? ", how far a series scales" : "")
                + "</summary>\n" + HOW_TO_READ + (Spreads.any(rows) ? REPETITIONS : "") + (users ? USERS : "")
                + "</details>\n";
    }

    /** The entries of the page's contents for this part: a link per server and page, then the invalid points. */
    String contents() {
        StringBuilder h = new StringBuilder();
        groups().keySet().forEach(g -> h.append("<li><a href=\"#").append(esc(anchor(g))).append("\">")
                .append(esc(g.server())).append(" &middot; ").append(esc(g.pageOver())).append("</a></li>\n"));
        return h.append("<li><a href=\"#invalid\">not measured / invalid</a></li>\n").toString();
    }

    /** Servers and pages in the sweep's order, each with its rows. */
    private Map<Group, List<Row>> groups() {
        Map<Group, List<Row>> groups = new LinkedHashMap<>();
        rows.forEach(r -> groups.computeIfAbsent(new Group(r), g -> new ArrayList<>()).add(r));
        return groups;
    }

    /** A section per server and page in the sweep's order: its charts, what their whiskers are, its table. */
    String points() {
        StringBuilder h = new StringBuilder();
        for (var e : groups().entrySet()) {
            Group g = e.getKey();
            List<Row> all = e.getValue().stream().sorted(order()).toList();
            List<Row> measured = all.stream().filter(Row::valid).toList();
            List<Row> closed = measured.stream().filter(r -> !r.model().equals(Row.OPEN)).toList();
            List<Row> open = measured.stream().filter(r -> r.model().equals(Row.OPEN)).toList();
            h.append("<section>\n<h2 id=\"").append(esc(anchor(g))).append("\">").append(esc(g.server()))
                    .append(" &middot; ").append(esc(g.pageOver())).append("</h2>\n");
            h.append(charts.figures(g.server(), g.pageOver(), closed, open));
            String method = Spreads.method(measured);
            if (!method.isEmpty()) {
                h.append("<p class=\"method\">").append(esc(method)).append("</p>\n");
            }
            if (Spreads.anyDisturbed(all)) {
                h.append("<p class=\"method\">").append(Spreads.disturbedMeaning()).append("</p>\n");
            }
            h.append("<h3>Measured points</h3>\n");
            table(h, all, columns, "points");
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
            // The protocol where any point has another than HTTP/1.1: else the h1 and h2c rows of a point look alike.
            boolean protocols = rows.stream().anyMatch(r -> !r.plainHttp1());
            // The point's identity, what was done, and why.
            table(h, invalid, java.util.stream.Stream.of(Metric.values()).filter(m -> m.kind() == Metric.Kind.IDENTITY
                    || m == Metric.REQUESTS || m == Metric.ERRORS || m == Metric.NOTE)
                    .filter(m -> protocols || m != Metric.PROTOCOL && m != Metric.STREAMS)
                    .map(m -> Column.of(m.column())).toList(), "invalid");
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
        return (g.server() + "-" + g.page() + (g.transport().isEmpty() ? "" : "-" + g.transport()))
                .replaceAll("[^A-Za-z0-9_-]", "_");
    }

    private static void table(StringBuilder h, List<Row> rows, List<Column> columns, String cssClass) {
        h.append("<div class=\"scroll\"><table class=\"").append(cssClass).append("\">\n<thead><tr>");
        columns.forEach(c -> h.append("<th>").append(esc(c.name())).append("</th>"));
        h.append("</tr></thead>\n<tbody>\n");
        for (Row r : rows) {
            boolean disturbed = Boolean.TRUE.equals(r.disturbed());
            String classes = ((r.valid() ? "" : " bad") + (disturbed ? " disturbed" : "")).strip();
            h.append(classes.isEmpty() ? "<tr>" : "<tr class=\"" + classes + "\">");
            for (Column c : columns) {
                h.append(c.name().equals("disturbed") && disturbed ? "<td class=\"disturbed\" title=\""
                        + esc(Spreads.disturbedTitle(r)) + "\">" : c.numeric().test(r) ? "<td class=\"num\">"
                        : "<td>").append(esc(c.text().apply(r))).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
    }

    private static String esc(String text) {
        return Charts.esc(text);
    }

    private static final String HOW_TO_READ = """
            <p>Each point is one server, engine, mode and page under one load. <b>Closed loop</b>: N connections,
            each sending its next request when the previous response has ended, so throughput is what the server
            sustains at N concurrent users. <b>Open loop</b>: requests are sent at a fixed target rate whatever the
            responses do, and latency counts from the intended send time. <b>TTFB</b> is the time to the first byte
            of the response (how soon a progressive page starts to show), <b>TTLB</b> the time to its last byte (the
            whole page); the <i>data source floor</i> is the time the data source alone needs for the page, which no
            TTLB can beat (each point measures its own: the dashed red line is the lowest, its label gives their
            range). <b>ceiling_fraction</b> is the throughput divided by the raw baseline's (the page written
            without a template engine) on the same server, mode, page and concurrency. <b>listen_drops</b> counts the
            connection attempts the kernel dropped at a listening socket during the point (a full accept queue among
            the causes), on the whole machine, other programs' included: each waited a second or more to be retried.
            Empty cells were not measured by that tool (wrk reports no TTFB) and are not drawn; invalid points are
            only listed.</p>
            <p><b>Colours and lines</b>: in the charts each engine and mode has a colour of its own, the same in
            every chart, and each mode a line style and marker shape of its own, so that two modes of one engine
            differ even without colour; the baselines are grey. Another tool's points (wrk) have a thinner line and
            their label names the tool.</p>
            """;

    /** Added to {@link #HOW_TO_READ} where a series was measured at two or more connection counts. */
    private static final String USERS = """
            <p><b>How far a series scales</b>: where a server and page were measured at two or more connection
            counts, the throughput chart is the published study's chart of requests per second against users. Each
            series' <i>scales to N</i> (in its legend entry, and an open diamond on that point) is the last count at
            which its throughput rose beyond its interval, and by 5% or more, over every smaller count: after it,
            more users no longer bring more throughput (docs/method.md says why this rule). <b>Blocking</b> and
            <b>Virtual</b> are the study's aggregated series where two or more engines ran that mode: at each count,
            the mean of the engines' throughput (the baseline left out), drawn thicker, with the lowest and highest
            engine as a shaded band.</p>
            """;

    /** Added to {@link #HOW_TO_READ} when the rows are medians of repetitions. */
    private static final String REPETITIONS = """
            <p><b>Repetitions</b>: each point was measured several times, each time in a fresh server JVM, and every
            figure of it, in the charts and the tables, is the median over its repetitions (every repetition is in
            runs.csv). The <b>whiskers</b> on throughput, TTFB, first item, TTLB and server CPU are an interval for
            that median: under each section's charts, how many repetitions and what interval. <b>n</b> is the number
            of repetitions of a point, <b>req/s interval</b> its throughput's interval.</p>
            """;
}
