package records;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        return usedByPoint(runs).values().stream().map(Repetitions::point).toList();
    }

    /**
     * Per point (by {@link Row#pointKey}, in the order first measured), the attempts that stand for its repetitions
     * ({@link #used}): what summary.csv is made of, and what compare tests.
     */
    public static Map<String, List<Row>> usedByPoint(List<Row> runs) {
        Map<String, List<Row>> byPoint = new LinkedHashMap<>();
        runs.forEach(r -> byPoint.computeIfAbsent(r.pointKey(), k -> new ArrayList<>()).add(r));
        byPoint.replaceAll((key, attempts) -> used(attempts));
        return byPoint;
    }

    /** Per repetition number, the attempt that stands for it: the last undisturbed one, else the last. */
    public static List<Row> used(List<Row> attempts) {
        Map<Integer, Row> chosen = new TreeMap<>();
        for (Row r : attempts) {
            int rep = repetition(r);
            Row before = chosen.get(rep);
            if (before == null || !Boolean.TRUE.equals(r.disturbed()) || Boolean.TRUE.equals(before.disturbed())) {
                chosen.put(rep, r);
            }
        }
        return List.copyOf(chosen.values());
    }

    /** The summary row of one point from the attempts that stand for its repetitions. */
    private static Row point(List<Row> used) {
        Row first = used.get(0);
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
        boolean known = used.stream().anyMatch(r -> r.disturbed() != null);
        double foreign = max(used, Row::foreignCpu);
        List<String> notes = new ArrayList<>(used.stream().map(Row::note).filter(s -> !s.isEmpty()).distinct()
                .toList());
        if (disturbed > 0) {
            notes.add(0, String.format(Locale.ROOT, "disturbed: %d of %d repetitions (foreign CPU up to %.2f cores,"
                    + " steal up to %.1f%%)", disturbed, n, foreign, max(used, Row::stealPct)));
        }
        Row m = new Row(first.tool(), first.server(), first.engine(), first.mode(), first.page(), first.model(),
                first.connections(), first.rate(), median(used, Row::durationS), Math.round(median(used,
                r -> (double) r.requests())), sum(used, Row::errors), true, median(used, Row::reqPerS),
                median(used, Row::ttfbP50Ms), median(used, Row::ttfbP99Ms), median(used, Row::firstItemP50Ms),
                median(used, Row::ttlbP50Ms), median(used, Row::ttlbP90Ms), median(used, Row::ttlbP99Ms),
                median(used, Row::ttlbP999Ms), median(used, Row::ttlbMaxMs), median(used, Row::sourceMs),
                median(used, Row::chunksMean), median(used, Row::cpuMsPerReq), median(used, Row::clientCpuMsPerReq),
                median(used, Row::rssPeakMb), median(used, Row::rssMeanMb), median(used, Row::heapMb),
                whole(used, Row::threadsPeak), whole(used, Row::vthreadsPeak), whole(used, Row::gcCount),
                whole(used, Row::gcMs), maxWhole(used, Row::listenDrops), null, String.join("; ", notes), null,
                median(used, Row::warmupS), Double.isNaN(foreign) ? null : foreign, nullIfNaN(max(used,
                Row::stealPct)), known ? disturbed > 0 : null, spread, first.protocol(), first.streams());
        return m;
    }

    /** An invalid point's row: the failing repetition's figures, its note, no spread. */
    private static Row invalid(Row r, String note) {
        return new Row(r.tool(), r.server(), r.engine(), r.mode(), r.page(), r.model(), r.connections(), r.rate(),
                r.durationS(), r.requests(), r.errors(), r.valid(), r.reqPerS(), r.ttfbP50Ms(), r.ttfbP99Ms(),
                r.firstItemP50Ms(), r.ttlbP50Ms(), r.ttlbP90Ms(), r.ttlbP99Ms(), r.ttlbP999Ms(), r.ttlbMaxMs(),
                r.sourceMs(), r.chunksMean(), r.cpuMsPerReq(), r.clientCpuMsPerReq(), r.rssPeakMb(), r.rssMeanMb(),
                r.heapMb(), r.threadsPeak(), r.vthreadsPeak(), r.gcCount(), r.gcMs(), r.listenDrops(), null, note,
                null, r.warmupS(), r.foreignCpu(), r.stealPct(), r.disturbed(), null, r.protocol(), r.streams());
    }

    private static double[] values(List<Row> rows, Function<Row, Double> metric) {
        return rows.stream().map(metric).filter(Objects::nonNull).filter(v -> !v.isNaN())
                .mapToDouble(Double::doubleValue).toArray();
    }

    private static Double median(List<Row> rows, Function<Row, Double> metric) {
        double[] xs = values(rows, metric);
        return xs.length == 0 ? null : Stats.median(xs);
    }

    private static Long whole(List<Row> rows, Function<Row, Long> metric) {
        Double m = median(rows, r -> metric.apply(r) == null ? null : metric.apply(r).doubleValue());
        return m == null ? null : Math.round(m);
    }

    private static Long sum(List<Row> rows, Function<Row, Long> metric) {
        List<Long> xs = rows.stream().map(metric).filter(Objects::nonNull).toList();
        return xs.isEmpty() ? null : xs.stream().mapToLong(Long::longValue).sum();
    }

    private static Long maxWhole(List<Row> rows, Function<Row, Long> metric) {
        return rows.stream().map(metric).filter(Objects::nonNull).max(Long::compare).orElse(null);
    }

    private static double max(List<Row> rows, Function<Row, Double> metric) {
        return Arrays.stream(values(rows, metric)).max().orElse(Double.NaN);
    }

    private static Double nullIfNaN(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /** The text "median ±half-width" of a summary row's figure, as the terminal table prints it. */
    public static String withSpread(Row row, String metric) {
        String median = Summary.text(row, metric);
        if (median.isEmpty() || row.spread() == null || !row.spread().lo().containsKey(metric)
                || row.spread().n() < 2) {
            return median;
        }
        double half = (row.spread().hi().get(metric) - row.spread().lo().get(metric)) / 2;
        double m = Summary.number(row, metric);
        return String.format(Locale.ROOT, m >= 100 ? "%.0f ±%.0f" : "%.2f ±%.2f", m, half);
    }

    /** Which repetition of its point a run's row is (1 where the column is empty). */
    public static int repetition(Row run) {
        return run.repetition() == null ? 1 : run.repetition();
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
        usedByPoint(runs).forEach((key, used) -> settled.put(key, used.stream().filter(r -> unsettled(r) == null)
                .map(Repetitions::repetition).collect(Collectors.toSet())));
        return settled;
    }
}
