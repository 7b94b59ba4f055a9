package report;

import stats.ScalesTo;
import tables.Metric;
import tables.Row;

import org.jfree.chart.annotations.AbstractXYAnnotation;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.jfree.svg.SVGHints;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What makes a section's throughput chart the published study's users chart (its Figures 2 to 7: req/s against 1 to
 * 128 users, one line per approach) where the section was measured at two or more connection counts: each series'
 * {@code scales_to} ({@link ScalesTo}) in its legend entry and as an open diamond on its point, and the study's two
 * aggregated series, "Blocking" and "Virtual", each the mean over the engines of the blocking (virtual) mode's
 * series at each count, with the engines' min–max as a shaded band around it.
 */
final class UsersChart {

    /**
     * The modes the study aggregates over its engines, and the names its charts give them (the mean of its 8
     * blocking engines each run on a bounded pool, or on a virtual thread), in its legend's order.
     */
    private static final SortedMap<String, String> AGGREGATED = Collections.unmodifiableSortedMap(new TreeMap<>(
            Map.of("blocking", "Blocking", "virtual", "Virtual")));
    /** An aggregate is drawn from this many engines on (one engine is its own series already). */
    static final int FEWEST_ENGINES = 2;
    private static final float AGGREGATE_WIDTH = 3.5f;
    private static final float BAND_ALPHA = 0.18f;

    private final List<Row> rows;
    private final String raw;
    private final String server;
    private final String page;
    /** Each aggregated mode's colour, that of its first pool size drawn: the paper's points beside it take it. */
    private final Map<String, Color> aggregateColours = new TreeMap<>();

    private UsersChart(List<Row> rows, String raw, String server, String page) {
        this.rows = rows;
        this.raw = raw;
        this.server = server;
        this.page = page;
    }

    /**
     * The users chart of a section's valid closed-loop rows (their {@code scales_to} set, {@link ScalesTo#apply}), or
     * null where they were measured at fewer than two connection counts. {@code server} and {@code page}: the
     * chart's, for the published study's points beside its series ({@link PaperPoints}; a page over another
     * protocol than HTTP/1.1 matches none).
     */
    static UsersChart of(List<Row> closed, String raw, String server, String page) {
        return closed.stream().map(Row::connections).distinct().count() < 2 ? null
                : new UsersChart(closed, raw, server, page);
    }

    /** What a series' legend entry adds: its figure, where its series has one. */
    static String label(Row first) {
        return first.get(Metric.SCALES_TO) instanceof Integer n ? ", scales to " + n : "";
    }

    /**
     * Adds to the plot, before its legend is fixed: a diamond on each series' {@code scales_to} point (the series of
     * {@code dataset} in order, each drawn as {@code firstOfSeries} says), and the aggregated series over them,
     * each in a colour of its own from {@code look}, thicker, in its mode's line and marker.
     */
    void draw(XYPlot plot, YIntervalSeriesCollection dataset, List<Row> firstOfSeries, SeriesLook look) {
        for (int s = 0; s < dataset.getSeriesCount(); s++) {
            Row first = firstOfSeries.get(s);
            if (first.get(Metric.SCALES_TO) instanceof Integer n) {
                knee(plot, dataset.getSeries(s), n, plot.getRenderer().getSeriesPaint(s));
            }
        }
        YIntervalSeriesCollection aggregates = new YIntervalSeriesCollection();
        DeviationRenderer renderer = new DeviationRenderer(true, true);
        renderer.setAlpha(BAND_ALPHA);
        renderer.setDrawOutlines(false);
        renderer.setLegendLine(SeriesLook.LEGEND_LINE);
        for (Map.Entry<String, String> mode : AGGREGATED.entrySet()) {
            // One aggregate per pool size (bench --threads): the study's Blocking is one bounded pool, and averaging
            // two sizes would hide the knee each has.
            for (Integer size : rows.stream().filter(r -> r.mode().equals(mode.getKey())).map(Row::threads)
                    .distinct().sorted(Comparator.nullsFirst(Comparator.naturalOrder())).toList()) {
                drawAggregate(plot, aggregates, renderer, look, mode, size);
            }
        }
        if (aggregates.getSeriesCount() > 0) {
            // Over the engines' lines (their band is translucent): the study's figure reads by its aggregates.
            plot.setDataset(1, aggregates);
            plot.setRenderer(1, renderer);
            plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
        }
        PaperPoints.draw(plot, server, page, firstOfSeries, aggregateColours);
    }

    /** The aggregate of {@code mode}'s engines at pool size {@code size} (null: none), if it can be drawn. */
    private void drawAggregate(XYPlot plot, YIntervalSeriesCollection aggregates, DeviationRenderer renderer,
            SeriesLook look, Map.Entry<String, String> mode, Integer size) {
        String name = mode.getValue() + (size == null ? "" : " on " + size + " threads");
        Aggregate aggregate = aggregate(mode.getKey(), size, name);
        if (aggregate == null) {
            return;
        }
        Integer n = ScalesTo.of(aggregate.points());
        YIntervalSeries series = aggregate.series();
        series.setKey(series.getKey() + (n == null ? "" : ", scales to " + n));
        int i = aggregates.getSeriesCount();
        aggregates.addSeries(series);
        Color colour = look.colour(name + " (mean)", false);
        renderer.setSeriesPaint(i, colour);
        renderer.setSeriesFillPaint(i, colour);
        renderer.setSeriesShape(i, look.shape(mode.getKey()));
        BasicStroke line = (BasicStroke) look.stroke(mode.getKey(), false);
        aggregateColours.putIfAbsent(mode.getKey(), colour);
        renderer.setSeriesStroke(i, new BasicStroke(AGGREGATE_WIDTH, line.getEndCap(), line.getLineJoin(),
                line.getMiterLimit(), line.getDashArray(), 0f));
        if (n != null) {
            knee(plot, series, n, colour);
        }
    }

    /**
     * An aggregated series as drawn (the mean, and the engines' min and max as its band) and its points for its
     * figure: the mean with the means of the engines' interval bounds (wherever every engine's median lies within
     * its interval, their mean lies within those).
     */
    private record Aggregate(YIntervalSeries series, List<ScalesTo.Point> points) {
    }

    /**
     * The mode's aggregate at one pool size ({@code threads}, null for none), as {@link #means} computes it, drawn:
     * null where fewer engines ran the mode. Its name says how many engines and what the band is.
     */
    private Aggregate aggregate(String mode, Integer threads, String name) {
        Means means = means(rows, mode, threads, raw);
        if (means == null) {
            return null;
        }
        YIntervalSeries series = new YIntervalSeries(name + ": mean of " + means.engines() + " engines (band: min"
                + "\u2013max)");
        means.counts().forEach(m -> series.add(m.point().users(), m.point().median(), m.min(), m.max()));
        return new Aggregate(series, means.counts().stream().map(Mean::point).toList());
    }

    /**
     * One count of an aggregated series: the mean throughput with the means of the engines' interval bounds as its
     * point (wherever every engine's median lies within its interval, their mean lies within those), and the
     * lowest and highest engine's median.
     */
    record Mean(ScalesTo.Point point, double min, double max) {
    }

    /** An aggregated series: how many engines ran the mode, and each count where enough of them have a point. */
    record Means(int engines, List<Mean> counts) {
    }

    /**
     * The study's aggregated series of {@code mode} at one pool size ({@code threads}, null for none) over the
     * rows: at each count where at least {@link #FEWEST_ENGINES} engines have a valid point, their mean
     * throughput, the {@code raw} baseline, other tools' rows and foreign apps left out; null where fewer engines
     * ran the mode or no count has enough. The users chart draws it, docs/study.md compares it with the paper's.
     */
    static Means means(List<Row> rows, String mode, Integer threads, String raw) {
        Map<Integer, List<Row>> byCount = new TreeMap<>();
        List<String> engines = new ArrayList<>();
        for (Row r : rows) {
            if (r.mode().equals(mode) && Objects.equals(r.threads(), threads) && !r.engine().equals(raw)
                    && r.tool().equals(Row.PSSRBENCH)
                    && !r.server().equals(Row.FOREIGN) && r.reqPerS() != null) {
                byCount.computeIfAbsent(r.connections(), c -> new ArrayList<>()).add(r);
                if (!engines.contains(r.engine())) {
                    engines.add(r.engine());
                }
            }
        }
        if (engines.size() < FEWEST_ENGINES) {
            return null;
        }
        List<Mean> counts = new ArrayList<>();
        byCount.forEach((count, points) -> {
            if (points.size() >= FEWEST_ENGINES) {
                double[] medians = points.stream().mapToDouble(Row::reqPerS).toArray();
                double mean = Arrays.stream(medians).average().orElseThrow();
                List<ScalesTo.Point> ps = points.stream().map(ScalesTo::point).toList();
                double lo = ps.stream().mapToDouble(ScalesTo.Point::lo).average().orElseThrow();
                double hi = ps.stream().mapToDouble(ScalesTo.Point::hi).average().orElseThrow();
                counts.add(new Mean(new ScalesTo.Point(count, mean, Math.min(mean, lo), Math.max(mean, hi)),
                        Arrays.stream(medians).min().orElseThrow(), Arrays.stream(medians).max().orElseThrow()));
            }
        });
        return counts.isEmpty() ? null : new Means(engines.size(), counts);
    }

    /** A diamond on the series' point at {@code users}, with its tooltip. */
    private static void knee(XYPlot plot, YIntervalSeries series, int users, java.awt.Paint paint) {
        for (int i = 0; i < series.getItemCount(); i++) {
            if (series.getX(i).doubleValue() == users) {
                String name = String.valueOf(series.getKey());
                int cut = name.indexOf(", scales to");
                plot.addAnnotation(new Knee(users, series.getYValue(i), paint instanceof Color c ? c : Color.BLACK,
                        (cut < 0 ? name : name.substring(0, cut)) + " scales to " + users + " connections"));
            }
        }
    }

    /**
     * An open diamond around a point, in its series' colour; on an SVG canvas a group of class {@code knee} with a
     * title (a tooltip in a browser).
     */
    static final class Knee extends AbstractXYAnnotation {
        @Serial
        private static final long serialVersionUID = 1L;
        private static final double HALF = 9;
        private final double x;
        private final double y;
        private final Color colour;
        private final String title;

        Knee(double x, double y, Color colour, String title) {
            this.x = x;
            this.y = y;
            this.colour = colour;
            this.title = title;
        }

        @Override
        public void draw(Graphics2D g2, XYPlot plot, Rectangle2D dataArea, ValueAxis domainAxis, ValueAxis rangeAxis,
                         int rendererIndex, PlotRenderingInfo info) {
            double px = domainAxis.valueToJava2D(x, dataArea, Plot.resolveDomainAxisLocation(
                    plot.getDomainAxisLocation(), plot.getOrientation()));
            double py = rangeAxis.valueToJava2D(y, dataArea, Plot.resolveRangeAxisLocation(
                    plot.getRangeAxisLocation(), plot.getOrientation()));
            Path2D diamond = new Path2D.Double();
            diamond.moveTo(px, py - HALF);
            diamond.lineTo(px + HALF, py);
            diamond.lineTo(px, py + HALF);
            diamond.lineTo(px - HALF, py);
            diamond.closePath();
            g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, Map.of("class", "knee"));
            g2.setRenderingHint(SVGHints.KEY_ELEMENT_TITLE, title);
            g2.setPaint(colour);
            g2.setStroke(new BasicStroke(1.6f));
            g2.draw(diamond);
            g2.setRenderingHint(SVGHints.KEY_END_GROUP, "knee");
        }
    }
}
