package report;

import tables.BrowserRow;
import tables.Milestone;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section for {@code browser.csv}: per page, one chart of the paint milestones of every combination
 * measured, each progressive row beside its buffered counterpart, and the table of medians with their spread.
 */
final class BrowserReport {

    private static final int WIDTH = 900;
    /** One colour per milestone (Okabe-Ito), in {@link Milestone} order. */
    private static final Color[] COLOURS = {new Color(0x999999), new Color(0x0072B2), new Color(0x56B4E9),
            new Color(0x009E73), new Color(0xD55E00), new Color(0xE69F00), new Color(0xCC79A7)};
    private static final Color MARK = new Color(0xB22222);

    private BrowserReport() {
    }

    /**
     * Tables and charts list each server and engine's rows together, per protocol (in the order measured, so h1
     * and h2 of the same pair are side by side) its progressive modes first, then its buffered row.
     */
    private static List<BrowserRow> ordered(List<BrowserRow> rows, String bufferedMode) {
        List<String> groups = new ArrayList<>();
        List<String> protocols = new ArrayList<>();
        rows.forEach(r -> {
            if (!groups.contains(r.server() + " " + r.engine())) {
                groups.add(r.server() + " " + r.engine());
            }
            if (!protocols.contains(r.protocol())) {
                protocols.add(r.protocol());
            }
        });
        return rows.stream().sorted(Comparator.<BrowserRow>comparingInt(r -> groups.indexOf(r.server() + " "
                + r.engine())).thenComparingInt(r -> protocols.indexOf(r.protocol()))
                .thenComparing(r -> r.mode().equals(bufferedMode))).toList();
    }

    /** The section: a heading, how to read it (folded, one line until opened), then per page a chart and a table. */
    static String section(List<BrowserRow> all, String bufferedMode, StandardChartTheme theme) {
        StringBuilder h = new StringBuilder();
        h.append("<h2 id=\"browser\">In a browser</h2>\n<details class=\"how\"><summary>How to read this: the ")
                .append("milestones, each progressive mode against its buffered counterpart, the dashed lines</summary>")
                .append("\n").append(HOW_TO_READ).append("</details>\n");
        Map<String, List<BrowserRow>> pages = new LinkedHashMap<>();
        all.forEach(r -> pages.computeIfAbsent(r.page(), p -> new ArrayList<>()).add(r));
        int n = 0;
        for (var e : pages.entrySet()) {
            List<BrowserRow> rows = ordered(e.getValue(), bufferedMode);
            h.append("<section>\n<h3 id=\"browser-").append(Charts.esc(e.getKey())).append("\">")
                    .append(Charts.esc(e.getKey())).append("</h3>\n");
            String svg = chart(e.getKey(), rows.stream().filter(BrowserRow::valid).toList(), theme, "b" + ++n);
            h.append(svg == null ? "<p>No valid row to chart.</p>\n" : "<figure class=\"wide\">" + svg + "</figure>\n");
            table(h, rows);
            h.append("</section>\n");
        }
        return h.toString();
    }

    /** A chart row's name: the server only where several are charted, the protocol only where several are. */
    private static String label(BrowserRow r, boolean servers, boolean protocols) {
        return (servers ? r.server() + " " : "") + r.engine() + " " + r.mode() + (protocols ? " " + r.protocol() : "");
    }

    /** Medians of every milestone (a marker each) per combination, a row each; null when there is nothing. */
    private static String chart(String page, List<BrowserRow> rows, StandardChartTheme theme, String id) {
        if (rows.isEmpty()) {
            return null;
        }
        boolean servers = rows.stream().map(BrowserRow::server).distinct().count() > 1;
        boolean protocols = rows.stream().map(BrowserRow::protocol).distinct().count() > 1;
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        for (Milestone m : Milestone.values()) {
            for (BrowserRow r : rows) {
                dataset.addValue(Double.isNaN(r.p50(m)) ? null : r.p50(m), m.label(), label(r, servers, protocols));
            }
        }
        CategoryAxis categories = new CategoryAxis(null);
        NumberAxis time = new NumberAxis("milliseconds from navigation start (median of the runs)");
        time.setAutoRangeIncludesZero(true);
        time.setStandardTickUnits(NumberAxis.createStandardTickUnits(Locale.ROOT));
        LineAndShapeRenderer renderer = new LineAndShapeRenderer(false, true);
        renderer.setDrawOutlines(false);
        Shape[] shapes = {new Rectangle2D.Double(-2, -6, 4, 12), new Ellipse2D.Double(-5, -5, 10, 10),
                new Ellipse2D.Double(-6, -6, 12, 12), triangle(true), triangle(false),
                new Rectangle2D.Double(-4, -4, 8, 8), new Rectangle2D.Double(-1.5, -7, 3, 14)};
        CategoryPlot plot = new CategoryPlot(dataset, categories, time, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_RIGHT);   // time along the bottom, as on a timeline
        plot.setDomainGridlinesVisible(true);
        BrowserRow first = rows.get(0);
        if (rows.stream().allMatch(r -> r.delayMs() == first.delayMs() && r.items() == first.items())) {
            mark(plot, first.delayMs(), "first item exists", true);
            mark(plot, first.delayMs() * first.items(), "last item exists", false);
        }
        JFreeChart chart = new JFreeChart("Paint milestones, " + page + ", progressive against buffered", plot);
        theme.apply(chart);
        // After the theme, which clears the series' colours for its own (JFreeChart's saturated defaults, a yellow
        // among them that hardly shows on white).
        for (int i = 0; i < Milestone.values().length; i++) {
            renderer.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
            renderer.setSeriesShape(i, shapes[i % shapes.length]);
        }
        return Charts.svg(chart, id, WIDTH, 150 + 34 * rows.size());
    }

    private static Shape triangle(boolean up) {
        Path2D.Double t = new Path2D.Double();
        double s = up ? -6 : 6;
        t.moveTo(0, s);
        t.lineTo(6, -s);
        t.lineTo(-6, -s);
        t.closePath();
        return t;
    }

    /** A dashed line at {@code at} ms, its label to the right of it ({@code right}) or to its left. */
    private static void mark(CategoryPlot plot, double at, String text, boolean right) {
        ValueMarker marker = new ValueMarker(at, MARK, new BasicStroke(1.2f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
        marker.setLabel(text);
        marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        marker.setLabelPaint(MARK);
        marker.setLabelBackgroundColor(Color.WHITE);
        marker.setLabelAnchor(right ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.TOP_LEFT);
        marker.setLabelTextAnchor(right ? TextAnchor.TOP_LEFT : TextAnchor.TOP_RIGHT);
        plot.addRangeMarker(marker);
    }

    private static void table(StringBuilder h, List<BrowserRow> rows) {
        h.append("<div class=\"scroll\"><table class=\"points\">\n<thead><tr><th>server</th><th>engine</th>")
                .append("<th>mode</th><th>protocol</th><th>runs</th>");
        for (Milestone m : Milestone.values()) {
            h.append("<th>").append(Charts.esc(m.label())).append(" ms</th>");
        }
        h.append("<th>FCP / buffered</th><th>first item / buffered</th><th>last item / buffered</th>")
                .append("<th>valid</th><th>note</th></tr></thead>\n<tbody>\n");
        for (BrowserRow r : rows) {
            h.append(r.valid() ? "<tr>" : "<tr class=\"bad\">").append("<td>").append(Charts.esc(r.server()))
                    .append("</td><td>").append(Charts.esc(r.engine())).append("</td><td>")
                    .append(Charts.esc(r.mode())).append("</td><td>").append(Charts.esc(r.protocol()))
                    .append("</td><td class=\"num\">").append(r.runs()).append("</td>");
            for (Milestone m : Milestone.values()) {
                BrowserRow.Stat s = r.stats().get(m);
                h.append("<td class=\"num\">").append(s == null ? "" : String.format(Locale.ROOT,
                        "%.0f <small>(%.0f&ndash;%.0f)</small>", s.p50(), s.min(), s.max())).append("</td>");
            }
            for (Milestone m : List.of(Milestone.FCP, Milestone.FIRST_ITEM, Milestone.LAST_ITEM)) {
                double ratio = r.ratio(m);
                h.append("<td class=\"num\">").append(Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f",
                        ratio)).append("</td>");
            }
            h.append("<td>").append(r.valid()).append("</td><td>").append(Charts.esc(r.note())).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
    }

    private static final String HOW_TO_READ = """
            <p>Each page loaded in headless Chromium, a fresh tab with the cache disabled per load, at a per-item
            delay where streaming shows; every time is in milliseconds from the navigation's start, the median of
            the runs with its range (minimum&ndash;maximum) in the table. <b>TTFB</b>: the response's first byte;
            <b>first contentful paint</b> and <b>largest contentful paint</b>: as the page's own Performance API
            reports them; <b>first/last item in the DOM</b>: when the page's first and last item element had been
            parsed into the document; <b>DOMContentLoaded</b> and <b>load</b>: the navigation's events. Each
            progressive combination was measured beside the same server and engine in the buffered mode (classic
            server-side rendering), its runs interleaved with the buffered ones, over the same protocol; the ratios
            divide its medians by the buffered medians. <b>protocol</b>: what the pages came over, as the browser
            reported it (<code>h1</code> HTTP/1.1 in clear text, <code>h1s</code> HTTP/1.1 over TLS, <code>h2</code>
            HTTP/2 over TLS). The dashed lines mark when the data source's first and last items exist.</p>
            """;
}
