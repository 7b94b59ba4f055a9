package report;

import importers.JfrTimeline;
import tables.TimelineCsv;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
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

    /** A panel: its axis label, its metrics and their legend names, whether drawn as bars (a sum per second). */
    private record Panel(String axis, Map<String, String> metrics, boolean bars) {
    }

    private static final List<Panel> PANELS = List.of(
            new Panel("CPU %", names("cpu_process_pct", "server JVM", "cpu_machine_pct", "machine"), false),
            new Panel("heap MB", names("heap_used_after_gc_mb", "used after GC", "heap_committed_mb", "committed"),
                    false),
            new Panel("GC pause ms/s", names("gc_pause_ms", "GC pauses"), true),
            new Panel("threads", names("threads_live", "live platform threads"), false),
            new Panel("virtual/s", names("virtual_threads_started", "virtual started", "virtual_threads_ended",
                    "virtual ended", "virtual_threads_pinned", "pinned \u2265 20 ms"), false));

    private TimelineChart() {
    }

    private static Map<String, String> names(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
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
        for (Panel p : PANELS) {
            XYSeriesCollection data = new XYSeriesCollection();
            for (Map.Entry<String, String> m : p.metrics().entrySet()) {
                XYSeries s = series(m.getKey(), m.getValue(), lines);
                if (s != null) {
                    data.addSeries(s);
                }
            }
            if (data.getSeriesCount() == 0) {
                continue;   // a recording without the virtual threads' events: no empty panel
            }
            NumberAxis axis = new NumberAxis(p.axis());
            axis.setAutoRangeIncludesZero(true);
            XYPlot sub = new XYPlot(data, null, axis, p.bars() ? bars() : new XYLineAndShapeRenderer(true, false));
            windows(sub, lines, panels == 0);
            plot.add(sub);
            panels++;
        }
        JFreeChart chart = new JFreeChart(Charts.name(jvm), plot);
        theme.apply(chart);
        plot.getSubplots().forEach(s -> ((XYPlot) s).getRenderer().setDefaultStroke(new BasicStroke(1.5f)));
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

    /** Each window of the JVM shaded, every other one lighter; its connection count on the top panel. */
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
            m.setAlpha(i++ % 2 == 0 ? 0.10f : 0.05f);
            if (labelled && !Double.isNaN(w[2])) {
                m.setLabel("c" + (long) w[2]);
                m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                m.setLabelAnchor(RectangleAnchor.TOP);
                m.setLabelTextAnchor(TextAnchor.TOP_CENTER);
            }
            sub.addDomainMarker(m, Layer.BACKGROUND);
        }
    }
}
