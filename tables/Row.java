package tables;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.TreeMap;

import static tables.Metric.*;

/**
 * One measured point, typed: a row of {@code summary.csv} ({@link Summary} writes and reads it), whatever the load
 * generator. It holds a value per {@link Metric} (the one list of columns) and, in a summary row, its
 * {@link Spread}; a metric a tool cannot measure is null (wrk has no time to first byte). The accessors below are
 * the ones code reads by name; any metric is {@link #get}, {@link #decimal} or {@link #whole}.
 *
 * <p>Decimals are kept at the precision the file keeps (three places), so a row read back equals the row written,
 * and what is computed from rows (the ceiling) is the same during a sweep and after a {@code --resume}. Measured
 * rows are born in one place, {@link RowBuilder}, which applies the one validity rule, {@link #invalidReason}.
 *
 * <p>Some metrics, in short: {@code model} is {@code closed} or {@code open}, from the target rate; {@code rate} is
 * the target rate (null in a closed loop); {@code listen_drops} counts the connection attempts the kernel dropped at
 * a listening socket during the point, for the whole machine (TcpExt ListenDrops; null where not known);
 * {@code ceiling_fraction} is the throughput over the raw baseline's at the same point; {@code repetition} which
 * repetition of the point a runs.csv row is (null in a summary row); {@code warmup_s} the warm-up the point had;
 * {@code foreign_cpu} the CPU the rest of the machine used during the window, in cores, and {@code steal_pct} the
 * hypervisor's steal time; {@code disturbed} whether either passed its threshold ({@link #disturbs});
 * {@code protocol} ({@code h1}, {@code h2c}, {@code h2}) and {@code streams} (per connection) are part of the point's
 * identity, and so is {@code threads}: the size of the platform pool the server ran the point's handlers or renders on
 * ({@code --threads}), null where it ran them on none (virtual threads, event loops, callbacks) or is not known.
 */
public final class Row {

    /** The protocol of a row that does not say (another tool's): HTTP/1.1. */
    public static final String H1 = "h1";

    /**
     * Foreign CPU, in cores, above which a measured window counts as disturbed: a tenth of a core. Measured on the
     * project's 2-core machine at 128 connections: quiet windows read 0.00 (the raw difference within a few
     * hundredths of 0); a shell loop beside the saturated server and load generator got 0.57 to 0.66 cores and cut
     * the throughput by 13%; a neighbour's Maven build reads a core or more.
     */
    public static final double DISTURBED_FOREIGN_CPU = 0.10;
    /** Steal time, in % of all CPU time, above which a window counts as disturbed (a busy host under a VM). */
    public static final double DISTURBED_STEAL_PCT = 2.0;
    /**
     * The one rule for a disturbed measurement, whatever measured it (bench's windows, browser's loads, stress's
     * scenarios): foreign CPU or steal above its threshold. NaN (not known) passes neither.
     */
    public static boolean disturbs(double foreignCores, double stealPct) {
        return foreignCores > DISTURBED_FOREIGN_CPU || stealPct > DISTURBED_STEAL_PCT;
    }

    /** How many windows bench measures a repetition in at most while they come out disturbed (the first included). */
    public static final int DISTURBED_ATTEMPTS = 3;

    /** The metrics a summary row carries an interval for, by column name ({@link Metric#interval}). */
    public static final List<String> INTERVAL_METRICS = Metric.INTERVALS.stream().map(Metric::column).toList();

    /**
     * The spread of a summary row over its repetitions: n (the repetitions it uses), the confidence its intervals
     * really have (an exact order-statistic interval for the median), whether they are only the range of the
     * repetitions (too few for 95%), and each {@link #INTERVAL_METRICS} bound (a metric missing: not measured).
     */
    public record Spread(int n, double levelPct, boolean range, Map<String, Double> lo,
                         Map<String, Double> hi) {
        public Spread {
            Double level = kept(levelPct);   // not finite: no level known, as 0 says
            levelPct = level == null ? 0 : level;
            lo = keptAll(lo);
            hi = keptAll(hi);
        }

        private static Map<String, Double> keptAll(Map<String, Double> bounds) {
            Map<String, Double> kept = new TreeMap<>();
            bounds.forEach((metric, value) -> {
                if (value != null && Double.isFinite(value)) {
                    kept.put(metric, kept(value));
                }
            });
            return Map.copyOf(kept);
        }

        /**
         * The interval for the median of {@code column} as {lo, hi}, or null where there is none: a single
         * repetition (its "interval" is its value), or no bounds for that column.
         */
        public double[] bounds(String column) {
            Double l = lo.get(column);
            Double h = hi.get(column);
            return n < 2 || l == null || h == null ? null : new double[] {l, h};
        }
    }

    public static final String OPEN = "open";
    public static final String CLOSED = "closed";

    /** The values by {@link Metric#ordinal}, each normalized by {@link #normalized}. */
    private final Object[] values;
    private final Spread spread;

    private Row(Object[] values, Spread spread) {
        this.values = new Object[Metric.values().length];
        for (Metric m : Metric.values()) {
            this.values[m.ordinal()] = normalized(m, values[m.ordinal()]);
        }
        this.spread = spread;
        if (streams() < 1) {
            throw new IllegalArgumentException("a point has at least one stream per connection, not " + streams());
        }
        if (threads() != null && threads() < 1) {
            throw new IllegalArgumentException("a platform pool has at least one thread, not " + threads());
        }
    }

    /** A row of these values (a metric missing: null) and spread (null but in a summary row). */
    public static Row of(Map<Metric, ?> values, Spread spread) {
        Object[] v = new Object[Metric.values().length];
        values.forEach((m, value) -> v[m.ordinal()] = value);
        return new Row(v, spread);
    }

    /** A value as its type holds it: a number of the metric's type, a decimal at three places; absent ones. */
    private static Object normalized(Metric m, Object value) {
        if (value == null) {
            if (m.required()) {
                throw new NullPointerException(m.column() + " is required");
            }
            return m == PROTOCOL ? H1 : m == STREAMS ? Integer.valueOf(1) : m == NOTE ? "" : null;
        }
        return switch (m.type()) {
            case TEXT -> m == PROTOCOL && value.equals("") ? H1 : (String) value;
            case INT -> ((Number) value).intValue();
            case WHOLE -> ((Number) value).longValue();
            case DECIMAL -> kept(((Number) value).doubleValue());
            case FLAG -> (Boolean) value;
        };
    }

    /** The metric's value (null: not measured). */
    public Object get(Metric m) {
        return values[m.ordinal()];
    }

    /** A decimal metric's value. */
    public Double decimal(Metric m) {
        return (Double) get(m);
    }

    /** A whole-number metric's value. */
    public Long whole(Metric m) {
        return (Long) get(m);
    }

    /** This row with one metric's value replaced. */
    public Row with(Metric m, Object value) {
        Object[] v = values.clone();
        v[m.ordinal()] = value;
        return new Row(v, spread);
    }

    /** This row with its spread replaced. */
    public Row with(Spread spread) {
        return new Row(values, spread);
    }

    public Spread spread() {
        return spread;
    }

    // The metrics that code reads by name, typed (any other: get, decimal, whole).
    public String tool() { return (String) get(TOOL); }
    public String server() { return (String) get(SERVER); }
    public String engine() { return (String) get(ENGINE); }
    public String mode() { return (String) get(MODE); }
    public String page() { return (String) get(PAGE); }
    public String model() { return (String) get(MODEL); }
    public int connections() { return (Integer) get(CONNECTIONS); }
    public Long rate() { return whole(RATE); }
    public String protocol() { return (String) get(PROTOCOL); }
    public int streams() { return (Integer) get(STREAMS); }
    public Integer threads() { return (Integer) get(THREADS); }
    public long requests() { return whole(REQUESTS); }
    public Long errors() { return whole(ERRORS); }
    public boolean valid() { return (Boolean) get(VALID); }
    public Double reqPerS() { return decimal(REQ_PER_S); }
    public Long listenDrops() { return whole(LISTEN_DROPS); }
    public Double ceilingFraction() { return decimal(CEILING_FRACTION); }
    public Integer repetition() { return (Integer) get(REPETITION); }
    public Double foreignCpu() { return decimal(FOREIGN_CPU); }
    public Double stealPct() { return decimal(STEAL_PCT); }
    public Boolean disturbed() { return (Boolean) get(DISTURBED); }
    public String note() { return (String) get(NOTE); }
    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && Arrays.equals(values, r.values) && Objects.equals(spread, r.spread);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values) * 31 + Objects.hashCode(spread);
    }
    @Override
    public String toString() {
        StringJoiner s = new StringJoiner(", ", "Row[", "]");
        for (Metric m : Metric.values()) {
            s.add(m.column() + "=" + get(m));
        }
        return s.add("spread=" + spread).toString();
    }

    /**
     * A decimal as the file keeps it; NaN (not measured) is null, and so is an infinity: no measurement is infinite,
     * it can only come from a division by zero, and the files keep numbers only ({@link CsvFile} reads one as empty).
     */
    private static Double kept(Double value) {
        return value == null || !Double.isFinite(value) ? null : Double.valueOf(decimal(value));
    }

    /**
     * The one rule for a usable point, whatever the load generator: why it must not be used, or null. A point is
     * invalid with no completed request, with any error ({@code errorDetail} says which), or, at a target rate,
     * when the achieved rate is more than 5% away from it.
     */
    public static String invalidReason(long requests, long errors, String errorDetail, double achievedRate,
                                       double targetRate) {
        if (requests == 0) {
            return "no request completed";
        }
        if (errors > 0) {
            return "errors: " + errorDetail;
        }
        if (targetRate > 0 && Math.abs(achievedRate - targetRate) > 0.05 * targetRate) {
            return String.format(Locale.ROOT, "achieved %.1f req/s, more than 5%% from the target %.0f",
                    achievedRate, targetRate);
        }
        return null;
    }

    /**
     * Valid, or invalid only for missing its target rate (some requests completed, none failed): what a run at a
     * rate no server reaches gives, the most the server got through.
     */
    public boolean validButForItsRate() {
        return valid() || invalidReason(requests(), errors() == null ? 0 : errors(), "", 0, 0) == null;
    }

    /** The whole target rate of the {@code rate} column: null in a closed loop (a target of 0). */
    public static Long wholeRate(double targetRate) {
        return targetRate > 0 ? (long) targetRate : null;
    }

    public Row withCeilingFraction(double fraction) {
        return with(CEILING_FRACTION, fraction);
    }

    /** This run's row as repetition {@code n} of its point (runs.csv). */
    public Row withRepetition(int n) {
        return with(REPETITION, n);
    }

    /** This row with its names (tool, server, engine, mode, page, model) mapped by {@code name}, its note by note. */
    public Row withText(java.util.function.UnaryOperator<String> name, java.util.function.UnaryOperator<String> note) {
        Object[] v = values.clone();
        for (Metric m : List.of(TOOL, SERVER, ENGINE, MODE, PAGE, MODEL)) {
            v[m.ordinal()] = name.apply((String) v[m.ordinal()]);
        }
        v[NOTE.ordinal()] = note.apply(note());
        return new Row(v, spread);
    }

    /**
     * Which point this row is, whatever its repetition: the rows of one point share it. The protocol, the streams
     * and the pool size are part of it: a point over h2c is never a repetition of the same point over HTTP/1.1, nor
     * one on 4 platform threads of the same point on 200.
     */
    public String pointKey() {
        return String.join("|", tool(), server(), engine(), mode(), page(), model(), String.valueOf(connections()),
                String.valueOf(rate()), protocol(), String.valueOf(streams()), String.valueOf(threads()));
    }

    /** Whether the point was measured over HTTP/1.1, one request at a time per connection (as every row before). */
    public boolean plainHttp1() {
        return protocol().equals(H1) && streams() == 1;
    }

    /** {@code h2c x8 streams} for a point over HTTP/2, {@code h1} otherwise: for labels and headings. */
    public String transport() {
        return protocol() + (streams() == 1 ? "" : " x" + streams() + " streams");
    }

    /**
     * What was measured, for messages: {@code wrk nima jstachio virtual stocks closed c16} (and the rate; the
     * protocol and streams where they are not HTTP/1.1's one; the pool size where there is one).
     */
    public String label() {
        return String.join(" ", tool(), server(), engine(), mode(), page(), model(), "c" + connections())
                + (rate() == null ? "" : " rate " + rate()) + (plainHttp1() ? "" : " " + transport())
                + (threads() == null ? "" : " threads " + threads());
    }

    /** How a decimal is written in results: three places, whatever the locale; rows keep what the file keeps. */
    public static String decimal(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f", value);
    }

    /** The tool column of the rows PssrBench's own load generator measures. */
    public static final String PSSRBENCH = "pssrbench";
    /** The server and mode of a foreign app's rows (bench --target --label): its engine column is the label. */
    public static final String FOREIGN = "foreign";
}
