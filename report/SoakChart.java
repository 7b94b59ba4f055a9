package report;

import tables.CsvFile;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The stress soak's series ({@code soak-<combination>.csv}, one row per window: what the server held after it), drawn
 * over the soak's time: memory (heap after GC, RSS), threads and open files, and the TTLB p99 of each window; a leak is
 * a line that keeps rising.
 */
final class SoakChart {

    static final String PREFIX = "soak-";

    private SoakChart() {
    }

    /** The soak's charts, a row of three per file, or "" when {@code folder} has no soak file. */
    static String html(Path folder) throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.list(folder)) {
            files = all.filter(p -> p.getFileName().toString().startsWith(PREFIX)
                    && p.getFileName().toString().endsWith(".csv")).sorted().toList();
        }
        if (files.isEmpty()) {
            return "";
        }
        StringBuilder h = new StringBuilder("<section>\n<h3>soak over time</h3>\n<p>After each window of the soak:"
                + " the server's heap after its last GC and resident memory, its threads and open files, and the"
                + " window's TTLB p99 (from the soak-*.csv files beside stress.csv).</p>\n");
        var theme = Charts.theme();
        int k = 0;
        for (Path file : files) {
            List<CsvFile.Line> lines = CsvFile.read(file).lines();
            String name = file.getFileName().toString();
            String who = Charts.name(name.substring(PREFIX.length(), name.length() - 4));
            h.append("<p><b>").append(Charts.esc(who)).append("</b></p>\n<div class=\"charts\">");
            String[][] panels = {{"MB", "heap_after_gc_mb", "rss_mb"}, {"count", "threads", "fds"},
                    {"ms", "ttlb_p99_ms"}};
            for (String[] panel : panels) {
                XYSeriesCollection data = new XYSeriesCollection();
                for (int s = 1; s < panel.length; s++) {
                    XYSeries series = new XYSeries(panel[s]);
                    for (CsvFile.Line line : lines) {
                        double v = number(line.cells().get(panel[s]));
                        if (v >= 0) {   // -1: not read (no JMX, or before a first GC)
                            series.add(number(line.cells().get("t_s")), v);
                        }
                    }
                    data.addSeries(series);
                }
                JFreeChart chart = ChartFactory.createXYLineChart(null, "seconds", panel[0], data,
                        PlotOrientation.VERTICAL, true, false, false);
                theme.apply(chart);
                h.append("<figure>").append(Charts.svg(chart, "soak" + k++, 480, 260)).append("</figure>");
            }
            h.append("</div>\n");
        }
        return h.append("</section>\n").toString();
    }

    private static double number(String text) {
        try {
            return text == null ? -1 : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
