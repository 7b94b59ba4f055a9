package bench;

import base.Durations;
import stats.Repetitions;
import tables.Row;
import tables.Summary;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What a sweep prints while it runs: its plan and estimate, each point as it starts with the time left, a window
 * measured again, and the table of the points at the end. Apart from {@link Bench}, which decides what to measure.
 */
final class BenchConsole {

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
                sweep.combinations().size() + (sweep.foreign() != null ? 1 : 0), sweep.repeat(),
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
                p.protocol() == http.Protocol.H1 && p.streams() == 1 ? "" : " " + p.protocol().id() + " x"
                        + p.streams() + " streams",
                p.rate() > 0 ? "rate " + (long) p.rate() + "/s" : "closed loop", eta);
        console.flush();
    }

    void table(List<Row> rows) {
        // Wide enough for the registry's ids (the longest engine and mode ids are 10 and 9 characters).
        String format = "%-8s %-10s %-9s %-13s %5s %-7s %6s %2s %13s %11s %11s %11s %11s %11s %7s %5s %5s%n";
        console.printf(Locale.ROOT, "%n" + format, "server", "engine", "mode", "page", "conns", "proto", "rate", "n",
                "req/s", "ttfb p50", "item1 p50", "ttlb p50", "ttlb p99", "cpu/req", "ceiling", "valid", "dist");
        for (Row r : rows) {
            console.printf(Locale.ROOT, format, r.server(), r.engine(), r.mode(), r.page(), r.connections(),
                    r.protocol() + (r.streams() == 1 ? "" : "/" + r.streams()),
                    r.rate() == null ? "-" : r.rate(), r.spread() == null ? "-" : r.spread().n(),
                    Repetitions.withSpread(r, "req_per_s"), Repetitions.withSpread(r, "ttfb_p50_ms"),
                    Repetitions.withSpread(r, "first_item_p50_ms"), Repetitions.withSpread(r, "ttlb_p50_ms"),
                    Repetitions.withSpread(r, "ttlb_p99_ms"), Repetitions.withSpread(r, "cpu_ms_per_req"),
                    Summary.text(r, "ceiling_fraction"), r.valid(), Boolean.TRUE.equals(r.disturbed()) ? "yes" : "");
            if (!r.valid() || Boolean.TRUE.equals(r.disturbed())) {
                console.println("    " + r.note());
            }
        }
        console.println("(medians over the n repetitions, each ± the half-width of its interval for the median: "
                + "95% from 6 repetitions on, the whole range below that; milliseconds; proto: the protocol, /N its "
                + "streams per connection; item1: the first item's "
                + "markup; cpu/req: server CPU per request; ceiling: throughput / the raw baseline's; dist: a "
                + "repetition was disturbed)");
        console.println("bench: results in " + sweep.out().toAbsolutePath());
        console.flush();
    }

}
