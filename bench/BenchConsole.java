package bench;

import base.Durations;
import stats.Repetitions;
import tables.Metric;
import tables.Row;
import tables.Summary;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a sweep prints while it runs: its plan and estimate, each point as it starts with the time left, a window
 * measured again, and the table of the points at the end. Apart from {@link Bench}, which decides what to measure.
 */
final class BenchConsole {

    /** The figures of the points' table, in the order of its columns. */
    private static final List<Metric> FIGURES = Arrays.stream(Metric.values()).filter(m -> m.terminal() != null)
            .toList();

    private final Sweep sweep;
    private final PrintWriter console;

    BenchConsole(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.console = console;
    }

    void println(String line) {
        console.println(line);
    }

    void flush() {
        console.flush();
    }

    /** The first line: how many servers and windows, and how long they will take. */
    void plan(int total, Estimate estimate) {
        List<http.Protocol> protocols = sweep.points().protocols();
        console.printf(Locale.ROOT, "bench: %d combinations x %d repetitions%s, %d windows to measure: %s%n",
                sweep.combinations().size() + sweep.foreign().size(), sweep.repeat(),
                protocols.size() == 1 ? "" : " x " + protocols.size() + " protocols (" + String.join(
                        ", ", protocols.stream().map(http.Protocol::id).toList()) + ", interleaved)",
                total, estimate.describe(sweep.windows().steady()));
        console.flush();
    }

    /** A window that the rest of the machine disturbed, and whether it is measured again. */
    void disturbed(Row row, boolean again) {
        console.printf(Locale.ROOT, "bench:   disturbed (foreign CPU %.2f cores, steal %.1f%%)%s%n",
                row.foreignCpu() == null ? Double.NaN : row.foreignCpu(),
                row.stealPct() == null ? Double.NaN : row.stealPct(),
                again ? "; measuring it again" : "; kept, marked disturbed");
        console.flush();
    }

    void progress(int done, int total, long started, Point p, int repetition) {
        long elapsed = System.nanoTime() - started;
        String eta = done == 1 ? "?" : Durations.format(Duration.ofSeconds(
                Math.round(elapsed / 1e9 / (done - 1) * (total - done + 1))));
        int most = sweep.windows().repeatMax();   // --precision may add repetitions up to it
        console.printf(Locale.ROOT, "bench: %d/%d repetition %d/%s %s %s c%d%s %s (ETA %s)%n", done, total,
                repetition, most == sweep.repeat() ? String.valueOf(most) : sweep.repeat() + "-" + most, p.describe(), p.page().id(), p.connections(),
                (p.protocol() == http.Protocol.H1 && p.streams() == 1 ? "" : " " + p.protocol().id() + " x"
                        + p.streams() + " streams") + Point.threadsSuffix(" threads=", p.threads()),
                p.rate() > 0 ? "rate " + (long) p.rate() + "/s" : "closed loop", eta);
        console.flush();
    }

    /**
     * The points' table and its legend: each point's names, its figures (the metrics the terminal shows, from
     * {@link Metric#terminal}, in their order), and its verdict; an invalid or disturbed point's note under it.
     */
    void table(List<Row> rows) {
        // Wide enough for the registry's ids (the longest engine and mode ids are 10 and 9 characters).
        String format = "%-8s %-10s %-9s %-13s %5s %-7s %6s %2s" + FIGURES.stream().map(m -> " %" + m.width() + "s")
                .collect(Collectors.joining()) + " %5s %5s%n";
        List<Object> head = new ArrayList<>(List.of("server", "engine", "mode", "page", "conns", "proto", "rate", "n"));
        FIGURES.forEach(m -> head.add(m.terminal()));
        head.addAll(List.of("valid", "dist"));
        console.printf(Locale.ROOT, "%n" + format, head.toArray());
        for (Row r : rows) {
            List<Object> cells = new ArrayList<>(Arrays.asList(r.server(), r.engine(),
                    r.mode() + Point.threadsSuffix("/", r.threads()), r.page(),
                    r.connections(), r.protocol() + (r.streams() == 1 ? "" : "/" + r.streams()),
                    r.rate() == null ? "-" : r.rate(), r.spread() == null ? "-" : r.spread().n()));
            FIGURES.forEach(m -> cells.add(m.interval() ? Repetitions.withSpread(r, m.column())
                    : Summary.text(r, m.column())));
            cells.addAll(Arrays.asList(r.valid(), Boolean.TRUE.equals(r.disturbed()) ? "yes" : ""));
            console.printf(Locale.ROOT, format, cells.toArray());
            if (!r.valid() || Boolean.TRUE.equals(r.disturbed())) {
                console.println("    " + r.note());
            }
        }
        console.println("(medians over the n repetitions, each ± the half-width of its interval for the median: "
                + "95% from 6 repetitions on, the whole range below that; milliseconds; proto: the protocol, /N its "
                + "streams per connection; item1: the first item's "
                + "markup; cpu/req: server CPU per request; ceiling: throughput / the raw baseline's; dist: a "
                + "repetition was disturbed" + (rows.stream().allMatch(r -> Point.threadsSuffix("", r.threads())
                .isEmpty()) ? "" : "; mode/N: on a platform pool of N threads, --threads") + ")");
        console.println("bench: results in " + sweep.out().toAbsolutePath());
        console.flush();
    }

}
