package bench;

import core.Combination;
import core.DataSource;
import core.Durations;
import core.Engine;
import core.Page;
import core.Server;
import core.UsageException;
import records.Provenance;
import records.Report;
import records.Row;
import records.Summary;
import verify.Reference;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench}: for each selected combination, one server JVM, verified first, then every page × connection
 * count (× rate) measured with {@link LoadGenerator}, each point written to the results folder as it finishes, so
 * that an interrupted sweep keeps its finished points and {@code --resume} measures only the rest. This class is
 * the sweep (which points, in what order, what is already done, the estimate, the table); a combination's checks
 * are {@link CombinationCheck}'s, a point's measurement {@link PointMeasurement}'s.
 */
public final class Bench {

    /**
     * What to sweep. {@code rates} empty means the closed loop; {@code target} null means servers started by bench,
     * else the one combination is measured at that URL as it runs.
     */
    public record Sweep(List<Combination> combinations, List<Page> pages, List<Integer> connections,
                        List<Double> rates, Duration warmup, Duration duration, Duration delay,
                        DataSource.Timers timers, int loadThreads,
                        Path out, List<String> serverCpuPrefix, Map<String, Object> flags, boolean resume,
                        boolean jfr, URI target) {
    }

    /**
     * Verification, start-up and stop of one combination's server, for the estimate printed at the start (measured
     * on a 2-core machine: 7 to 9 s).
     */
    private static final double SETUP_SECONDS = 8;

    private final Sweep sweep;
    private final PrintWriter console;
    private final List<Row> rows = new ArrayList<>();
    private final PointRows.Ceilings ceilings;
    private final PointMeasurement measurement;
    private final CombinationCheck check;
    private volatile boolean stopped;

    public Bench(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.ceilings = new PointRows.Ceilings(engines().stream().filter(Engine::baseline).map(Engine::id)
                .collect(java.util.stream.Collectors.toSet()));
        this.console = console;
        this.measurement = new PointMeasurement(sweep.warmup(), sweep.duration(), sweep.loadThreads(), sweep.jfr(),
                sweep.out());
        this.check = new CombinationCheck(sweep.out().resolve("logs"), () -> stopped);
    }

    /**
     * The selection plus the raw baseline on every selected server and mode it is not already there for, the
     * baselines first on each server, so that every engine's row can be divided by its ceiling when written.
     */
    public static List<Combination> withBaselines(List<Combination> selected, List<Engine> engines,
                                                  List<Server> servers) {
        Set<Combination> all = new LinkedHashSet<>(selected);
        for (Combination c : selected) {
            for (Engine e : engines) {
                if (e.baseline() && c.mode().supports(e)) {
                    all.add(new Combination(c.server(), e, c.mode()));
                }
            }
        }
        return all.stream().sorted(Comparator.comparingInt((Combination c) -> servers.indexOf(c.server()))
                .thenComparing(c -> !c.engine().baseline())).toList();
    }

    /** The engines of the selected combinations (the baselines included). */
    private List<Engine> engines() {
        return sweep.combinations().stream().map(Combination::engine).distinct().toList();
    }

    /** The baseline engine's id, as the report draws it; "raw" when the sweep has none (--no-baseline). */
    private String baselineId() {
        return engines().stream().filter(Engine::baseline).map(Engine::id).findFirst().orElse("raw");
    }

    /** Ends the sweep soon, from any thread (Ctrl-C): the point under way is dropped, finished ones are kept. */
    public void stop() {
        stopped = true;
        check.cancel();
    }

    /**
     * Runs the sweep; returns the number of points that are not valid (failed verification included), or -1 when
     * it was stopped before the end.
     */
    public int run() throws IOException, InterruptedException {
        Path csv = sweep.out().resolve("summary.csv");
        boolean earlier = Files.exists(csv) && Files.size(csv) > 0;
        if (earlier && !sweep.resume()) {
            throw new UsageException(sweep.out() + " already holds a sweep; continue it with --resume or choose"
                    + " another --out.");
        }
        Set<PointRows.Key> done = new HashSet<>();
        if (earlier) {
            for (Row row : Summary.read(csv)) {
                rows.add(row);
                ceilings.note(row);
                if (PointRows.Key.of(row) != null) {
                    done.add(PointRows.Key.of(row));
                }
            }
        }
        Files.createDirectories(sweep.out().resolve("hgrm"));
        Files.createDirectories(sweep.out().resolve("logs"));
        if (sweep.jfr()) {
            Files.createDirectories(sweep.out().resolve("jfr"));
        }
        writeProvenance();

        Map<Combination, List<Point>> todo = new LinkedHashMap<>();
        for (Combination c : sweep.combinations()) {
            for (Page page : sweep.pages()) {
                for (int connections : sweep.connections()) {
                    for (double rate : sweep.rates().isEmpty() ? List.of(0.0) : sweep.rates()) {
                        Point p = new Point(c, page, connections, rate);
                        if (!done.contains(PointRows.Key.of(p))) {
                            todo.computeIfAbsent(c, k -> new ArrayList<>()).add(p);
                        }
                    }
                }
            }
        }
        int total = todo.values().stream().mapToInt(List::size).sum();
        if (earlier) {
            console.printf(Locale.ROOT, "bench: resuming in %s: %d points kept, %d to measure%n",
                    sweep.out(), done.size(), total);
        }
        // Said up front: a sweep over many engines and modes is long on a small machine.
        double seconds = total * (sweep.warmup().toNanos() + sweep.duration().toNanos()) / 1e9
                + todo.size() * (sweep.target() == null ? SETUP_SECONDS : 0);
        console.printf(Locale.ROOT, "bench: %d combinations, %d points: about %.0f minutes%n", todo.size(), total,
                Math.ceil(seconds / 60));
        console.flush();
        int[] progress = {0};
        long started = System.nanoTime();
        var expected = Reference.renderAll(engines());
        for (Map.Entry<Combination, List<Point>> group : todo.entrySet()) {
            if (stopped) {
                break;
            }
            Combination c = group.getKey();
            if (sweep.target() != null) {   // someone else's server: checked for bytes, not verified or sampled
                String problem = CombinationCheck.checkBytes(sweep.target(), expected);
                measureAll(group.getValue(), sweep.target(), null, problem, expected, progress, total, started);
                continue;
            }
            String unverified = check.verify(c);
            if (stopped) {
                break;
            }
            Path log = sweep.out().resolve("logs/" + Point.label(c) + ".server.log");
            try (ServerProcess server = ServerProcess.start(c, sweep.delay(), sweep.timers(), sweep.serverCpuPrefix(),
                    log)) {
                String problem = unverified != null ? unverified
                        : CombinationCheck.checkBytes(server.base(), expected);
                measureAll(group.getValue(), server.base(), server, problem, expected, progress, total, started);
            } catch (IOException e) {
                for (Point p : group.getValue()) {
                    progress[0]++;
                    record(PointRows.failed(p, e.getMessage()));
                }
            }
        }
        Provenance.finish(sweep.out());
        printTable();
        console.println("bench: report in " + Report.write(sweep.out(), baselineId()).toAbsolutePath());
        console.flush();
        if (stopped) {
            console.printf(Locale.ROOT, "bench: stopped; %d finished points kept in %s; measure the rest with the"
                    + " same flags and --resume --out=%s%n", rows.size(), sweep.out(), sweep.out());
            console.flush();
            return -1;
        }
        return (int) rows.stream().filter(r -> !r.valid()).count();
    }

    /** The points of one combination against one server ({@code server} null: not started by bench). */
    private void measureAll(List<Point> points, URI base, ServerProcess server, String problem,
                            Map<Page, Map<Engine, byte[]>> expected, int[] progress, int total, long started)
            throws IOException, InterruptedException {
        Map<Page, Double> floors = new java.util.LinkedHashMap<>();
        for (Point p : points) {
            if (stopped) {
                break;
            }
            progress(++progress[0], total, started, p);
            Row row;
            if (problem != null) {
                row = PointRows.failed(p, problem);
            } else {
                double floor = floors.computeIfAbsent(p.page(), page -> PointMeasurement.sourceFloor(server, page));
                byte[] body = expected.get(p.page()).values().iterator().next();
                row = measurement.measure(base, server, p, body, floor, () -> stopped);
            }
            if (stopped) {
                break;   // cut short: not a result
            }
            record(row);
        }
    }

    private void record(Row measured) throws IOException {
        Row row = ceilings.apply(measured);
        rows.add(row);
        Summary.append(sweep.out().resolve("summary.csv"), row);
        Summary.writeJson(sweep.out().resolve("summary.json"), rows);
    }

    private void progress(int done, int total, long started, Point p) {
        long elapsed = System.nanoTime() - started;
        String eta = done == 1 ? "?" : Durations.format(Duration.ofSeconds(
                Math.round(elapsed / 1e9 / (done - 1) * (total - done + 1))));
        console.printf(Locale.ROOT, "bench: point %d/%d %s %s c%d %s (ETA %s)%n", done, total, p.combination(),
                p.page().id(), p.connections(), p.rate() > 0 ? "rate " + (long) p.rate() + "/s" : "closed loop", eta);
        console.flush();
    }

    private void printTable() {
        // Wide enough for the registry's ids (the longest engine and mode ids are 10 and 9 characters).
        String format = "%-8s %-10s %-9s %-13s %5s %6s %10s %9s %9s %9s %9s %9s %7s %7s%n";
        console.printf(Locale.ROOT, "%n" + format, "server", "engine", "mode", "page", "conns", "rate", "req/s",
                "ttfb p50", "item1 p50", "ttlb p50", "ttlb p99", "cpu/req", "ceiling", "valid");
        for (Row r : rows) {
            console.printf(Locale.ROOT, format, r.server(), r.engine(), r.mode(), r.page(), r.connections(),
                    r.rate() == null ? "-" : r.rate(), Summary.text(r, "req_per_s"), Summary.text(r, "ttfb_p50_ms"),
                    Summary.text(r, "first_item_p50_ms"), Summary.text(r, "ttlb_p50_ms"),
                    Summary.text(r, "ttlb_p99_ms"), Summary.text(r, "cpu_ms_per_req"),
                    Summary.text(r, "ceiling_fraction"), r.valid());
            if (!r.valid()) {
                console.println("    " + r.note());
            }
        }
        console.println("(milliseconds; item1: the first item's markup; cpu/req: server CPU per request; ceiling:"
                + " throughput / the raw baseline's)");
        console.println("bench: results in " + sweep.out().toAbsolutePath());
        console.flush();
    }

    /** This sweep's record in provenance.json (a resumed sweep adds its own: the machine may have changed). */
    private void writeProvenance() throws IOException {
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("server_cpus", String.join(" ", sweep.serverCpuPrefix()));
        // What the servers ran with, defaults included (flags holds only what the user wrote).
        more.put("delay", Durations.format(sweep.delay()));
        more.put("source_scheduler", sweep.timers().id());
        Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
        sweep.combinations().forEach(c -> jvmFlags.put(c.server().id(), ServerProcess.jvmFlags(c.server())));
        more.put("server_jvm_flags", jvmFlags);
        Provenance.add(sweep.out(), Provenance.record("bench", "pssrbench bench (built in)", sweep.flags(), more));
    }
}
