package stats;

import base.UsageException;
import tables.Metric;
import tables.Provenance;
import tables.Row;
import tables.Summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@code compare}: every point two results folders both measured, or every combination of one folder against a
 * baseline combination at the same page, model, connections and rate, from the raw repetitions (runs.csv, the
 * attempt of each repetition that {@link Repetitions#used} picks, as summary.csv does). Per point and metric: each
 * side's median with its interval, and the change B/A with {@link Stats#shift} (Hodges–Lehmann, Moses' interval,
 * Mann–Whitney p). Only reads the folders. {@link CompareText} prints the result.
 */
public final class Compare {

    /** The fewest repetitions a side for a test; fewer, and only the medians are shown. */
    public static final int FEWEST = 3;

    private Compare() {
    }

    /** Whether a bigger value of the metric is better (throughput); else smaller is (latency, CPU). */
    public static boolean higherIsBetter(String metric) {
        Metric m = Metric.of(metric);
        return m != null && m.better() == Metric.Better.HIGHER;
    }

    /** One side of a cell: its repetitions (0: not measured), their median and half its interval's width. */
    public record Side(int n, double median, double halfWidth) {
        static Side of(double[] xs) {
            if (xs.length == 0) {
                return new Side(0, Double.NaN, Double.NaN);
            }
            return new Side(xs.length, Stats.median(xs), Stats.medianInterval(xs, Stats.CONFIDENCE).halfWidth());
        }
    }

    /** One metric at one point: both sides and the change B/A (null: a side not measured, or a value &lt;= 0). */
    public record Cell(Side a, Side b, Stats.Shift shift) {
        /** Whether the change was tested: both sides measured at least {@link #FEWEST} times. */
        public boolean tested() {
            return shift != null && a.n() >= FEWEST && b.n() >= FEWEST;
        }

        public boolean significant() {
            return tested() && shift.significant();
        }

        /** By how many percent B is worse than A, in the metric's direction (negative: better). */
        public double worsePct(String metric) {
            return higherIsBetter(metric) ? -shift.changePct() : shift.changePct();
        }
    }

    /**
     * A point compared: its group (the combination B in baseline mode, "" otherwise), its label, whether either
     * side used a disturbed repetition, and a cell per metric.
     */
    public record Point(String group, String label, boolean disturbed, Map<String, Cell> cells) {
    }

    /** A change that failed the gate: where, which metric, and the change. */
    public record Worse(String label, String metric, Stats.Shift shift) {
    }

    /** A point both sides have that was not compared, and why. */
    public record Skipped(String label, String why) {
    }

    /** What compare found. a and b: what A and B are; leftOut: sentences on the points only one side has. */
    public record Result(String a, String b, boolean baseline, List<String> metrics, List<Point> points,
                         List<Skipped> notCompared, List<String> leftOut) {

        /** The changes significantly worse than pctWorse % (point estimate beyond it, p &lt; {@link Stats#ALPHA}). */
        public List<Worse> failures(double pctWorse) {
            List<Worse> failed = new ArrayList<>();
            for (Point p : points) {
                for (String metric : metrics) {
                    Cell c = p.cells().get(metric);
                    if (c != null && c.significant() && c.worsePct(metric) > pctWorse) {
                        failed.add(new Worse(p.label(), metric, c.shift()));
                    }
                }
            }
            return failed;
        }
    }

    /** The metrics named (all of {@link Row#INTERVAL_METRICS} for none), refusing an unknown one. */
    public static List<String> metrics(List<String> named) {
        if (named == null || named.isEmpty()) {
            return Row.INTERVAL_METRICS;
        }
        for (String m : named) {
            if (!Row.INTERVAL_METRICS.contains(m)) {
                throw new UsageException("unknown metric '" + m + "'; valid metrics: "
                        + String.join(", ", Row.INTERVAL_METRICS) + ".");
            }
        }
        return List.copyOf(new LinkedHashSet<>(named));
    }

    /** Every point both folders measured, B against A; refuses folders that measured different things. */
    public static Result folders(Path a, Path b, List<String> metrics) {
        Map<String, List<Row>> pa = points(a);
        Map<String, List<Row>> pb = points(b);
        List<String> differences = new ArrayList<>();
        differ("pages", values(pa, Row::page), values(pb, Row::page), differences);
        differ("connections", values(pa, Row::connections), values(pb, Row::connections), differences);
        differ("rates", values(pa, r -> r.rate() == null ? "closed loop" : r.rate() + "/s"),
                values(pb, r -> r.rate() == null ? "closed loop" : r.rate() + "/s"), differences);
        // A point over h2c is another point than over HTTP/1.1: folders of different protocols have none in common.
        differ("protocols", values(pa, Row::transport), values(pb, Row::transport), differences);
        for (String key : List.of("delay", "source_scheduler")) {
            differ(key, recorded(a, key), recorded(b, key), differences);
        }
        if (!differences.isEmpty()) {
            throw new UsageException("A (" + a + ") and B (" + b + ") measured different things: "
                    + String.join("; ", differences) + ".");
        }
        List<Pair> pairs = new ArrayList<>();
        pa.forEach((key, rows) -> {
            if (pb.containsKey(key)) {
                pairs.add(new Pair("", label(rows.get(0)), rows, pb.get(key)));
            }
        });
        if (pairs.isEmpty()) {
            // Every header and no row would read as "no difference" (issue 32): say that nothing can be compared.
            throw new UsageException("A (" + a + ") and B (" + b + ") have no point in common: A measured "
                    + String.join(", ", values(pa, Compare::combination)) + ", B measured "
                    + String.join(", ", values(pb, Compare::combination)) + "; to rank combinations, measure them in"
                    + " one run and give that folder alone with --baseline=SERVER/ENGINE/MODE.");
        }
        List<String> leftOut = new ArrayList<>();
        long onlyA = pa.keySet().stream().filter(k -> !pb.containsKey(k)).count();
        long onlyB = pb.keySet().stream().filter(k -> !pa.containsKey(k)).count();
        if (onlyA + onlyB > 0) {
            TreeSet<String> inA = values(pa, Compare::combination);
            TreeSet<String> inB = values(pb, Compare::combination);
            String combinations = inA.equals(inB) ? "" : " (combinations in A only: " + none(minus(inA, inB))
                    + "; in B only: " + none(minus(inB, inA)) + ")";
            leftOut.add(String.format(Locale.ROOT, "left out: %d point%s measured only in A, %d only in B%s.", onlyA,
                    onlyA == 1 ? "" : "s", onlyB, combinations));
        }
        return result(a.toString(), b.toString(), false, metrics, pairs, leftOut);
    }

    /**
     * Every other combination of the folder against {@code baseline} (server/engine/mode) at the same page, model,
     * connections and rate: the baseline is A, each other combination B.
     */
    public static Result baseline(Path dir, String baseline, List<String> metrics) {
        Map<String, List<Row>> all = points(dir);
        TreeSet<String> held = values(all, Compare::combination);
        if (!held.contains(baseline)) {
            throw new UsageException("no combination " + baseline + " in " + dir + "; it holds " + String.join(", ",
                    held) + ".");
        }
        if (held.size() == 1) {
            throw new UsageException(dir + " holds only " + baseline + ": no other combination to compare with it.");
        }
        Map<String, List<List<Row>>> base = new LinkedHashMap<>();   // by where: one per pool size
        all.values().stream().filter(rows -> combination(rows.get(0)).equals(baseline))
                .forEach(rows -> base.computeIfAbsent(where(rows.get(0)), w -> new ArrayList<>()).add(rows));
        List<Pair> pairs = new ArrayList<>();
        int missing = 0;
        for (List<Row> rows : all.values()) {
            Row first = rows.get(0);
            if (combination(first).equals(baseline)) {
                continue;
            }
            List<Row> against = samePool(base.getOrDefault(where(first), List.of()), first.threads());
            if (against == null) {
                missing++;
            } else {
                pairs.add(new Pair(combination(first), label(first), against, rows));
            }
        }
        List<String> leftOut = missing == 0 ? List.of() : List.of(String.format(Locale.ROOT,
                "left out: %d point%s where %s was not measured.", missing, missing == 1 ? "" : "s", baseline));
        return result(dir + ", baseline " + baseline, dir + ", each other combination", true, metrics, pairs,
                leftOut);
    }

    /** A point of A and the same point of B (their used repetitions). */
    private record Pair(String group, String label, List<Row> a, List<Row> b) {
    }

    private static Result result(String a, String b, boolean baseline, List<String> metrics, List<Pair> pairs,
                                 List<String> leftOut) {
        pairs.sort(Comparator.comparing((Pair p) -> p.b().get(0), ORDER));
        List<Point> points = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (Pair p : pairs) {
            String invalidA = invalid(p.a());
            String invalidB = invalid(p.b());
            if (invalidA != null || invalidB != null) {
                skipped.add(new Skipped(p.label(), invalidA != null && invalidB != null ? "invalid in A and B"
                        : invalidA != null ? "invalid in A (" + invalidA + ")" : "invalid in B (" + invalidB + ")"));
                continue;
            }
            Map<String, Cell> cells = new LinkedHashMap<>();
            for (String metric : metrics) {
                double[] xa = values(p.a(), metric);
                double[] xb = values(p.b(), metric);
                cells.put(metric, new Cell(Side.of(xa), Side.of(xb), Stats.shift(xa, xb, Stats.CONFIDENCE)));
            }
            boolean disturbed = p.a().stream().anyMatch(r -> Boolean.TRUE.equals(r.disturbed()))
                    || p.b().stream().anyMatch(r -> Boolean.TRUE.equals(r.disturbed()));
            points.add(new Point(p.group(), p.label(), disturbed, cells));
        }
        return new Result(a, b, baseline, metrics, points, skipped, leftOut);
    }

    /** Points in a readable order: combination, page, model, connections, rate. */
    private static final Comparator<Row> ORDER = Comparator.comparing(Row::tool).thenComparing(Row::server)
            .thenComparing(Row::engine).thenComparing(Row::mode).thenComparing(Row::page).thenComparing(Row::model)
            .thenComparingInt(Row::connections).thenComparing(r -> r.rate() == null ? 0 : r.rate())
            .thenComparing(Row::protocol).thenComparingInt(Row::streams);

    /** The folder's points: per point key, the repetitions summary.csv uses. Refuses a folder without runs.csv. */
    static Map<String, List<Row>> points(Path dir) {
        Path file = dir.resolve(Repetitions.FILE);
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no such folder: " + dir + "; give a results folder written by bench.");
        }
        if (!Files.isRegularFile(file)) {
            throw new UsageException(dir + " has no " + Repetitions.FILE + " (measured before repetitions, or not"
                    + " a results folder of bench), and compare reads every repetition from it.");
        }
        List<Row> runs;
        try {
            runs = Repetitions.read(file);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse("")
                    + ".");
        }
        if (runs.isEmpty()) {
            throw new UsageException(file + " holds no measured window yet.");
        }
        return Repetitions.usedByPoint(runs);
    }

    /** What the folder's bench runs recorded under {@code key} in provenance.json; empty when nothing was. */
    private static TreeSet<String> recorded(Path dir, String key) {
        try {
            return Provenance.recorded(dir, "bench", key);
        } catch (IOException e) {
            throw new UsageException("cannot read " + dir.resolve(Provenance.FILE) + ": " + e.getMessage().lines()
                    .findFirst().orElse("") + ".");
        }
    }

    /** Adds "what X in A, Y in B" to differences when the two sets differ. */
    private static void differ(String what, TreeSet<?> a, TreeSet<?> b, List<String> differences) {
        if (!a.equals(b)) {
            differences.add(what + " " + recordedText(a) + " in A, " + recordedText(b) + " in B");
        }
    }

    private static String recordedText(TreeSet<?> values) {
        return values.isEmpty() ? "not recorded" : String.join(", ", values.stream().map(String::valueOf).toList());
    }

    private static <T extends Comparable<T>> TreeSet<T> values(Map<String, List<Row>> points, Function<Row, T> of) {
        TreeSet<T> set = new TreeSet<>();
        points.values().forEach(rows -> set.add(of.apply(rows.get(0))));
        return set;
    }

    private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
        TreeSet<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private static String none(TreeSet<String> set) {
        return set.isEmpty() ? "none" : String.join(", ", set);
    }

    /** The metric's values over the repetitions that have it. */
    private static double[] values(List<Row> rows, String metric) {
        return rows.stream().mapToDouble(r -> Summary.number(r, metric)).filter(v -> !Double.isNaN(v)).toArray();
    }

    /** Why a point's repetitions may not be used (the first invalid one's note), or null. */
    private static String invalid(List<Row> used) {
        return used.stream().filter(r -> !r.valid()).map(r -> r.note().isEmpty() ? "not valid" : r.note())
                .findFirst().orElse(null);
    }

    /** server/engine/mode, as --baseline names it. */
    public static String combination(Row r) {
        return r.server() + "/" + r.engine() + "/" + r.mode();
    }

    /**
     * The baseline's point at pool size {@code threads}, or its only point where it has one (a mode without a pool
     * against one with), or null: where the baseline was measured at several pool sizes, none of them the other's.
     */
    private static List<Row> samePool(List<List<Row>> baseline, Integer threads) {
        return baseline.stream().filter(rows -> Objects.equals(rows.get(0).threads(), threads)).findFirst()
                .orElse(baseline.size() == 1 ? baseline.get(0) : null);
    }

    /** Where a point was measured, whatever the combination: page, model, connections, rate, protocol, streams. */
    private static String where(Row r) {
        return String.join("|", r.tool(), r.page(), r.model(), String.valueOf(r.connections()),
                Objects.toString(r.rate()), r.protocol(), String.valueOf(r.streams()));
    }

    /**
     * {@code nima jstachio virtual stocks c16} (and {@code rate 800}; the tool when not pssrbench; the protocol and
     * streams when not HTTP/1.1's one; {@code t4}, the pool size, where there is one).
     */
    static String label(Row r) {
        return (r.tool().equals(Row.PSSRBENCH) ? "" : r.tool() + " ") + String.join(" ", r.server(), r.engine(),
                r.mode(), r.page(), "c" + r.connections()) + (r.rate() == null ? "" : " rate " + r.rate())
                + (r.plainHttp1() ? "" : " " + r.transport()) + (r.threads() == null ? "" : " t" + r.threads());
    }
}
