package stats;

import tables.Metric;
import tables.Row;
import tables.Summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * From every repetition of every point ({@code runs.csv}, one row per measured window, kept raw) to one row per
 * point ({@code summary.csv}): the median over the repetitions of each figure, and for the figures a reader compares
 * ({@link Row#INTERVAL_METRICS}) a distribution-free interval for that median ({@link Stats#medianInterval}).
 *
 * <p>A repetition measured more than once (its window was disturbed, and bench measured it again) stands in the
 * summary by its last undisturbed attempt, or by its last attempt if every one was disturbed; the others stay in
 * runs.csv. A point is valid only when every repetition it uses is: a repetition with errors is not outvoted. A
 * repetition that such a window stands for (not valid, or disturbed) is not settled ({@link #unsettled}): bench's
 * {@code --resume} measures it again and moves its earlier windows to {@link #REPLACED_FILE}.
 */
public final class Repetitions {

    /** The raw rows: every repetition (and every attempt at one) of every point, in the order measured. */
    public static final String FILE = "runs.csv";

    /**
     * The windows of the repetitions that bench's {@code --resume} measured again (not valid, or disturbed), moved
     * from runs.csv unchanged (the same columns), so that runs.csv holds one measurement of each repetition.
     */
    public static final String REPLACED_FILE = "runs-replaced.csv";

    /** {@link #unsettled}'s reasons. */
    public static final String NOT_VALID = "not valid";
    public static final String DISTURBED = "disturbed";

    private Repetitions() {
    }

    /** The rows of a runs.csv (the same columns as summary.csv, {@code repetition} set, the spread empty). */
    public static List<Row> read(Path file) throws IOException {
        return Files.isRegularFile(file) ? Summary.read(file) : List.of();
    }

    /** One summary row per point of {@code runs}, in the order the points were first measured. */
    public static List<Row> summarize(List<Row> runs) {
        List<Row> rows = new ArrayList<>();
        windowsByPoint(runs).forEach((key, windows) -> rows.add(point(windows)));
        return rows;
    }

    /**
     * Per point (by {@link Row#pointKey}, in the order first measured), one row per repetition: each JVM's windows
     * (those {@link #used} picks) as one observation ({@link #jvm}), what summary.csv's medians and intervals and
     * compare's tests are made of, so that an interval speaks of fresh JVMs however many windows each measured.
     */
    public static Map<String, List<Row>> usedByPoint(List<Row> runs) {
        Map<String, List<Row>> byPoint = windowsByPoint(runs);
        byPoint.replaceAll((key, windows) -> jvms(windows));
        return byPoint;
    }

    /** Per point, in the order first measured, the windows that stand for its repetitions' windows ({@link #used}). */
    private static Map<String, List<Row>> windowsByPoint(List<Row> runs) {
        Map<String, List<Row>> byPoint = new LinkedHashMap<>();
        runs.forEach(r -> byPoint.computeIfAbsent(r.pointKey(), k -> new ArrayList<>()).add(r));
        byPoint.replaceAll((key, attempts) -> used(attempts));
        return byPoint;
    }

    /**
     * Per repetition and window of it, the attempt that stands for it: the last undisturbed one, else the last; in
     * the order of the repetitions, then of their windows.
     */
    public static List<Row> used(List<Row> attempts) {
        Map<Integer, Map<Integer, Row>> chosen = new TreeMap<>();
        for (Row r : attempts) {
            Map<Integer, Row> windows = chosen.computeIfAbsent(repetition(r), k -> new TreeMap<>());
            Row before = windows.get(window(r));
            if (before == null || !Boolean.TRUE.equals(r.disturbed()) || Boolean.TRUE.equals(before.disturbed())) {
                windows.put(window(r), r);
            }
        }
        return chosen.values().stream().flatMap(w -> w.values().stream()).toList();
    }

    /** One row per repetition of a point's {@code windows} ({@link #used}'s), in the order of the repetitions. */
    public static List<Row> jvms(List<Row> windows) {
        Map<Integer, List<Row>> byRep = new TreeMap<>();
        windows.forEach(r -> byRep.computeIfAbsent(repetition(r), k -> new ArrayList<>()).add(r));
        return byRep.values().stream().map(Repetitions::jvm).toList();
    }

    /**
     * A repetition (a server JVM) as one observation from its windows: the mean of each figure that a summary takes
     * the median of (the JVM is the unit: its windows only make its own figure more precise), the rest aggregated
     * as over repetitions (errors summed, the worst condition, valid only if every window is, disturbed if any).
     */
    static Row jvm(List<Row> windows) {
        if (windows.size() == 1) {
            return windows.get(0);
        }
        Map<Metric, Object> values = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            values.put(m, m == Metric.REPETITION ? windows.get(0).repetition() : m.over() == Metric.Over.EMPTY
                    ? null : over(m, windows, Stats::mean));
        }
        return Row.of(values, null);
    }

    /** The summary row of one point from the windows that stand for its repetitions' ({@link #used}'s). */
    private static Row point(List<Row> windows) {
        List<Row> used = jvms(windows);
        int n = used.size();
        for (Row r : used) {
            if (!r.valid()) {
                String why = (n == 1 ? "" : "repetition " + r.repetition() + " of " + n + ": ") + r.note();
                return invalid(r, why);
            }
        }
        Map<String, Double> lo = new LinkedHashMap<>();
        Map<String, Double> hi = new LinkedHashMap<>();
        Stats.Interval shown = null;
        for (String metric : Row.INTERVAL_METRICS) {
            double[] xs = values(used, r -> Summary.number(r, metric));
            if (xs.length > 0) {
                Stats.Interval ci = Stats.medianInterval(xs, Stats.CONFIDENCE);
                lo.put(metric, ci.lo());
                hi.put(metric, ci.hi());
                if (shown == null || xs.length == n) {
                    shown = ci;
                }
            }
        }
        Row.Spread spread = shown == null ? new Row.Spread(n, 0, true, lo, hi)
                : new Row.Spread(n, shown.level() * 100, shown.range(), lo, hi);
        long disturbed = used.stream().filter(r -> Boolean.TRUE.equals(r.disturbed())).count();
        Map<Metric, Object> values = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            values.put(m, over(m, used, Stats::median));
        }
        if (disturbed > 0) {
            List<String> notes = new ArrayList<>(List.of(String.format(Locale.ROOT, "disturbed: %d of %d repetitions"
                    + " (foreign CPU up to %.2f cores, steal up to %.1f%%)", disturbed, n, max(used, Row::foreignCpu),
                    max(used, Row::stealPct))));
            if (!values.get(Metric.NOTE).equals("")) {
                notes.add((String) values.get(Metric.NOTE));
            }
            values.put(Metric.NOTE, String.join("; ", notes));
        }
        Components c = components(windows);
        values.put(Metric.WINDOWS, windows.size());
        values.put(Metric.CV_JVM_PCT, Double.isNaN(c.jvmCvPct()) ? null : c.jvmCvPct());
        values.put(Metric.CV_WINDOW_PCT, Double.isNaN(c.windowCvPct()) ? null : c.windowCvPct());
        return Row.of(values, spread);
    }

    /** The variance components of a point's throughput over its repetitions' windows ({@link #used}'s). */
    public static Components components(List<Row> windows) {
        Map<Integer, List<Double>> byRep = new TreeMap<>();
        for (Row r : windows) {
            if (r.valid() && r.reqPerS() != null && !r.reqPerS().isNaN()) {
                byRep.computeIfAbsent(repetition(r), k -> new ArrayList<>()).add(r.reqPerS());
            }
        }
        return Components.of(byRep.values().stream().map(xs -> xs.stream().mapToDouble(Double::doubleValue)
                .toArray()).toList());
    }

    /**
     * One metric of a row made of {@code used} (a JVM of its windows, a point of its JVMs), as {@link Metric#over}
     * says, the figures a point takes the median of by {@code central}.
     */
    private static Object over(Metric m, List<Row> used, java.util.function.ToDoubleFunction<double[]> central) {
        switch (m.over()) {
            case SAME:
                return used.get(0).get(m);
            case EMPTY:
                return null;
            case ALL:
                return used.stream().allMatch(r -> Boolean.TRUE.equals(r.get(m)));
            case ANY:
                return used.stream().noneMatch(r -> r.get(m) != null) ? null
                        : (Object) used.stream().anyMatch(r -> Boolean.TRUE.equals(r.get(m)));
            case NOTES:
                return String.join("; ", used.stream().map(r -> (String) r.get(m)).filter(s -> !s.isEmpty())
                        .distinct().toList());
            default:
                break;
        }
        double[] xs = values(used, r -> r.get(m) instanceof Number x ? x.doubleValue() : null);
        if (xs.length == 0) {
            return null;
        }
        double result = switch (m.over()) {
            case MEDIAN -> central.applyAsDouble(xs);
            case SUM -> Arrays.stream(xs).sum();
            case MAX -> Arrays.stream(xs).max().orElseThrow();
            default -> throw new IllegalStateException("not a number's aggregate: " + m.over());
        };
        // A whole number's median (or sum, or maximum) is whole.
        return m.type() == Metric.Type.DECIMAL ? (Object) result : (Object) Math.round(result);
    }

    /** An invalid point's row: the failing repetition's figures, its note, no spread. */
    private static Row invalid(Row r, String note) {
        return r.with(Metric.CEILING_FRACTION, null).with(Metric.REPETITION, null).with(Metric.NOTE, note)
                .with((Row.Spread) null);
    }

    private static double[] values(List<Row> rows, Function<Row, Double> metric) {
        return rows.stream().map(metric).filter(Objects::nonNull).filter(v -> !v.isNaN())
                .mapToDouble(Double::doubleValue).toArray();
    }

    private static double max(List<Row> rows, Function<Row, Double> metric) {
        return Arrays.stream(values(rows, metric)).max().orElse(Double.NaN);
    }

    /** The text "median ±half-width" of a summary row's figure, as the terminal table prints it. */
    public static String withSpread(Row row, String metric) {
        String median = Summary.text(row, metric);
        double[] bounds = row.spread() == null ? null : row.spread().bounds(metric);
        if (median.isEmpty() || bounds == null) {
            return median;
        }
        double half = (bounds[1] - bounds[0]) / 2;
        double m = Summary.number(row, metric);
        return String.format(Locale.ROOT, m >= 100 ? "%.0f ±%.0f" : "%.2f ±%.2f", m, half);
    }

    /** Which repetition of its point a run's row is (1 where the column is empty). */
    public static int repetition(Row run) {
        return run.repetition() == null ? 1 : run.repetition();
    }

    /** Which window of its repetition a run's row is (1 where the column is empty: one window per JVM). */
    public static int window(Row run) {
        return run.get(Metric.WINDOW) instanceof Integer w ? w : 1;
    }

    /**
     * Why the window that stands for a repetition ({@link #used}) does not settle it, so that bench's
     * {@code --resume} measures that repetition again: "not valid" ({@link Row#valid}, from the one rule
     * {@link Row#invalidReason}; a server that failed and a failed verification are such rows too) or "disturbed"
     * ({@link Row#disturbs}: every attempt at it was); null when it settles it. The cause may have gone since (a
     * fixed jar, a quiet machine), and a row kept would decide its point, as {@link #summarize} lets one invalid
     * repetition make the point invalid.
     */
    public static String unsettled(Row standing) {
        return !standing.valid() ? NOT_VALID : Boolean.TRUE.equals(standing.disturbed()) ? DISTURBED : null;
    }

    /**
     * Per point key, the repetitions measured for good: those whose standing window is valid and undisturbed
     * ({@link #unsettled}); what a {@code --resume} does not measure again.
     */
    public static Map<String, java.util.Set<Integer>> settled(List<Row> runs) {
        Map<String, java.util.Set<Integer>> settled = new LinkedHashMap<>();
        usedByPoint(runs).forEach((key, jvms) -> settled.put(key, jvms.stream().filter(r -> unsettled(r) == null)
                .map(Repetitions::repetition).collect(Collectors.toSet())));
        return settled;
    }
}
