package stats;

import tables.Row;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A {@link Compare.Result} as text, as benchstat prints it: a table per metric, a row per point (each side's median
 * ± half its interval and n, the change with its interval and p, or {@code ~} when not significant), the geometric
 * mean of the changes, and a footer that says how all this was computed.
 */
public final class CompareText {

    private CompareText() {
    }

    /** The whole comparison. */
    public static String of(Compare.Result r) {
        StringBuilder text = new StringBuilder();
        text.append("A: ").append(r.a()).append('\n').append("B: ").append(r.b()).append('\n');
        for (String metric : r.metrics()) {
            text.append('\n').append(table(r, metric));
        }
        if (r.points().isEmpty()) {
            text.append("\nno point to compare.\n");
        }
        text.append('\n');
        r.notCompared().forEach(s -> text.append("not compared: ").append(s.label()).append(": ").append(s.why())
                .append('\n'));
        r.leftOut().forEach(s -> text.append(wrapped(s)));
        if (!r.notCompared().isEmpty() || !r.leftOut().isEmpty()) {
            text.append('\n');
        }
        footer(r).forEach(s -> text.append(wrapped(s)));
        return text.toString();
    }

    /** The gate's verdict: which changes were significantly worse than pctWorse %, or that none was. */
    public static String gate(Compare.Result r, double pctWorse) {
        List<Compare.Worse> failed = r.failures(pctWorse);
        String limit = "--threshold=" + number(pctWorse) + "%";
        if (failed.isEmpty()) {
            return "\ngate " + limit + ": passed, no change significantly worse than " + number(pctWorse) + "%.\n";
        }
        List<String[]> rows = new ArrayList<>();
        for (Compare.Worse w : failed) {
            rows.add(new String[] {"  " + w.label(), w.metric(), pct(w.shift().changePct()), p(w.shift().p())});
        }
        return String.format(Locale.ROOT, "\ngate %s: FAILED, %d change%s significantly worse than %s%%:\n", limit,
                failed.size(), failed.size() == 1 ? "" : "s", number(pctWorse)) + aligned(rows);
    }

    private static String table(Compare.Result r, String metric) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {metric + " (" + (Compare.higherIsBetter(metric) ? "higher" : "lower")
                + " is better)", "A", "B", "change B/A [95% interval]", "", ""});
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (Compare.Point p : r.points()) {
            Compare.Cell c = p.cells().get(metric);
            String[] row = {"  " + p.label() + (p.disturbed() ? " !" : ""), side(c.a()), side(c.b()), "", "", ""};
            if (c.a().n() == 0 || c.b().n() == 0) {
                row[3] = "not measured in " + (c.a().n() == 0 && c.b().n() == 0 ? "A or B" : c.a().n() == 0 ? "A"
                        : "B");
            } else if (c.shift() == null) {
                row[3] = "not tested: a value is 0";
            } else if (!c.tested()) {
                row[3] = "too few repetitions to test";
                row[5] = "n=" + c.a().n() + "+" + c.b().n();
            } else {
                Stats.Shift s = c.shift();
                row[3] = (s.significant() ? pct(s.changePct()) : "~") + " " + interval(s.interval());
                row[4] = s.significant() ? (c.worsePct(metric) > 0 ? "worse" : "better") : "";
                row[5] = p(s.p()) + " n=" + s.nA() + "+" + s.nB();
            }
            if (c.shift() != null) {
                ratios.computeIfAbsent(p.group(), g -> new ArrayList<>()).add(c.shift().ratio());
            }
            rows.add(row);
        }
        List<Map.Entry<String, Double>> means = new ArrayList<>();
        ratios.forEach((group, xs) -> means.add(Map.entry(group, Stats.geometricMean(xs.stream()
                .mapToDouble(Double::doubleValue).toArray()))));
        Comparator<Map.Entry<String, Double>> best = Map.Entry.comparingByValue();
        means.sort(Compare.higherIsBetter(metric) ? best.reversed() : best);   // the best first
        for (Map.Entry<String, Double> m : means) {
            int n = ratios.get(m.getKey()).size();
            rows.add(new String[] {"  geomean" + (m.getKey().isEmpty() ? "" : " " + m.getKey()), "", "",
                    pct((m.getValue() - 1) * 100), "", "over " + n + " point" + (n == 1 ? "" : "s")});
        }
        return aligned(rows);
    }

    private static List<String> footer(Compare.Result r) {
        TreeSet<String> methods = new TreeSet<>();
        int disturbed = 0;
        for (Compare.Point p : r.points()) {
            disturbed += p.disturbed() ? 1 : 0;
            p.cells().values().stream().filter(Compare.Cell::tested)
                    .forEach(c -> methods.add(Stats.mannWhitneyMethod(c.shift().nA(), c.shift().nB())));
        }
        String test = methods.isEmpty() ? "exact permutation test up to 200,000 splits, else normal approximation"
                : methods.size() == 2 ? "exact permutation test, normal approximation where the sizes are too large"
                : methods.first() + (methods.first().startsWith("exact") ? " test" : "");
        List<String> lines = new ArrayList<>(List.of(
                "A, B: the median of the repetitions ± half the width of its distribution-free interval (exact order"
                        + " statistics, 95% or more; the whole range of the repetitions when n < 6), and in"
                        + " parentheses n, the repetitions.",
                "change: Hodges–Lehmann estimate of B/A − 1 with Moses' distribution-free 95% interval (a level"
                        + " after it: too few repetitions for 95%, the whole range of the pairwise ratios, at that"
                        + " level).",
                "p: two-sided Mann–Whitney U test (" + test + "); significant when p < 0.05, else ~; better and worse"
                        + " in each metric's direction.",
                "With 3 repetitions a side no change can reach p < 0.05 (the smallest p of 3+3 is 0.100); with fewer"
                        + " it is not tested.",
                "geomean: the geometric mean of the B/A estimates over the points with the metric."));
        if (r.baseline()) {
            lines.add("In baseline mode the geomeans are ranked, the best first.");
        }
        if (disturbed > 0) {
            lines.add(String.format(Locale.ROOT, "!: %d of %d points had disturbed repetitions in A or B (other"
                            + " processes' CPU above %s cores or steal above %s%% while measured): the machine may"
                            + " have made their change.", disturbed, r.points().size(),
                    number(Row.DISTURBED_FOREIGN_CPU), number(Row.DISTURBED_STEAL_PCT)));
        }
        return lines;
    }

    /** "704 ±34 (5)": the median, half its interval's width, the repetitions. */
    private static String side(Compare.Side s) {
        if (s.n() == 0) {
            return "—";
        }
        String format = s.median() >= 100 ? "%.0f" : s.median() >= 10 ? "%.1f" : s.median() >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, format, s.median()) + (s.n() < 2 ? "" : " ±" + String.format(Locale.ROOT,
                format, s.halfWidth())) + " (" + s.n() + ")";
    }

    private static String interval(Stats.Interval i) {
        return "[" + pct((i.lo() - 1) * 100) + " " + pct((i.hi() - 1) * 100) + "]" + (i.range()
                ? String.format(Locale.ROOT, " %.0f%%", i.level() * 100) : "");
    }

    /** A change in percent with its sign: {@code -20.0%}, {@code +25.0%}. */
    static String pct(double change) {
        return String.format(Locale.ROOT, "%+.1f%%", change);
    }

    private static String p(double p) {
        return p < 0.001 ? "p<0.001" : String.format(Locale.ROOT, "p=%.3f", p);
    }

    private static String number(double x) {
        return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
    }

    /** A sentence in lines of at most 110 characters, the next ones indented by two spaces. */
    private static String wrapped(String sentence) {
        StringBuilder text = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (String word : sentence.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > 110) {
                text.append(line).append('\n');
                line.setLength(0);
                line.append(" ");
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        return text.append(line).append('\n').toString();
    }

    /** The rows with each column as wide as its widest cell, two spaces apart, without trailing blanks. */
    private static String aligned(List<String[]> rows) {
        int[] width = new int[rows.get(0).length];
        rows.forEach(row -> {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        });
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]).append(" ".repeat(width[i] - row[i].length() + 2));
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }
}
