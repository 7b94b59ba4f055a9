package report;

import tables.Row;

import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.AbstractXYAnnotation;
import org.jfree.chart.annotations.XYAnnotationBoundsInfo;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.data.Range;
import org.jfree.svg.SVGHints;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.io.Serial;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The published study's quoted figures ({@link PaperFigures}) on the users chart of their framework's stand-in server
 * and page, beside the series PssrBench measured for them: a hollow circle at the paper's peak req/s and its
 * "scales to" user count where it quotes both, a dotted line across the plot at its peak where it quotes no count,
 * a dotted vertical line at its count where it quotes no peak; each in its series' colour, labelled "paper", and a
 * legend entry naming the framework each stands for. A series the run did not measure gets none, so a chart
 * without a matching series is drawn as it always was.
 */
final class PaperPoints {

    private static final float[] DOTS = {2f, 3f};

    private PaperPoints() {
    }

    /** One series of the paper: where it is quoted, and what (a peak, a count, or both). */
    private record Quoted(PaperFigures.Figure first, Double peak, Integer scalesTo) {
    }

    /**
     * Adds the paper's points of {@code server} and {@code page} to the plot, each beside the series of
     * {@code firstOfSeries} (the engines' series of the plot's first dataset, in order) or the aggregate of
     * {@code aggregates} (each mode's colour, where its aggregate was drawn) it stands for.
     */
    static void draw(XYPlot plot, String server, String page, List<Row> firstOfSeries, Map<String, Color> aggregates) {
        Map<String, Quoted> quoted = new LinkedHashMap<>();
        for (PaperFigures.Figure f : PaperFigures.all()) {
            if (f.benchFigure() && f.server().equals(server) && f.page().equals(page)) {
                String key = f.figure() + "|" + f.series();
                Quoted q = quoted.getOrDefault(key, new Quoted(f, null, null));
                quoted.put(key, f.quoted().equals(PaperFigures.REQ_PER_S)
                        ? new Quoted(q.first(), f.number(), q.scalesTo())
                        : new Quoted(q.first(), q.peak(), (int) f.number()));
            }
        }
        String framework = null;
        String citation = null;
        for (Quoted q : quoted.values()) {
            PaperFigures.Figure f = q.first();
            Color colour = f.aggregate() ? aggregates.get(f.mode()) : colour(plot, firstOfSeries, f);
            if (colour == null) {
                continue;   // the run did not measure this series here
            }
            framework = f.framework();
            citation = f.citation();
            plot.getRenderer().addAnnotation(new Point(q, colour), Layer.FOREGROUND);
        }
        if (framework != null) {
            LegendItemCollection legend = plot.getLegendItems();
            LegendItem paper = new LegendItem("paper: " + framework + " (" + server + " stands in), "
                    + citation.substring(0, citation.indexOf(',')) + " " + citation.substring(
                    citation.lastIndexOf(',') + 2), null, null, null, true, new Ellipse2D.Double(-5, -5, 10, 10),
                    false, Color.GRAY, true, Color.DARK_GRAY, new BasicStroke(1.6f), false,
                    new Line2D.Double(), new BasicStroke(1f), Color.GRAY);
            legend.add(paper);
            plot.setFixedLegendItems(legend);
            // The axes fit their data when a dataset changes, not when an annotation is added: fit them again, so
            // that a paper's peak above every point of this run is on the chart.
            plot.configureDomainAxes();
            plot.configureRangeAxes();
        }
    }

    /** The colour of the PssrBench series of the paper's engine and mode on this chart, or null where none. */
    private static Color colour(XYPlot plot, List<Row> firstOfSeries, PaperFigures.Figure f) {
        for (int s = 0; s < firstOfSeries.size(); s++) {
            Row r = firstOfSeries.get(s);
            if (r.engine().equals(f.engine()) && r.mode().equals(f.mode()) && r.tool().equals(Row.PSSRBENCH)
                    && !r.server().equals(Row.FOREIGN)) {
                return plot.getRenderer().getSeriesPaint(s) instanceof Color c ? c : Color.BLACK;
            }
        }
        return null;
    }

    /**
     * One series' quoted figures as drawn; on an SVG canvas a group of class {@code paper} whose title says what the
     * paper quotes, for which framework, where.
     */
    static final class Point extends AbstractXYAnnotation implements XYAnnotationBoundsInfo {
        @Serial
        private static final long serialVersionUID = 1L;
        private static final double R = 6;
        private final Double peak;
        private final Integer users;
        private final Color colour;
        private final String title;

        Point(Quoted q, Color colour) {
            PaperFigures.Figure f = q.first();
            this.peak = q.peak();
            this.users = q.scalesTo();
            this.colour = colour;
            this.title = "paper: " + f.series() + " on " + f.framework() + (peak == null ? ""
                    : String.format(Locale.ROOT, ", %,.0f req/s", peak)) + (users == null ? ""
                    : ", scales to " + users) + " (" + f.citation() + ")";
        }

        @Override
        public boolean getIncludeInDataBounds() {
            return true;
        }

        @Override
        public Range getXRange() {
            return users == null ? null : new Range(users, users);
        }

        @Override
        public Range getYRange() {
            return peak == null ? null : new Range(peak, peak);
        }

        @Override
        public void draw(Graphics2D g2, XYPlot plot, Rectangle2D area, ValueAxis domainAxis, ValueAxis rangeAxis,
                         int rendererIndex, PlotRenderingInfo info) {
            double px = users == null ? area.getMaxX() : domainAxis.valueToJava2D(users, area,
                    Plot.resolveDomainAxisLocation(plot.getDomainAxisLocation(), plot.getOrientation()));
            double py = peak == null ? area.getMinY() : rangeAxis.valueToJava2D(peak, area,
                    Plot.resolveRangeAxisLocation(plot.getRangeAxisLocation(), plot.getOrientation()));
            g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, Map.of("class", "paper"));
            g2.setRenderingHint(SVGHints.KEY_ELEMENT_TITLE, title);
            g2.setPaint(colour);
            g2.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
            if (peak != null && users != null) {
                g2.setStroke(new BasicStroke(1.6f));
                g2.draw(new Ellipse2D.Double(px - R, py - R, 2 * R, 2 * R));
                // Right of the circle, or left of it where the plot ends (the paper's last count, 128).
                double width = g2.getFontMetrics().stringWidth("paper");
                double x = px + R + 2 + width <= area.getMaxX() ? px + R + 2 : px - R - 2 - width;
                g2.drawString("paper", (float) x, (float) (py - R));
            } else {
                g2.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, DOTS, 0f));
                if (peak != null) {
                    g2.draw(new Line2D.Double(area.getMinX(), py, area.getMaxX(), py));
                    g2.drawString("paper", (float) (area.getMinX() + 4), (float) (py - 3));
                } else {
                    g2.draw(new Line2D.Double(px, area.getMinY(), px, area.getMaxY()));
                    g2.drawString("paper", (float) (px + 3), (float) (area.getMinY() + 12));
                }
            }
            g2.setRenderingHint(SVGHints.KEY_END_GROUP, "paper");
        }
    }
}
