package records;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import core.AtomicFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    private static final List<Column> TABLE = List.of(
            new Column("tool", Row::tool), new Column("server", Row::server), new Column("engine", Row::engine),
            new Column("mode", Row::mode), new Column("page", Row::page), new Column("model", Row::model),
            new Column("connections", Row::connections), new Column("rate", Row::rate),
            new Column("protocol", Row::protocol), new Column("streams", Row::streams),
            new Column("duration_s", Row::durationS), new Column("requests", Row::requests),
            new Column("errors", Row::errors), new Column("valid", Row::valid), new Column("req_per_s", Row::reqPerS),
            new Column("ttfb_p50_ms", Row::ttfbP50Ms), new Column("ttfb_p99_ms", Row::ttfbP99Ms),
            new Column("first_item_p50_ms", Row::firstItemP50Ms), new Column("ttlb_p50_ms", Row::ttlbP50Ms),
            new Column("ttlb_p90_ms", Row::ttlbP90Ms), new Column("ttlb_p99_ms", Row::ttlbP99Ms),
            new Column("ttlb_p999_ms", Row::ttlbP999Ms), new Column("ttlb_max_ms", Row::ttlbMaxMs),
            new Column("source_ms", Row::sourceMs), new Column("chunks_mean", Row::chunksMean),
            new Column("cpu_ms_per_req", Row::cpuMsPerReq), new Column("client_cpu_ms_per_req", Row::clientCpuMsPerReq),
            new Column("rss_peak_mb", Row::rssPeakMb), new Column("rss_mean_mb", Row::rssMeanMb),
            new Column("heap_mb", Row::heapMb), new Column("threads_peak", Row::threadsPeak),
            new Column("vthreads_peak", Row::vthreadsPeak), new Column("gc_count", Row::gcCount),
            new Column("gc_ms", Row::gcMs), new Column("listen_drops", Row::listenDrops),
            new Column("ceiling_fraction", Row::ceilingFraction), new Column("repetition", Row::repetition),
            new Column("n", r -> r.spread() == null ? null : r.spread().n()),
            new Column("ci_level_pct", r -> r.spread() == null ? null : r.spread().levelPct()),
            new Column("ci_kind", r -> r.spread() == null ? null : r.spread().range() ? "range" : "interval"));

    /** Every column: {@link #TABLE}, each interval metric's bounds, the run's conditions, and the note last. */
    private static final List<Column> ALL = columns();

    public static final List<String> COLUMNS = ALL.stream().map(Column::name).toList();

    /** The columns that repetitions added: the spread, the bounds and the conditions. */
    private static final List<String> SINCE_REPETITIONS = COLUMNS.subList(COLUMNS.indexOf("repetition"),
            COLUMNS.indexOf("note"));

    /** The columns that protocols added: a row without them is HTTP/1.1 with one request per connection. */
    private static final List<String> SINCE_PROTOCOLS = List.of("protocol", "streams");

    /**
     * The headers of earlier versions that this one still reads (a column it adds is empty in their rows), so that
     * a results folder written before can be resumed, reported and appended to: before protocols, before
     * repetitions, and before listen_drops.
     */
    private static final List<List<String>> EARLIER = List.of(
            COLUMNS.stream().filter(c -> !SINCE_PROTOCOLS.contains(c)).toList(),
            COLUMNS.stream().filter(c -> !SINCE_PROTOCOLS.contains(c) && !SINCE_REPETITIONS.contains(c)).toList(),
            COLUMNS.stream().filter(c -> !SINCE_PROTOCOLS.contains(c) && !SINCE_REPETITIONS.contains(c)
                    && !c.equals("listen_drops")).toList());

    private static List<Column> columns() {
        List<Column> all = new ArrayList<>(TABLE);
        for (String metric : Row.INTERVAL_METRICS) {
            all.add(new Column(metric + "_lo", r -> r.spread() == null ? null : r.spread().lo().get(metric)));
            all.add(new Column(metric + "_hi", r -> r.spread() == null ? null : r.spread().hi().get(metric)));
        }
        all.add(new Column("warmup_s", Row::warmupS));
        all.add(new Column("foreign_cpu", Row::foreignCpu));
        all.add(new Column("steal_pct", Row::stealPct));
        all.add(new Column("disturbed", Row::disturbed));
        all.add(new Column("note", Row::note));
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

    /** The row as CSV (RFC 4180 quoting where needed), without the line break. */
    public static String csv(Row row) {
        List<String> cells = new ArrayList<>();
        for (String column : COLUMNS) {
            String v = text(row, column);
            cells.add(v.contains(",") || v.contains("\"") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\""
                    : v);
        }
        return String.join(",", cells);
    }

    /**
     * The rows of a summary.csv written by this version or an earlier one (its header must be {@link #COLUMNS} or
     * one of {@link #EARLIER}).
     */
    public static List<Row> read(Path file) throws IOException {
        CsvFile csv = CsvFile.read(file);
        if (!csv.lines().isEmpty() && !readable(csv.header())) {
            throw new IOException(file + " has other columns than this version of PssrBench writes");
        }
        List<Row> rows = new ArrayList<>();
        for (CsvFile.Line line : csv.lines()) {
            rows.add(row(line));
        }
        return rows;
    }

    private static boolean readable(List<String> header) {
        return header.equals(COLUMNS) || EARLIER.contains(header);
    }

    /**
     * Appends the row to {@code file}, writing the header first when the file is new or empty. A file of an earlier
     * version is first rewritten in this version's columns (its rows unchanged, the new columns empty), so that
     * every line of a file has the same columns.
     */
    public static void append(Path file, Row row) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        if (!fresh) {
            String first = Files.readAllLines(file, StandardCharsets.UTF_8).get(0);
            if (EARLIER.stream().anyMatch(h -> first.equals(String.join(",", h)))) {
                write(file, read(file));
            } else if (!first.equals(header())) {
                throw new IOException(file + " has other columns than this version of PssrBench writes");
            }
        }
        AtomicFile.append(file, (fresh ? header() + "\n" : "") + csv(row) + "\n");
    }

    /**
     * Replaces {@code file} with these rows in this version's columns: whole, or not at all (a temporary file, then
     * an atomic move).
     */
    public static void write(Path file, List<Row> rows) throws IOException {
        StringBuilder text = new StringBuilder(header()).append('\n');
        rows.forEach(r -> text.append(csv(r)).append('\n'));
        AtomicFile.write(file, text);
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

    /** A row from its cells, each read as its column's type ({@link CsvFile.Line} refuses a cell in a sentence). */
    private static Row row(CsvFile.Line c) throws IOException {
        return new Row(c.text("tool"), c.text("server"), c.text("engine"), c.text("mode"), c.text("page"),
                c.text("model"), c.count("connections"), c.whole("rate"),
                c.decimal("duration_s"), required(c, "requests"), c.whole("errors"), c.flag("valid"),
                c.decimal("req_per_s"), c.decimal("ttfb_p50_ms"), c.decimal("ttfb_p99_ms"),
                c.decimal("first_item_p50_ms"), c.decimal("ttlb_p50_ms"), c.decimal("ttlb_p90_ms"),
                c.decimal("ttlb_p99_ms"), c.decimal("ttlb_p999_ms"), c.decimal("ttlb_max_ms"), c.decimal("source_ms"),
                c.decimal("chunks_mean"), c.decimal("cpu_ms_per_req"), c.decimal("client_cpu_ms_per_req"),
                c.decimal("rss_peak_mb"), c.decimal("rss_mean_mb"), c.decimal("heap_mb"),
                c.whole("threads_peak"), c.whole("vthreads_peak"), c.whole("gc_count"),
                c.whole("gc_ms"), c.whole("listen_drops"), c.decimal("ceiling_fraction"), c.text("note"),
                c.countOrNull("repetition"), c.decimal("warmup_s"), c.decimal("foreign_cpu"), c.decimal("steal_pct"),
                c.flagOrNull("disturbed"), spread(c), c.text("protocol"), streams(c));
    }

    /** The streams per connection; 1 where the column is empty (a row written before protocols). */
    private static int streams(CsvFile.Line c) throws IOException {
        Integer n = c.countOrNull("streams");
        if (n != null && n < 1) {
            throw c.refused("streams", "a whole number of at least 1");
        }
        return n == null ? 1 : n;
    }

    private static long required(CsvFile.Line c, String column) throws IOException {
        Long value = c.whole(column);
        if (value == null) {
            throw c.refused(column, "a whole number");
        }
        return value;
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
