package report;

import tables.Row;
import tables.Summary;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.general.DatasetUtils;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The charts of the bench part of report.html: for one server and page, each metric against connections (closed
 * loop) or the target rate (open loop), one series per engine and mode, each combination in its own colour and each
 * mode in its own line style and marker, the baselines in greys ({@link SeriesLook}), the same in every chart of the
 * report. The data source's floor is one dashed line, labelled once.
 *
 * <p>A summary row of repetitions ({@link Row#spread}) draws, for the metrics that have one
 * ({@link Row#INTERVAL_METRICS}), its interval for the median as a vertical bar ({@link Whiskers}); a disturbed point
 * is ringed in red. Rows without a spread (other tools') draw as points alone.
 */
final class BenchCharts {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 400;
    private static final int LEGEND_ROW = 22;
    private static final Color FLOOR = new Color(0xB22222);

    /** What one chart plots on its y axis. */
    private record Metric(String column, String title, String axis, boolean floor) {
    }

    private static final List<Metric> CLOSED = List.of(
            new Metric("req_per_s", "Throughput", "throughput (requests/s)", false),
            new Metric("ttfb_p50_ms", "Time to first byte, median", "TTFB p50 (ms)", false),
            // What progressive rendering buys over the buffered mode: the first item's markup long before the last.
            new Metric("first_item_p50_ms", "Time to the first item's markup, median", "first item p50 (ms)", false),
            new Metric("ttlb_p50_ms", "Time to last byte, median", "TTLB p50 (ms)", true),
            // The published study's tools (JMeter, Apache Bench, k6) report the 95th percentile.
            new Metric("ttlb_p95_ms", "Time to last byte, 95th percentile", "TTLB p95 (ms)", true),
            new Metric("ttlb_p99_ms", "Time to last byte, 99th percentile", "TTLB p99 (ms)", true),
            new Metric("cpu_ms_per_req", "Server CPU per request", "server CPU (ms/request)", false),
            new Metric("rss_peak_mb", "Server resident memory, peak", "RSS peak (MB)", false),
            new Metric("heap_mb", "Server heap", "heap (MB)", false));
    private static final List<Metric> OPEN = List.of(
            new Metric("ttlb_p50_ms", "Open loop: time to last byte, median", "TTLB p50 (ms)", true),
            new Metric("ttlb_p95_ms", "Open loop: time to last byte, 95th percentile", "TTLB p95 (ms)", true),
            new Metric("ttlb_p99_ms", "Open loop: time to last byte, 99th percentile", "TTLB p99 (ms)", true));

    private final SeriesLook look;
    /** The engine that writes the page without a template engine: the ceiling the others are compared with. */
    private final String raw;
    private final StandardChartTheme theme;
    /** Charts drawn so far: each chart's id in the document ("c1", "c2", ...). */
    private int charts;

    /** {@code modes}: as the sweep met them; {@code raw}: the baseline engine. */
    BenchCharts(List<String> modes, String raw, StandardChartTheme theme) {
        this.look = new SeriesLook(modes);
        this.raw = raw;
        this.theme = theme;
    }

    /**
     * The charts of one server and page from its valid rows, closed loop and open loop apart, or a sentence when
     * no row can be drawn.
     */
    String figures(String server, String page, List<Row> closed, List<Row> open) {
        String where = server + " \u00b7 " + page;
        StringBuilder figures = new StringBuilder();
        // Throughput against two or more user counts is the published study's chart: its knees and aggregates.
        UsersChart users = UsersChart.of(closed, raw, server, page);
        for (Metric m : CLOSED) {
            figure(figures, chart(m.title() + ", " + where, "concurrent connections, closed loop (log\u2082 scale)",
                    "connections", true, m, closed, m.column().equals("req_per_s") ? users : null));
        }
        for (Metric m : OPEN) {
            figure(figures, chart(m.title() + ", " + where, "target rate (requests/s)", "rate", false, m, open,
                    null));
        }
        return figures.isEmpty() ? "<p>No valid point to chart.</p>\n"
                : "<div class=\"charts\">\n" + figures + "</div>\n";
    }

    private static void figure(StringBuilder h, String svg) {
        if (svg != null) {
            h.append("<figure>").append(svg).append("</figure>\n");
        }
    }

    /**
     * One metric against connections (or rate), one series per engine and mode; null when no row has both values.
     * An empty cell is a value the tool did not measure (wrk has no TTFB): it is left out, never drawn as 0.
     * {@code users}: what the users chart adds (each series' scales_to, the aggregated series), or null.
     */
    private String chart(String title, String xLabel, String xColumn, boolean logX, Metric m, List<Row> rows,
                         UsersChart users) {
        boolean tools = rows.stream().map(Row::tool).distinct().count() > 1;
        boolean rawModes = rows.stream().filter(r -> r.engine().equals(raw)).map(Row::mode).distinct().count() > 1;
        boolean connections = !logX && rows.stream().map(Row::connections).distinct().count() > 1;
        boolean pools = rows.stream().map(Row::threads).filter(java.util.Objects::nonNull).distinct().count() > 1;
        YIntervalSeriesCollection dataset = new YIntervalSeriesCollection();
        Map<String, Integer> seriesOf = new HashMap<>();
        Map<String, Row> disturbed = new HashMap<>();   // by series and x
        List<Row> firstOfSeries = new ArrayList<>();
        TreeSet<Double> floors = new TreeSet<>();   // each point's own, measured: they differ by a fraction
        for (Row r : rows) {
            double x = Summary.number(r, xColumn);
            double y = Summary.number(r, m.column());
            if (Double.isNaN(x) || Double.isNaN(y) || (logX && x <= 0)) {
                continue;
            }
            String engine = r.engine();
            // A foreign app by its label alone: how it renders is its own, its "mode" says nothing.
            String label = engine.equals(raw) ? (rawModes ? "raw/" + r.mode() : "raw") + " (baseline)"
                    : r.server().equals(Row.FOREIGN) ? engine : engine + "/" + r.mode();
            // The built-in load generator is the default; another tool's rows (wrk) say so in their label.
            label += (r.tool().equals(Row.PSSRBENCH) ? "" : " [" + r.tool() + "]")
                    + (connections ? ", " + r.connections() + " connections" : "") + threads(r, pools)
                    + (users == null ? "" : UsersChart.label(r));
            Integer index = seriesOf.get(label);
            if (index == null) {
                index = dataset.getSeriesCount();
                dataset.addSeries(new YIntervalSeries(label));
                seriesOf.put(label, index);
                firstOfSeries.add(r);
            }
            double[] bounds = interval(r, m.column(), y);
            dataset.getSeries(index).add(x, y, bounds[0], bounds[1]);
            if (Boolean.TRUE.equals(r.disturbed())) {
                disturbed.put(index + "@" + x, r);
            }
            if (m.floor() && r.decimal(tables.Metric.SOURCE_MS) != null) {
                floors.add(r.decimal(tables.Metric.SOURCE_MS));
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
        Whiskers renderer = new Whiskers();
        renderer.setDrawOutlines(false);   // filled markers only: an outline in the same colour adds nothing
        renderer.setLegendLine(SeriesLook.LEGEND_LINE);
        XYPlot plot = new XYPlot(dataset, xAxis, yAxis, renderer);
        JFreeChart chart = new JFreeChart(title, plot);
        theme.apply(chart);
        for (int i = 0; i < firstOfSeries.size(); i++) {
            Row r = firstOfSeries.get(i);
            renderer.setSeriesPaint(i, look.colour(key(r, connections) + threads(r, pools), r.engine().equals(raw)));
            renderer.setSeriesShape(i, look.shape(r.mode()));
            renderer.setSeriesStroke(i, look.stroke(r.mode(), tools && !r.tool().equals(Row.PSSRBENCH)));
        }
        if (users != null) {
            users.draw(plot, dataset, firstOfSeries, look);
        }
        for (int s = 0; s < dataset.getSeriesCount(); s++) {   // a series' items are in x order, not the rows'
            for (int i = 0; i < dataset.getItemCount(s); i++) {
                Row r = disturbed.get(s + "@" + dataset.getXValue(s, i));
                if (r != null) {
                    renderer.disturbed(s, i, Spreads.disturbedTitle(r));
                }
            }
        }
        if (renderer.anyDisturbed()) {
            LegendItemCollection legend = plot.getLegendItems();
            legend.add(Whiskers.ringLegend("disturbed"));
            plot.setFixedLegendItems(legend);
        }
        Range data = DatasetUtils.findRangeBounds(dataset);
        if (!floors.isEmpty() && data != null && floors.last() >= data.getUpperBound()) {
            yAxis.setRange(0, floors.last() * 1.15);   // markers do not widen the auto range
        }
        double top = Math.max(data == null ? 0 : data.getUpperBound(), floors.isEmpty() ? 0 : floors.last() * 1.15);
        if (!floors.isEmpty()) {
            // Each point measured its own floor and they differ by a fraction of a millisecond: one line at the
            // lowest, which no point's time to last byte is under, and one label that gives their range.
            double floor = floors.first();
            String low = String.format(Locale.ROOT, "%.1f", floor);
            String high = String.format(Locale.ROOT, "%.1f", floors.last());
            ValueMarker marker = new ValueMarker(floor, FLOOR, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
            marker.setLabel("data source floor " + (low.equals(high) ? low : low + "\u2013" + high) + " ms");
            marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            marker.setLabelPaint(FLOOR);
            marker.setLabelBackgroundColor(Color.WHITE);
            // No time to last byte is below the floor: its label goes there, where no point is, if it fits (a
            // floor under an eighteenth of the axis leaves too little room), else above the line. The marker is drawn
            // under the points and their whiskers, so that its label never hides one.
            boolean below = floor >= top / 18;
            marker.setLabelAnchor(below ? RectangleAnchor.BOTTOM_LEFT : RectangleAnchor.TOP_LEFT);
            marker.setLabelTextAnchor(below ? TextAnchor.TOP_LEFT : TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(marker, Layer.BACKGROUND);
        }

        // The legend takes about a row per three series (more when the labels are long) from the chart's height:
        // past two rows, the chart grows by a row's height for each, so that the plot keeps its size.
        // The users chart's aggregated series have long labels: a row each.
        int wide = plot.getDataset(1) == null ? 0 : plot.getDataset(1).getSeriesCount();
        int legendRows = (plot.getLegendItems().getItemCount() - wide + 2) / 3 + wide;
        return Charts.svg(chart, "c" + ++charts, WIDTH, HEIGHT + LEGEND_ROW * Math.max(0, legendRows - 2));
    }

    /**
     * The combination a series draws, for its colour: engine and mode, the tool when it is not PssrBench's own, and
     * the connections where a chart draws a series per connection count (open loop at several).
     */
    private static String key(Row r, boolean connections) {
        return r.engine() + "/" + r.mode() + (r.tool().equals(Row.PSSRBENCH) ? "" : " [" + r.tool() + "]")
                + (connections ? ", " + r.connections() + " connections" : "");
    }

    /** {@code ", 4 threads"} where a chart draws points at several pool sizes (--threads) and this one has one. */
    private static String threads(Row r, boolean pools) {
        return pools && r.threads() != null ? ", " + r.threads() + " threads" : "";
    }

    /** The row's interval for the median of {@code column}, or {@code [y, y]} (no bar) where it has none. */
    static double[] interval(Row r, String column, double y) {
        Row.Spread spread = r.spread();
        if (spread == null || !Row.INTERVAL_METRICS.contains(column) || !spread.lo().containsKey(column)
                || !spread.hi().containsKey(column)) {
            return new double[] {y, y};
        }
        return new double[] {spread.lo().get(column), spread.hi().get(column)};
    }
}
