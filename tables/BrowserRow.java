package tables;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One combination and page loaded in a browser {@code runs} times over one protocol: a row of {@code browser.csv}.
 * For each {@link Milestone}, the median and the spread (minimum and maximum) over the loads, and the median of the
 * same milestone for the same server, engine, page and protocol in the buffered mode measured beside it, with the
 * ratio of the two (a buffered row's counterpart is itself: ratio 1).
 *
 * @param protocol what the pages were loaded over: {@code serve --protocol}'s id (h1, h1s, h2)
 * @param items   the page's items
 * @param delayMs the data source's delay per item
 * @param runs    the loads the statistics are over (the valid ones)
 * @param valid   every load counted: status 200, every item and milestone there, the stylesheets loaded
 * @param note    why the row is not valid, or a remark
 * @param foreignCpuMax the most CPU the rest of the machine used during one of the loads, in cores (null: not
 *                      known); above {@link Row#DISTURBED_FOREIGN_CPU} the row is {@link #disturbed}
 */
public record BrowserRow(String server, String engine, String mode, String page, String protocol, int items,
                         double delayMs, int runs, boolean valid, Map<Milestone, Stat> stats,
                         Map<Milestone, Double> bufferedP50, String note, Double foreignCpuMax) {

    /** Whether a load of this row ran while the rest of the machine was busy: its figures may be the neighbour's. */
    public boolean disturbed() {
        return foreignCpuMax != null && Row.disturbs(foreignCpuMax, Double.NaN);
    }

    /** This row with its names ({@code name}: server, engine, mode, page, protocol) and note ({@code note}) mapped. */
    public BrowserRow withText(java.util.function.UnaryOperator<String> name,
                               java.util.function.UnaryOperator<String> note) {
        return new BrowserRow(name.apply(server), name.apply(engine), name.apply(mode), name.apply(page),
                name.apply(protocol), items, delayMs, runs, valid, stats, bufferedP50, note.apply(this.note),
                foreignCpuMax);
    }

    /** A milestone over the loads: median, minimum and maximum, in milliseconds. */
    public record Stat(double p50, double min, double max) {
    }

    public BrowserRow {
        Objects.requireNonNull(server);
        Objects.requireNonNull(engine);
        Objects.requireNonNull(mode);
        Objects.requireNonNull(page);
        protocol = protocol == null || protocol.isEmpty() ? BrowserRun.DEFAULT_PROTOCOL : protocol;
        stats = Collections.unmodifiableMap(stats.isEmpty() ? new EnumMap<>(Milestone.class) : new EnumMap<>(stats));
        bufferedP50 = Collections.unmodifiableMap(bufferedP50.isEmpty() ? new EnumMap<>(Milestone.class)
                : new EnumMap<>(bufferedP50));
        note = note == null ? "" : note;
        foreignCpuMax = foreignCpuMax == null || foreignCpuMax.isNaN() ? null
                : Double.valueOf(Row.decimal(foreignCpuMax));
    }

    /** The row of {@code loads} over HTTP/1.1 (see the next). */
    public static BrowserRow of(String server, String engine, String mode, String page, int items, double delayMs,
                                List<BrowserRun> loads, Map<Milestone, Double> bufferedP50, String remark) {
        return of(server, engine, mode, page, BrowserRun.DEFAULT_PROTOCOL, items, delayMs, loads, bufferedP50, remark);
    }

    /**
     * The row of {@code loads} (all of one combination, page and protocol); {@code bufferedP50}: the buffered
     * counterpart's medians, measured over the same protocol (null: this row is the buffered one, its own medians
     * are its counterpart's).
     */
    public static BrowserRow of(String server, String engine, String mode, String page, String protocol, int items,
                                double delayMs, List<BrowserRun> loads, Map<Milestone, Double> bufferedP50,
                                String remark) {
        List<BrowserRun> counted = loads.stream().filter(BrowserRun::valid).toList();
        Map<Milestone, Stat> stats = new EnumMap<>(Milestone.class);
        for (Milestone m : Milestone.values()) {
            double[] values = counted.stream().mapToDouble(r -> r.get(m)).filter(v -> !Double.isNaN(v)).sorted()
                    .toArray();
            if (values.length > 0) {
                stats.put(m, new Stat(median(values), values[0], values[values.length - 1]));
            }
        }
        Map<Milestone, Double> counterpart = new EnumMap<>(Milestone.class);
        if (bufferedP50 == null) {
            stats.forEach((m, s) -> counterpart.put(m, s.p50()));
        } else {
            counterpart.putAll(bufferedP50);
        }
        long failed = loads.size() - counted.size();
        String note = loads.isEmpty() ? "no load measured"
                : failed == 0 ? (remark == null ? "" : remark)
                : failed + " of " + loads.size() + " loads failed; the first: "
                + loads.stream().filter(r -> !r.valid()).findFirst().orElseThrow().problem();
        Double foreign = loads.stream().map(BrowserRun::foreignCpu).filter(Objects::nonNull)
                .max(Double::compare).orElse(null);
        long disturbed = loads.stream().filter(BrowserRun::disturbed).count();
        if (disturbed > 0) {
            note = String.format(Locale.ROOT, "disturbed: %d of %d loads (foreign CPU up to %.2f cores)", disturbed,
                    loads.size(), foreign) + (note.isEmpty() ? "" : "; " + note);
        }
        return new BrowserRow(server, engine, mode, page, protocol, items, delayMs, counted.size(),
                !loads.isEmpty() && failed == 0, stats, counterpart, note, foreign);
    }

    /** The median of sorted values (the mean of the middle two for an even count). */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The median of a milestone, NaN when not measured. */
    public double p50(Milestone m) {
        Stat s = stats.get(m);
        return s == null ? Double.NaN : s.p50();
    }

    /** This row's median over the buffered counterpart's, NaN when either is missing. */
    public double ratio(Milestone m) {
        Double b = bufferedP50.get(m);
        double p = p50(m);
        return b == null || b <= 0 || Double.isNaN(p) ? Double.NaN : p / b;
    }

    /** The medians, by milestone. */
    public Map<Milestone, Double> medians() {
        Map<Milestone, Double> m = new EnumMap<>(Milestone.class);
        stats.forEach((k, s) -> m.put(k, s.p50()));
        return m;
    }
}
