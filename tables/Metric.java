package tables;

import java.util.Arrays;
import java.util.List;

import static tables.Metric.Better.*;
import static tables.Metric.Kind.*;
import static tables.Metric.Over.*;
import static tables.Metric.Type.*;

/**
 * The one list of what a {@link Row} holds, in the order of summary.csv's columns: everything else is derived from
 * it (the row's storage, the CSV and JSON columns, the repetitions' summary, {@code compare}'s metrics, the report's
 * table and the docs check). A new metric is one line here plus its measurement.
 *
 * <p>Per metric: its column (unit-suffixed), its type as the files write it, its kind, how a summary row aggregates
 * it over the repetitions, which direction is better, whether a summary row carries an interval for its median (the
 * figures a reader compares: {@code compare}'s metrics and the report's whiskers), and whether the report's table of
 * points shows it among the figures (the rest is in the CSV; the server, page and protocol are the section's
 * heading; valid and note close every table as its verdict), and, for the figures bench's terminal table shows at
 * the end of a sweep, their heading and width there (its point's names before them and its verdict after them are
 * the table's own).
 */
public enum Metric {
    TOOL("tool", TEXT, IDENTITY, SAME, NONE, false, true),
    SERVER("server", TEXT, IDENTITY, SAME, NONE, false, false),
    ENGINE("engine", TEXT, IDENTITY, SAME, NONE, false, true),
    MODE("mode", TEXT, IDENTITY, SAME, NONE, false, true),
    PAGE("page", TEXT, IDENTITY, SAME, NONE, false, false),
    MODEL("model", TEXT, IDENTITY, SAME, NONE, false, true),
    CONNECTIONS("connections", INT, IDENTITY, SAME, NONE, false, true),
    RATE("rate", WHOLE, IDENTITY, SAME, NONE, false, true),
    PROTOCOL("protocol", TEXT, IDENTITY, SAME, NONE, false, false),
    STREAMS("streams", INT, IDENTITY, SAME, NONE, false, false),
    THREADS("threads", INT, IDENTITY, SAME, NONE, false, true),
    DURATION_S("duration_s", DECIMAL, RUN, MEDIAN, NONE, false, false),
    REQUESTS("requests", WHOLE, RUN, MEDIAN, HIGHER, false, false),
    ERRORS("errors", WHOLE, RUN, SUM, LOWER, false, false),
    VALID("valid", FLAG, RUN, ALL, NONE, false, false),
    REQ_PER_S("req_per_s", DECIMAL, Kind.RATE, MEDIAN, HIGHER, true, true, "req/s", 13),
    TTFB_P50_MS("ttfb_p50_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, true, "ttfb p50", 11),
    TTFB_P99_MS("ttfb_p99_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, false),
    FIRST_ITEM_P50_MS("first_item_p50_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, true, "item1 p50", 11),
    TTLB_P50_MS("ttlb_p50_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, true, "ttlb p50", 11),
    TTLB_P90_MS("ttlb_p90_ms", DECIMAL, LATENCY, MEDIAN, LOWER, false, false),
    TTLB_P95_MS("ttlb_p95_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, true),
    TTLB_P99_MS("ttlb_p99_ms", DECIMAL, LATENCY, MEDIAN, LOWER, true, true, "ttlb p99", 11),
    TTLB_P999_MS("ttlb_p999_ms", DECIMAL, LATENCY, MEDIAN, LOWER, false, false),
    TTLB_MAX_MS("ttlb_max_ms", DECIMAL, LATENCY, MEDIAN, LOWER, false, false),
    SOURCE_MS("source_ms", DECIMAL, LATENCY, MEDIAN, NONE, false, false),
    CHUNKS_MEAN("chunks_mean", DECIMAL, COUNT, MEDIAN, NONE, false, false),
    CPU_MS_PER_REQ("cpu_ms_per_req", DECIMAL, RESOURCE, MEDIAN, LOWER, true, true, "cpu/req", 11),
    CLIENT_CPU_MS_PER_REQ("client_cpu_ms_per_req", DECIMAL, RESOURCE, MEDIAN, LOWER, false, false),
    RSS_PEAK_MB("rss_peak_mb", DECIMAL, RESOURCE, MEDIAN, LOWER, false, true),
    RSS_MEAN_MB("rss_mean_mb", DECIMAL, RESOURCE, MEDIAN, LOWER, false, false),
    HEAP_MB("heap_mb", DECIMAL, RESOURCE, MEDIAN, LOWER, false, true),
    THREADS_PEAK("threads_peak", WHOLE, RESOURCE, MEDIAN, LOWER, false, false),
    VTHREADS_PEAK("vthreads_peak", WHOLE, RESOURCE, MEDIAN, LOWER, false, false),
    GC_COUNT("gc_count", WHOLE, RESOURCE, MEDIAN, LOWER, false, false),
    GC_MS("gc_ms", WHOLE, RESOURCE, MEDIAN, LOWER, false, true),
    LISTEN_DROPS("listen_drops", WHOLE, COUNT, MAX, LOWER, false, true),
    CEILING_FRACTION("ceiling_fraction", DECIMAL, DERIVED, EMPTY, HIGHER, false, true, "ceiling", 7),
    SCALES_TO("scales_to", INT, DERIVED, EMPTY, HIGHER, false, false),
    REPETITION("repetition", INT, Kind.REPETITION, EMPTY, NONE, false, false),
    WINDOW("window", INT, Kind.REPETITION, EMPTY, NONE, false, false),
    WINDOWS("windows", INT, DERIVED, EMPTY, NONE, false, false),
    CV_JVM_PCT("cv_jvm_pct", DECIMAL, DERIVED, EMPTY, NONE, false, false),
    CV_WINDOW_PCT("cv_window_pct", DECIMAL, DERIVED, EMPTY, NONE, false, false),
    WARMUP_S("warmup_s", DECIMAL, CONDITION, MEDIAN, NONE, false, false),
    FOREIGN_CPU("foreign_cpu", DECIMAL, CONDITION, MAX, LOWER, false, false),
    STEAL_PCT("steal_pct", DECIMAL, CONDITION, MAX, LOWER, false, false),
    DISTURBED("disturbed", FLAG, CONDITION, ANY, NONE, false, false),
    NOTE("note", TEXT, Kind.NOTE, NOTES, NONE, false, false);

    /** How a value is held and written: text, a whole number within an int or a long, three decimals, a flag. */
    public enum Type { TEXT, INT, WHOLE, DECIMAL, FLAG }

    /**
     * What a metric is: part of the point's identity, the run's totals, a rate, a latency, a count, a resource, a
     * figure computed from other rows, the repetition's number, the conditions of the window, the note.
     */
    public enum Kind { IDENTITY, RUN, RATE, LATENCY, COUNT, RESOURCE, DERIVED, REPETITION, CONDITION, NOTE }

    /**
     * How a summary row aggregates its repetitions: the same in all (the identity), the median (rounded for whole
     * numbers), the sum, the maximum, whether all or any are true (null when none is known), empty in the summary,
     * the distinct notes joined.
     */
    public enum Over { SAME, MEDIAN, SUM, MAX, ALL, ANY, EMPTY, NOTES }

    /** Which direction of a change is better; NONE where neither is (a name, a setting, a condition). */
    public enum Better { HIGHER, LOWER, NONE }

    private final String column;
    private final Type type;
    private final Kind kind;
    private final Over over;
    private final Better better;
    private final boolean interval;
    private final boolean table;
    private final String terminal;
    private final int width;

    Metric(String column, Type type, Kind kind, Over over, Better better, boolean interval, boolean table) {
        this(column, type, kind, over, better, interval, table, null, 0);
    }

    Metric(String column, Type type, Kind kind, Over over, Better better, boolean interval, boolean table,
           String terminal, int width) {
        this.column = column;
        this.type = type;
        this.kind = kind;
        this.over = over;
        this.better = better;
        this.interval = interval;
        this.table = table;
        this.terminal = terminal;
        this.width = width;
    }

    /** The metrics a summary row carries an interval for, in their order: what compare compares by default. */
    public static final List<Metric> INTERVALS = Arrays.stream(values()).filter(Metric::interval).toList();

    /** The metrics every row must have: the point's names and connections, its requests and validity. */
    public boolean required() {
        return switch (this) {
            case TOOL, SERVER, ENGINE, MODE, PAGE, MODEL, CONNECTIONS, REQUESTS, VALID -> true;
            default -> false;
        };
    }

    /** The metric of a column, or null. */
    public static Metric of(String column) {
        for (Metric m : values()) {
            if (m.column.equals(column)) {
                return m;
            }
        }
        return null;
    }

    public String column() {
        return column;
    }

    public Type type() {
        return type;
    }

    public Kind kind() {
        return kind;
    }

    public Over over() {
        return over;
    }

    public Better better() {
        return better;
    }

    public boolean interval() {
        return interval;
    }

    /** Whether the report's table of points shows it. */
    public boolean table() {
        return table;
    }

    /** Its heading in bench's terminal table, or null where that table does not show it. */
    public String terminal() {
        return terminal;
    }

    /** The width of its column in bench's terminal table, right-aligned (wide enough for a median ± its interval). */
    public int width() {
        return width;
    }

    /** Whether its values are numbers. */
    public boolean numeric() {
        return type == INT || type == WHOLE || type == DECIMAL;
    }
}
