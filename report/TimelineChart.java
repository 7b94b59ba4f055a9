package report;

import importers.JfrTimeline;
import tables.TimelineCsv;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timeline part of report.html (the published study's Figures 8 to 11, which VisualVM drew for one JVM through
 * a ramp of users): for each server JVM of {@code timeline.csv}, its CPU, heap, GC pauses and threads second by
 * second on one time axis, each measured window shaded and labelled with its connection count, a gap where bench
 * settled between two windows (nothing was recorded there).
 */
final class TimelineChart {

    /** At most this many JVMs drawn (a sweep of many combinations has one per combination and repetition). */
    static final int MOST_JVMS = 8;
    private static final int WIDTH = 900;
    private static final int PANEL = 130;
    private static final Color SHADE = new Color(0x1f77b4);

    /** A panel: its axis label, its metrics (a legend name and a colour each), whether drawn as bars. */
    private record Panel(String axis, Map<String, Look> metrics, boolean bars) {
    }

    private record Look(String name, Color colour) {
    }

    private static final Color BLUE = new Color(0x1f77b4);
    private static final Color ORANGE = new Color(0xff7f0e);
    private static final Color GREEN = new Color(0x2ca02c);
    private static final Color RED = new Color(0xd62728);
    private static final Color GREY = new Color(0x7f7f7f);

    private static final List<Panel> PANELS = List.of(
            new Panel("CPU %", looks("cpu_process_pct", "server JVM", BLUE, "cpu_machine_pct", "machine", GREY),
                    false),
            new Panel("heap MB", looks("heap_used_after_gc_mb", "used after GC", GREEN, "heap_committed_mb",
                    "committed", ORANGE), false),
            new Panel("GC pause ms/s", looks("gc_pause_ms", "GC pauses", RED), true),
            new Panel("threads", looks("threads_live", "live platform threads", BLUE), false),
            new Panel("virtual/s", looks("virtual_threads_started", "virtual started", GREEN,
                    "virtual_threads_ended", "virtual ended", ORANGE, "virtual_threads_pinned",
                    "pinned \u2265 20 ms", RED), false));
    /** The CPU panel's top: 100% and room above it for the windows' labels. */
    private static final double CPU_TOP = 118;

    private TimelineChart() {
    }

    private static Map<String, Look> looks(Object... triples) {
        Map<String, Look> m = new LinkedHashMap<>();
        for (int i = 0; i < triples.length; i += 3) {
            m.put((String) triples[i], new Look((String) triples[i + 1], (Color) triples[i + 2]));
        }
        return m;
    }

    /**
     * The section of a results folder: its {@code timeline.csv}, written first from its {@code jfr/} recordings
     * ({@link JfrTimeline}) where one of them is newer than the file (a sweep or a --resume that recorded since);
     * empty with neither. The file, not the recordings, is what is drawn: a folder archived without its (large)
     * recordings still has its timeline.
     */
    static String section(Path folder, StandardChartTheme theme) {
        try {
            Path csv = folder.resolve(TimelineCsv.FILE);
            Path jfr = folder.resolve("jfr");
            if (Files.isDirectory(jfr) && newest(jfr).compareTo(Files.isRegularFile(csv)
                    ? Files.getLastModifiedTime(csv) : FileTime.fromMillis(Long.MIN_VALUE)) > 0) {
                List<TimelineCsv.Line> lines = JfrTimeline.read(jfr);
                if (!lines.isEmpty()) {
                    TimelineCsv.write(folder, lines);
                }
            }
            return Files.isRegularFile(csv) ? section(TimelineCsv.read(csv), theme) : "";
        } catch (IOException e) {
            return "<h2 id=\"timeline\">Timeline</h2>\n<p>The timeline could not be read: "
                    + Charts.esc(Charts.text(String.valueOf(e.getMessage()))) + "</p>\n";
        }
    }

    /** The time the newest recording in {@code jfr} was written; the earliest time there is without one. */
    private static FileTime newest(Path jfr) throws IOException {
        FileTime newest = FileTime.fromMillis(Long.MIN_VALUE);
        try (var files = Files.list(jfr)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".jfr")).toList()) {
                FileTime t = Files.getLastModifiedTime(f);
                newest = t.compareTo(newest) > 0 ? t : newest;
            }
        }
        return newest;
    }

    /** The section: a figure per JVM (the first {@link #MOST_JVMS}); empty for a file without lines. */
    static String section(List<TimelineCsv.Line> lines, StandardChartTheme theme) {
        Map<String, List<TimelineCsv.Line>> jvms = new LinkedHashMap<>();
        lines.forEach(l -> jvms.computeIfAbsent(l.jvm(), k -> new ArrayList<>()).add(l));
        if (jvms.isEmpty()) {
            return "";
        }
        StringBuilder h = new StringBuilder("<h2 id=\"timeline\">Timeline</h2>\n<p class=\"method\">Each server JVM"
                + " second by second while bench measured it, from the JFR recordings bench <code>--jfr</code> kept"
                + " (<a href=\"jfr/\">jfr/</a>, one per measured window) through <a href=\"" + TimelineCsv.FILE
                + "\">" + TimelineCsv.FILE + "</a>: its CPU and the machine's, its heap used after each collection"
                + " and committed, its GC pauses (their sum in each second), its live platform threads, and the"
                + " virtual threads it started and ended (where the recording has them) and pinned for 20 ms or more."
                + " Each window is shaded and labelled with its connection count; between two windows bench settled"
                + " (or warmed up) and nothing was recorded.</p>\n");
        int drawn = 0;
        for (Map.Entry<String, List<TimelineCsv.Line>> jvm : jvms.entrySet()) {
            if (drawn == MOST_JVMS) {
                h.append("<p>").append(jvms.size() - MOST_JVMS).append(" more JVMs in ").append(TimelineCsv.FILE)
                        .append(", not drawn.</p>\n");
                break;
            }
            h.append("<figure class=\"wide\">").append(chart(jvm.getKey(), jvm.getValue(), theme, ++drawn))
                    .append("</figure>\n");
        }
        return h.toString();
    }

    /** One JVM's figure: its panels one above the other on one time axis. */
    static String chart(String jvm, List<TimelineCsv.Line> lines, StandardChartTheme theme, int n) {
        NumberAxis time = new NumberAxis("seconds since the JVM's first measured window began");
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
        plot.setGap(6);
        int panels = 0;
        List<List<Color>> paints = new ArrayList<>();
        for (Panel p : PANELS) {
            XYSeriesCollection data = new XYSeriesCollection();
            List<Color> colours = new ArrayList<>();
            for (Map.Entry<String, Look> m : p.metrics().entrySet()) {
                XYSeries s = series(m.getKey(), m.getValue().name(), lines);
                if (s != null) {
                    data.addSeries(s);
                    colours.add(m.getValue().colour());
                }
            }
            if (data.getSeriesCount() == 0) {
                continue;   // a recording without the virtual threads' events: no empty panel
            }
            NumberAxis axis = new NumberAxis(p.axis());
            axis.setAutoRangeIncludesZero(true);
            boolean cpu = panels == 0 && p == PANELS.get(0);
            if (cpu) {
                axis.setRange(0, CPU_TOP);
            }
            // Lines and points: a level sampled once a second (heap after GC only in a second with a collection).
            XYItemRenderer renderer = p.bars() ? bars() : new XYLineAndShapeRenderer(true, true);
            XYPlot sub = new XYPlot(data, null, axis, renderer);
            windows(sub, lines, cpu);
            plot.add(sub);
            paints.add(colours);
            panels++;
        }
        JFreeChart chart = new JFreeChart(Charts.name(jvm), plot);
        theme.apply(chart);   // before the series' own colours and shapes, which the theme would reset
        for (int i = 0; i < panels; i++) {
            XYPlot sub = (XYPlot) plot.getSubplots().get(i);
            XYItemRenderer r = sub.getRenderer();
            for (int k = 0; k < sub.getDataset().getSeriesCount(); k++) {
                r.setSeriesPaint(k, paints.get(i).get(k));
                r.setSeriesStroke(k, new BasicStroke(1.5f));
                r.setSeriesShape(k, new Ellipse2D.Double(-2, -2, 4, 4));
            }
        }
        return Charts.svg(chart, "timeline" + n, WIDTH, 110 + PANEL * panels);
    }

    /** A metric's series, broken (a NaN) after each window so that no line crosses a gap; null where none. */
    private static XYSeries series(String metric, String name, List<TimelineCsv.Line> lines) {
        XYSeries s = new XYSeries(name, false, true);
        String point = null;
        boolean any = false;
        for (TimelineCsv.Line l : lines) {
            if (!l.metric().equals(metric)) {
                continue;
            }
            if (point != null && !point.equals(l.point())) {
                s.add(l.second() - 0.5, null);
            }
            point = l.point();
            s.add(l.second(), l.value());
            any = true;
        }
        return any ? s : null;
    }

    private static XYBarRenderer bars() {
        XYBarRenderer r = new XYBarRenderer(0.2);
        r.setShadowVisible(false);
        r.setDrawBarOutline(false);
        return r;
    }

    /**
     * Each window of the JVM shaded, every other one lighter; on the CPU panel, its connection count above it (an
     * annotation: a marker's own label is drawn as faint as its shade).
     */
    private static void windows(XYPlot sub, List<TimelineCsv.Line> lines, boolean labelled) {
        Map<String, double[]> spans = new LinkedHashMap<>();
        for (TimelineCsv.Line l : lines) {
            if (l.metric().equals(TimelineCsv.WINDOW_START)) {
                spans.put(l.point(), new double[] {l.second(), l.second(), l.value()});
            } else if (l.metric().equals(TimelineCsv.WINDOW_END) && spans.containsKey(l.point())) {
                spans.get(l.point())[1] = l.second();
            }
        }
        int i = 0;
        for (double[] w : spans.values()) {
            IntervalMarker m = new IntervalMarker(w[0], w[1]);
            m.setPaint(SHADE);
            m.setAlpha(i++ % 2 == 0 ? 0.14f : 0.07f);
            sub.addDomainMarker(m, Layer.BACKGROUND);
            if (labelled && !Double.isNaN(w[2])) {
                XYTextAnnotation label = new XYTextAnnotation("c" + (long) w[2], (w[0] + w[1]) / 2, CPU_TOP - 2);
                label.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                label.setTextAnchor(TextAnchor.TOP_CENTER);
                sub.addAnnotation(label);
            }
        }
    }
}
