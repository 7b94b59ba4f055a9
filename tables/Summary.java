package tables;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import base.AtomicFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code results/<timestamp>/summary.csv} (and bench's summary.json): one {@link Row} per measured point, in fixed,
 * unit-suffixed columns shared by every load generator (a column a tool cannot measure is empty). Rows are text
 * only here, when written and read: decimals with three places, counts whole, {@code valid} as true or false.
 */
public final class Summary {

    /** A column: its name and its typed value in a row (null: empty). */
    private record Column(String name, Function<Row, Object> value) {
    }

    /**
     * Every column: a metric's each ({@link Metric}, in its order), with the spread of a summary row (n, the level
     * and kind of its intervals, each interval metric's bounds) before the window's conditions.
     */
    private static final List<Column> ALL = columns();

    public static final List<String> COLUMNS = ALL.stream().map(Column::name).toList();

    private static List<Column> columns() {
        List<Column> all = new ArrayList<>();
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.CONDITION && all.stream().noneMatch(c -> c.name().equals("n"))) {
                all.add(new Column("n", r -> r.spread() == null ? null : r.spread().n()));
                all.add(new Column("ci_level_pct", r -> r.spread() == null ? null : r.spread().levelPct()));
                all.add(new Column("ci_kind", r -> r.spread() == null ? null : r.spread().range() ? "range"
                        : "interval"));
                for (Metric i : Metric.INTERVALS) {
                    all.add(new Column(i.column() + "_lo", r -> r.spread() == null ? null
                            : r.spread().lo().get(i.column())));
                    all.add(new Column(i.column() + "_hi", r -> r.spread() == null ? null
                            : r.spread().hi().get(i.column())));
                }
            }
            all.add(new Column(m.column(), r -> r.get(m)));
        }
        return List.copyOf(all);
    }

    private Summary() {
    }

    /** How a decimal is written: three places, whatever the locale ({@link Row#decimal}). */
    static String decimal(double value) {
        return Row.decimal(value);
    }

    private static Column column(String name) {
        for (Column c : ALL) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    /** A cell as written: "" for what was not measured. */
    public static String text(Row row, String column) {
        Object value = column(column).value().apply(row);
        return value == null ? "" : value instanceof Double d ? decimal(d) : value.toString();
    }

    /** A numeric cell's value; NaN when it is empty or the column is not a number. */
    public static double number(Row row, String column) {
        return column(column).value().apply(row) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    public static String header() {
        return String.join(",", COLUMNS);
    }

    /** The row as CSV ({@link CsvWriter}'s quoting), without the line break. */
    public static String csv(Row row) {
        String line = CsvWriter.line(cells(row));
        return line.substring(0, line.length() - 1);
    }

    private static List<String> cells(Row row) {
        return COLUMNS.stream().map(c -> text(row, c)).toList();
    }

    /** The rows of a summary.csv or runs.csv (its header must be {@link #COLUMNS}). */
    public static List<Row> read(Path file) throws IOException {
        CsvFile csv = CsvFile.read(file);
        if (!csv.lines().isEmpty() && !csv.header().equals(COLUMNS)) {
            throw new IOException(file + " has other columns than this version of PssrBench writes");
        }
        List<Row> rows = new ArrayList<>();
        for (CsvFile.Line line : csv.lines()) {
            rows.add(row(line));
        }
        return rows;
    }

    /** Appends the row to {@code file}, writing the header first when the file is new or empty. */
    public static void append(Path file, Row row) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        if (!fresh) {
            String first = Files.readAllLines(file, StandardCharsets.UTF_8).get(0);
            if (!first.equals(header())) {
                throw new IOException(file + " has other columns than this version of PssrBench writes");
            }
        }
        AtomicFile.append(file, (fresh ? header() + "\n" : "") + CsvWriter.line(cells(row)));
    }

    /**
     * Replaces {@code file} with these rows: whole, or not at all (a temporary file, then an atomic move).
     */
    public static void write(Path file, List<Row> rows) throws IOException {
        AtomicFile.write(file, CsvWriter.text(COLUMNS, rows.stream().map(Summary::cells).toList()));
    }

    /** Writes every row to {@code file} as JSON: a list of objects, each column's text as in the CSV. */
    public static void writeJson(Path file, List<Row> rows) throws IOException {
        List<Map<String, String>> json = new ArrayList<>();
        for (Row r : rows) {
            Map<String, String> m = new LinkedHashMap<>();
            COLUMNS.forEach(col -> m.put(col, text(r, col)));
            json.add(m);
        }
        AtomicFile.write(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
    }

    /** A row from its cells, each read as its metric's type ({@link CsvFile.Line} refuses a cell in a sentence). */
    private static Row row(CsvFile.Line c) throws IOException {
        Map<Metric, Object> values = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            String col = m.column();
            Object value = switch (m.type()) {
                case TEXT -> c.text(col);
                case INT -> c.countOrNull(col);
                case WHOLE -> c.whole(col);
                case DECIMAL -> c.decimal(col);
                case FLAG -> c.flagOrNull(col);
            };
            if (value == null && m.required()) {
                throw c.refused(col, m.type() == Metric.Type.FLAG ? "true or false" : "a whole number");
            }
            values.put(m, value);
        }
        if (values.get(Metric.STREAMS) instanceof Integer n && n < 1) {
            throw c.refused("streams", "a whole number of at least 1");
        }
        if (values.get(Metric.THREADS) instanceof Integer n && n < 1) {
            throw c.refused("threads", "empty or a whole number of at least 1");
        }
        return Row.of(values, spread(c));
    }

    /** A summary row's spread from its cells: null where n is empty (a run's row, another tool's). */
    private static Row.Spread spread(CsvFile.Line c) throws IOException {
        Integer n = c.countOrNull("n");
        if (n == null) {
            return null;
        }
        Map<String, Double> lo = new LinkedHashMap<>();
        Map<String, Double> hi = new LinkedHashMap<>();
        for (String metric : Row.INTERVAL_METRICS) {
            Double l = c.decimal(metric + "_lo");
            Double h = c.decimal(metric + "_hi");
            if (l != null && h != null) {
                lo.put(metric, l);
                hi.put(metric, h);
            }
        }
        Double level = c.decimal("ci_level_pct");
        String kind = c.text("ci_kind");
        if (!kind.equals("range") && !kind.equals("interval")) {
            throw c.refused("ci_kind", "range or interval");
        }
        return new Row.Spread(n, level == null ? 0 : level, kind.equals("range"), lo, hi);
    }
}
