package report;

import org.jfree.chart.LegendItem;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CrosshairState;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYItemRendererState;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.Range;
import org.jfree.data.xy.IntervalXYDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.svg.SVGHints;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.io.Serial;
import java.util.HashMap;
import java.util.Map;

/**
 * Lines and markers, as {@link XYLineAndShapeRenderer} draws them, with each point's interval (the start and end y
 * of an {@link IntervalXYDataset}, such as a {@code YIntervalSeriesCollection}) as a vertical error bar with caps
 * under its marker, and a red ring around the points marked {@link #disturbed}. JFreeChart's own XYErrorRenderer
 * draws a bar, caps and all, for every item, a point without an interval too (its caps then cross the marker as a
 * dash); here a point whose interval is empty (start = end, no repetitions) has no bar.
 *
 * <p>On an SVG canvas each bar is a group of class {@code whisker}, each ring one of class {@code disturbed} with a
 * title (a tooltip in a browser); other canvases ignore those hints.
 */
final class Whiskers extends XYLineAndShapeRenderer {

    @Serial
    private static final long serialVersionUID = 1L;

    /** The rings' colour: not one of the engines' (Okabe-Ito has no pure red). */
    static final Color RING = new Color(0xE0, 0x00, 0x00);
    private static final Stroke RING_STROKE = new BasicStroke(1.6f);
    private static final Stroke BAR = new BasicStroke(1.3f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER);
    private static final double CAP = 7;

    /** Per series, per item: the disturbed points and their tooltips. */
    private final Map<Integer, Map<Integer, String>> disturbed = new HashMap<>();

    Whiskers() {
        super(true, true);
    }

    /** Marks item {@code item} of series {@code series} disturbed; {@code title}: why, its tooltip. */
    void disturbed(int series, int item, String title) {
        disturbed.computeIfAbsent(series, s -> new HashMap<>()).put(item, title);
    }

    boolean anyDisturbed() {
        return !disturbed.isEmpty();
    }

    /** The legend's entry for the ring. */
    static LegendItem ringLegend(String label) {
        double r = ringRadius(6);
        return new LegendItem(label, null, null, null, true, new Ellipse2D.Double(-r, -r, 2 * r, 2 * r), false,
                Color.WHITE, true, RING, RING_STROKE, false, new Line2D.Double(), RING_STROKE, RING);
    }

    private static double ringRadius(double markerSize) {
        return markerSize / 2 + 3.5;
    }

    /** The axis range holds every bar, not just the medians. */
    @Override
    public Range findRangeBounds(XYDataset dataset) {
        return findRangeBounds(dataset, true);
    }

    @Override
    public void drawItem(Graphics2D g2, XYItemRendererState state, Rectangle2D dataArea, PlotRenderingInfo info,
                         XYPlot plot, ValueAxis domainAxis, ValueAxis rangeAxis, XYDataset dataset, int series,
                         int item, CrosshairState crosshairState, int pass) {
        boolean visible = getItemVisible(series, item);
        double x = domainAxis.valueToJava2D(dataset.getXValue(series, item), dataArea, plot.getDomainAxisEdge());
        if (visible && isLinePass(pass) && dataset instanceof IntervalXYDataset intervals) {
            double lo = intervals.getStartYValue(series, item);
            double hi = intervals.getEndYValue(series, item);
            if (hi > lo) {   // drawn first: the lines and then the markers go over it
                double y0 = rangeAxis.valueToJava2D(lo, dataArea, plot.getRangeAxisEdge());
                double y1 = rangeAxis.valueToJava2D(hi, dataArea, plot.getRangeAxisEdge());
                g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, Map.of("class", "whisker"));
                g2.setPaint(getItemPaint(series, item));
                g2.setStroke(BAR);
                g2.draw(new Line2D.Double(x, y0, x, y1));
                g2.draw(new Line2D.Double(x - CAP / 2, y0, x + CAP / 2, y0));
                g2.draw(new Line2D.Double(x - CAP / 2, y1, x + CAP / 2, y1));
                g2.setRenderingHint(SVGHints.KEY_END_GROUP, "whisker");
            }
        }
        super.drawItem(g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, series, item,
                crosshairState, pass);
        String why = disturbed.getOrDefault(series, Map.of()).get(item);
        double y = dataset.getYValue(series, item);
        if (visible && why != null && isItemPass(pass) && !Double.isNaN(y)) {
            double yy = rangeAxis.valueToJava2D(y, dataArea, plot.getRangeAxisEdge());
            Rectangle2D marker = getItemShape(series, item).getBounds2D();
            double r = ringRadius(Math.max(marker.getWidth(), marker.getHeight()));
            g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, Map.of("class", "disturbed"));
            g2.setRenderingHint(SVGHints.KEY_ELEMENT_TITLE, why);
            g2.setPaint(RING);
            g2.setStroke(RING_STROKE);
            g2.draw(new Ellipse2D.Double(x - r, yy - r, 2 * r, 2 * r));
            g2.setRenderingHint(SVGHints.KEY_END_GROUP, "disturbed");
        }
    }
}
