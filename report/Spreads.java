package report;

import tables.Row;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What report.html says about repetitions, from the rows themselves (never from what bench was asked): how many
 * repetitions each point is the median of, what its whiskers are, which points were disturbed and what that means.
 * Rows without a spread (other tools') say nothing.
 */
final class Spreads {

    private Spreads() {
    }

    /** Whether any row has a spread: only then do the report's tables and texts speak of repetitions. */
    static boolean any(List<Row> rows) {
        return rows.stream().anyMatch(r -> r.spread() != null);
    }

    /**
     * The sentence under a section's charts: the repetitions each point is the median of and its whiskers, e.g.
     * "Each point is the median of 5 repetitions (3 for pebble/reactive at 64 connections), each in a fresh server
     * JVM; whiskers: the range of the repetitions (a 93.8% interval for the median)." Empty when no row has a spread.
     */
    static String method(List<Row> rows) {
        List<Row> spread = rows.stream().filter(r -> r.spread() != null).toList();
        if (spread.isEmpty()) {
            return "";
        }
        Map<Integer, List<Row>> byN = new TreeMap<>();
        spread.forEach(r -> byN.computeIfAbsent(r.spread().n(), n -> new ArrayList<>()).add(r));
        int main = byN.entrySet().stream().max(Comparator.<Map.Entry<Integer, List<Row>>>comparingInt(
                e -> e.getValue().size()).thenComparingInt(Map.Entry::getKey)).orElseThrow().getKey();
        List<String> others = new ArrayList<>();
        byN.forEach((n, points) -> {
            if (n != main) {
                others.add(n + " for " + (points.size() <= 3 ? String.join(", ", points.stream()
                        .map(Spreads::point).toList()) : points.size() + " points"));
            }
        });
        StringBuilder s = new StringBuilder(main == 1 ? "Each point is a single measurement" : "Each point is the "
                + "median of " + main + " repetitions");
        s.append(others.isEmpty() ? "" : " (" + String.join("; ", others) + ")")
                .append(main == 1 && others.isEmpty() ? ", in a fresh server JVM" : ", each in a fresh server JVM");
        // What the whiskers are: one description per kind and level, with the n's it holds for when they differ.
        Map<String, List<Integer>> whiskers = new LinkedHashMap<>();
        byN.forEach((n, points) -> points.stream().map(r -> whisker(r.spread())).distinct()
                .forEach(w -> whiskers.computeIfAbsent(w, k -> new ArrayList<>()).add(n)));
        List<String> parts = new ArrayList<>();
        whiskers.forEach((w, ns) -> parts.add(whiskers.size() == 1 ? w : "for n = " + String.join(" and ",
                ns.stream().map(String::valueOf).toList()) + ", " + w));
        s.append("; whiskers: ").append(String.join("; ", parts)).append('.');
        if (spread.size() < rows.size()) {
            s.append(" Points of other tools, or measured once before repetitions, have none.");
        }
        return s.toString();
    }

    /** What one row's whiskers are. */
    static String whisker(Row.Spread spread) {
        if (spread.n() < 2) {
            return "none (a single repetition)";
        }
        return spread.range() ? "the range of the repetitions (a " + percent(spread.levelPct())
                + " interval for the median)"
                : "a " + percent(spread.levelPct()) + " distribution-free interval for the median (exact order "
                + "statistics)";
    }

    /** A level as a reader takes it in: 93.75 is "93.8%", 95.0 is "95%". */
    static String percent(double pct) {
        return BigDecimal.valueOf(pct).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "%";
    }

    /** A point in a sentence: its engine and mode, and its load. */
    private static String point(Row r) {
        return r.engine() + "/" + r.mode() + (r.rate() != null ? " at " + r.rate() + " requests/s"
                : " at " + r.connections() + (r.connections() == 1 ? " connection" : " connections"));
    }

    /** Whether any row is disturbed. */
    static boolean anyDisturbed(List<Row> rows) {
        return rows.stream().anyMatch(r -> Boolean.TRUE.equals(r.disturbed()));
    }

    /** What "disturbed" means, in one sentence. */
    static String disturbedMeaning() {
        return String.format(Locale.ROOT, "<b>Disturbed</b> (ringed in red in the charts, marked in the table): "
                + "during a measured window of a repetition the point uses, the rest of the machine used more than "
                + "%s cores of CPU (foreign CPU) or the hypervisor stole more than %s%% of the CPU time; bench "
                + "measured such a window again, up to %d windows in all, and the point stays marked when one of "
                + "its repetitions stayed disturbed.", plain(Row.DISTURBED_FOREIGN_CPU), plain(Row.DISTURBED_STEAL_PCT),
                Row.DISTURBED_ATTEMPTS);
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** A row's interval for {@code metric} as "lo–hi", compact; empty without one (or with a single repetition). */
    static String interval(Row r, String metric) {
        double[] bounds = r.spread() == null ? null : r.spread().bounds(metric);
        if (bounds == null) {
            return "";
        }
        double lo = bounds[0];
        double hi = bounds[1];
        double scale = Math.max(Math.abs(lo), Math.abs(hi));
        // Three significant digits or so, more where they would make a real interval read as one value (100–100).
        int places = scale >= 100 ? 0 : scale >= 10 ? 1 : 2;
        while (places < 3 && lo != hi && String.format(Locale.ROOT, "%." + places + "f", lo)
                .equals(String.format(Locale.ROOT, "%." + places + "f", hi))) {
            places++;
        }
        String format = "%." + places + "f";
        return String.format(Locale.ROOT, format + "\u2013" + format, lo, hi);
    }

    /** A disturbed point's tooltip: what the rest of the machine did during its windows. */
    static String disturbedTitle(Row r) {
        return "disturbed: foreign CPU up to " + (r.foreignCpu() == null ? "?" : Row.decimal(r.foreignCpu()))
                + " cores, steal up to " + (r.stealPct() == null ? "?" : Row.decimal(r.stealPct())) + "%";
    }
}
