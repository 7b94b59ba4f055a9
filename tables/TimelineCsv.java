package tables;

import base.AtomicFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code timeline.csv}: what a server JVM did second by second while bench measured it (read from the JFR recordings
 * {@code bench --jfr} keeps, {@code importers.JfrTimeline}), one figure per line, so that the report's timeline is
 * drawn from data a user can plot again. Its columns: the JVM (its label), the point whose measured window the figure
 * is from (its file's name), the second since that JVM's first recorded event, the metric and its value. Two metrics
 * mark the windows themselves: {@code window_start} and {@code window_end}, at the exact second, their value the
 * point's connection count (empty when its name has none).
 */
public final class TimelineCsv {

    public static final String FILE = "timeline.csv";
    public static final List<String> COLUMNS = List.of("jvm", "point", "second", "metric", "value");
    public static final String WINDOW_START = "window_start";
    public static final String WINDOW_END = "window_end";

    /** One line: {@code value} NaN where none (a window mark of a point without a connection count). */
    public record Line(String jvm, String point, double second, String metric, double value) {
    }

    private TimelineCsv() {
    }

    /** Writes {@code folder/timeline.csv}, replacing it whole. */
    public static Path write(Path folder, List<Line> lines) throws IOException {
        List<List<String>> rows = new ArrayList<>(lines.size());
        for (Line l : lines) {
            rows.add(List.of(l.jvm(), l.point(), Row.decimal(l.second()), l.metric(),
                    Double.isNaN(l.value()) ? "" : Row.decimal(l.value())));
        }
        Path file = folder.resolve(FILE);
        AtomicFile.write(file, CsvWriter.text(COLUMNS, rows));
        return file;
    }

    /** The lines of a timeline.csv, in the file's order. */
    public static List<Line> read(Path file) throws IOException {
        CsvFile csv = CsvFile.read(file);
        if (!csv.lines().isEmpty() && !csv.header().equals(COLUMNS)) {
            throw new IOException(file + " has other columns than " + String.join(",", COLUMNS));
        }
        List<Line> lines = new ArrayList<>(csv.lines().size());
        for (CsvFile.Line c : csv.lines()) {
            Double value = c.decimal("value");
            lines.add(new Line(c.text("jvm"), c.text("point"), c.requiredDecimal("second"), c.text("metric"),
                    value == null ? Double.NaN : value));
        }
        return lines;
    }
}
