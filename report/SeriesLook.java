package report;

import org.jfree.chart.plot.DefaultDrawingSupplier;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Line2D;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How each series of the bench charts looks, the same in every chart of one report so that a reader learns it once:
 * each combination (engine and mode, and the tool when it is not PssrBench's own) its own colour, the baselines in
 * greys, and each mode its own line style and marker shape, so that two modes of one engine, or two baselines, never
 * look alike, and a mode reads the same without colour.
 */
final class SeriesLook {

    /**
     * The combinations' colours in the order the report meets them: Okabe-Ito's six that read on white, told apart
     * by colour-blind readers and in print, then six of Paul Tol's (muted scheme) as distinct from those; none is the
     * red of the disturbed rings ({@link Whiskers#RING}) or of the data source floor, nor a grey.
     */
    static final List<Color> PALETTE = List.of(new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
            new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x882255), new Color(0x117733),
            new Color(0x332288), new Color(0x999933), new Color(0x44AA99), new Color(0x661100));
    /** The baselines' colours: a dark grey, a light one, two between, apart from every colour above. */
    static final List<Color> GREYS = List.of(new Color(0x333333), new Color(0xA0A0A0), new Color(0x6A6A6A),
            new Color(0xC4C4C4));
    /** The line width of PssrBench's own series; another tool's (wrk) is thinner, its label says which. */
    private static final float WIDTH = 2f;
    private static final float OTHER_TOOL_WIDTH = 1.2f;
    /** Per mode, in the order the sweep met them: solid, dashed, dotted, dash-dot, long dashes. */
    private static final List<float[]> DASHES = List.of(new float[0], new float[] {7f, 4f}, new float[] {2f, 3f},
            new float[] {8f, 3f, 2f, 3f}, new float[] {14f, 5f});
    /** The line of a legend's entry: long enough to show two repeats of the longest dash of a mode's line. */
    static final Line2D LEGEND_LINE = new Line2D.Double(-15, 0, 15, 0);
    private static final Shape[] SHAPES = DefaultDrawingSupplier.createStandardSeriesShapes();

    private final List<String> modes;
    /** Each combination's colour, given the first time a chart draws it. */
    private final Map<String, Color> colours = new LinkedHashMap<>();
    private int baselines;
    private int others;

    /** {@code modes}: as the sweep met them; a mode's index picks its line style and marker. */
    SeriesLook(List<String> modes) {
        this.modes = modes;
    }

    /**
     * The colour of the combination {@code key} (its engine, mode and, for another tool, the tool): the next grey for
     * a baseline, else the next colour of the palette, then hues spread around the circle when it runs out (a chart
     * with more than a dozen lines is hard to read whatever its colours, but no two of them look the same).
     */
    Color colour(String key, boolean baseline) {
        Color known = colours.get(key);
        if (known != null) {
            return known;
        }
        // A generated colour can round to one already given: take the next (a few hundred greys or hues exist, so
        // past those, after as many tries, one is given twice rather than none).
        Color colour = null;
        for (int tries = 0; colour == null || colours.containsValue(colour) && tries < 1_000; tries++) {
            colour = baseline ? next(GREYS, baselines++, 0f) : next(PALETTE, others++, 0.7f);
        }
        colours.put(key, colour);
        return colour;
    }

    private static Color next(List<Color> colours, int index, float saturation) {
        if (index < colours.size()) {
            return colours.get(index);
        }
        // Steps of the golden ratio keep each new hue (or grey's brightness) far from those before it; the first
        // step is not 0, the hue of red (the disturbed rings' and the floor's).
        float step = (float) ((index - colours.size() + 1) * 0.381966 % 1.0);
        return saturation == 0f ? Color.getHSBColor(0f, 0f, 0.15f + 0.7f * step)
                : Color.getHSBColor(step, saturation, 0.65f);
    }

    /** The combinations coloured so far and their colours. */
    Map<String, Color> colours() {
        return Map.copyOf(colours);
    }

    /** The line of a mode's series, thinner for another tool's. */
    Stroke stroke(String mode, boolean otherTool) {
        float[] dash = DASHES.get(Math.max(0, modes.indexOf(mode)) % DASHES.size());
        float width = otherTool ? OTHER_TOOL_WIDTH : WIDTH;
        return dash.length == 0 ? new BasicStroke(width, BasicStroke.CAP_SQUARE, BasicStroke.JOIN_ROUND)
                : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, dash, 0f);
    }

    /** The marker of a mode's points. */
    Shape shape(String mode) {
        return SHAPES[Math.max(0, modes.indexOf(mode)) % SHAPES.length];
    }
}
