package report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.util.Locale;

/** What every part of report.html draws and writes the same way: the charts' look, inline SVG, escaped text. */
final class Charts {

    private Charts() {
    }

    /** The look of every chart of the report. */
    static StandardChartTheme theme() {
        StandardChartTheme theme = new StandardChartTheme("pssrbench");
        // Logical fonts: JFreeSVG writes them as the generic sans-serif family every browser has, so the text that
        // JFreeChart measured while laying out the chart is about the width the browser draws.
        theme.setExtraLargeFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        theme.setLargeFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        theme.setRegularFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        theme.setSmallFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        theme.setChartBackgroundPaint(Color.WHITE);
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.setLegendBackgroundPaint(Color.WHITE);
        theme.setDomainGridlinePaint(new Color(0xDDDDDD));
        theme.setRangeGridlinePaint(new Color(0xDDDDDD));
        theme.setPlotOutlinePaint(new Color(0x999999));
        return theme;
    }

    /** A chart as an inline SVG element; {@code id} must be unique in the document (its clip paths' ids derive). */
    static String svg(JFreeChart chart, String id, int width, int height) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        // A tenth of a pixel is finer than any screen shows; the default full precision triples the file size.
        g.setGeomDoubleConverter(d -> String.format(Locale.ROOT, "%.1f", d));
        g.setDefsKeyPrefix(id + "_");   // the clip-path ids of all charts share one HTML document
        chart.draw(g, new Rectangle(0, 0, width, height));
        return g.getSVGElement("chart-" + id, false, new ViewBox(0, 0, width, height), null, null);
    }

    /**
     * The longest name shown (a server, engine, mode, page, tool or scenario): PssrBench's own are a few characters,
     * and a longer one is cut before any layout, as JFreeChart wraps a chart title in time that grows with the
     * square of its length (a 10 KB server name took 18 s, 10 MB never ended).
     */
    static final int NAME = 80;
    /** The longest free text shown in a table cell (a note, a stress figure or rule): a few lines of a page. */
    static final int TEXT = 1_000;

    /** A name as the report shows it: cut to {@link #NAME} characters, an ellipsis ending what was cut. */
    static String name(String text) {
        return cut(text, NAME);
    }

    /** Free text as the report shows it: cut to {@link #TEXT} characters, an ellipsis ending what was cut. */
    static String text(String text) {
        return cut(text, TEXT);
    }

    private static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 2)) ? max - 2 : max - 1;   // never half a character
        return text.substring(0, end) + "\u2026";
    }

    /** Text for HTML: the five characters that could end an element or an attribute, escaped. */
    static String esc(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
