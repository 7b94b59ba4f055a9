package bench;

import core.Combination;
import core.DataSource;
import core.Durations;
import core.Engine;
import core.Page;
import core.Server;
import core.UsageException;
import records.Provenance;
import records.Repetitions;
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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * {@code bench}: every selected point measured {@code repeat} times, each repetition of a combination in a server JVM
 * of its own (verified once, before its first repetition), the combinations and pages in an order shuffled anew for
 * each repetition from a recorded seed, so that drift and a neighbour's load spread over all of them instead of
 * landing on one. Each measured window is a row of {@code runs.csv} as soon as it ends (an interrupted sweep keeps
 * it, and {@code --resume} measures the repetitions missing and again those whose window was not valid or disturbed,
 * {@link RunsFile}); {@code summary.csv} is rewritten from runs.csv after each, one row per point: medians and
 * intervals ({@link Repetitions}). A window that the rest of the machine
 * disturbed is measured again, at most {@link #ATTEMPTS} times in all. This class is the sweep (which points, in
 * what order, what is already done, the estimate, the table); a combination's checks are {@link CombinationCheck}'s,
 * a point's measurement {@link PointMeasurement}'s.
 */
public final class Bench {

    /**
     * What to sweep. {@code rates} empty means the closed loop; {@code target} null means servers started by bench,
     * else the one combination is measured at that URL as it runs. {@code steady} null: the fixed {@code warmup};
     * else the adaptive one. {@code seed}: the shuffles' seed. {@code foreign}: a foreign app measured too (its
     * task has no combination), or null. {@code protocols}: what the servers started here speak and the load
     * generator uses (h1, h2c or h2), each combination in a server JVM of its own per protocol, the (combination,
     * protocol) pairs shuffled together so that the protocols are compared interleaved, not one after the other;
     * {@code streams}: HTTP/2 streams in flight per connection, a point each over HTTP/2 (over HTTP/1.1 one request
     * at a time per connection, whatever the list).
     */
    public record Sweep(List<Combination> combinations, List<Page> pages, List<Integer> connections,
                        List<Double> rates, Duration warmup, LoadGenerator.Steady steady, Duration duration,
                        int repeat, long seed, Duration delay, DataSource.Timers timers, int loadThreads,
                        Path out, List<String> serverCpuPrefix, Map<String, Object> flags, boolean resume,
                        boolean jfr, URI target, ForeignApp foreign, HyperfoilDriver hyperfoil,
                        List<core.Protocol> protocols, List<Integer> streams) {

        public Sweep {
            protocols = List.copyOf(new LinkedHashSet<>(protocols));
            if (protocols.isEmpty()) {
                throw new IllegalArgumentException("a sweep measures over at least one protocol");
            }
        }

        /** Over HTTP/1.1, one request at a time per connection. */
        public Sweep(List<Combination> combinations, List<Page> pages, List<Integer> connections,
                     List<Double> rates, Duration warmup, LoadGenerator.Steady steady, Duration duration,
                     int repeat, long seed, Duration delay, DataSource.Timers timers, int loadThreads,
                     Path out, List<String> serverCpuPrefix, Map<String, Object> flags, boolean resume,
                     boolean jfr, URI target, ForeignApp foreign, HyperfoilDriver hyperfoil) {
            this(combinations, pages, connections, rates, warmup, steady, duration, repeat, seed, delay, timers,
                    loadThreads, out, serverCpuPrefix, flags, resume, jfr, target, foreign, hyperfoil,
                    List.of(core.Protocol.H1), List.of(1));
        }

        /** With PssrBench's own load generator. */
        public Sweep(List<Combination> combinations, List<Page> pages, List<Integer> connections,
                     List<Double> rates, Duration warmup, LoadGenerator.Steady steady, Duration duration,
                     int repeat, long seed, Duration delay, DataSource.Timers timers, int loadThreads,
                     Path out, List<String> serverCpuPrefix, Map<String, Object> flags, boolean resume,
                     boolean jfr, URI target, ForeignApp foreign) {
            this(combinations, pages, connections, rates, warmup, steady, duration, repeat, seed, delay, timers,
                    loadThreads, out, serverCpuPrefix, flags, resume, jfr, target, foreign, null);
        }

        /** The tool column of this sweep's rows: PssrBench's generator's or Hyperfoil's ({@code --driver}). */
        public String tool() {
            return hyperfoil == null ? PointRows.TOOL : records.HyperfoilImport.TOOL;
        }

        /** The streams per connection measured over {@code p}: HTTP/1.1 has one request in flight per connection. */
        List<Integer> streams(core.Protocol p) {
            return p.http2() ? streams : List.of(1);
        }

        /** Whether any point is measured over HTTP/2. */
        boolean http2() {
            return protocols.stream().anyMatch(core.Protocol::http2);
        }
    }

    /** The most windows one repetition of a point is measured in: the first and two more if it was disturbed. */
    static final int ATTEMPTS = Row.DISTURBED_ATTEMPTS;

    private final Sweep sweep;
    private final PrintWriter console;
    private final RunsFile runs;
    private final List<Row> others = new ArrayList<>();
    private List<Row> rows = List.of();
    /** The ids of the selection's baseline engines: whose throughput is every point's ceiling. */
    private final Set<String> baselines;
    private final PointMeasurement measurement;
    private final CombinationCheck check;
    private volatile boolean stopped;
    /** The windows this run measured (a resumed sweep's earlier ones not counted): its provenance record's. */
    private int added;

    public Bench(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.console = console;
        Set<String> chosen = engines().stream().filter(Engine::baseline).map(Engine::id)
                .collect(java.util.stream.Collectors.toSet());
        // None selected (a foreign app measured into a sweep's folder): the report's baseline id, so that the rows
        // found there keep their ceilings when summary.csv is rewritten.
        this.baselines = chosen.isEmpty() ? Set.of(baselineId()) : chosen;
        this.measurement = new PointMeasurement(sweep.warmup(), sweep.steady(), sweep.duration(), sweep.loadThreads(),
                sweep.jfr(), sweep.out(), sweep.hyperfoil());
        this.check = new CombinationCheck(sweep.out().resolve("logs"), () -> stopped);
        this.runs = new RunsFile(sweep.out());
    }

    /**
     * The selection plus the raw baseline on every selected server and mode it is not already there for, the
     * baselines first on each server.
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

    /** One repetition of one combination over one protocol (a server JVM): its points, pages in this order. */
    record Task(int repetition, Combination combination, core.Protocol protocol, List<Point> points) {
    }

    /** What one server JVM serves in a repetition: a combination (null: the foreign app) over a protocol. */
    private record Unit(Combination combination, core.Protocol protocol) {
    }

    /**
     * The repetitions still to measure, in the order to measure them: repetition by repetition, the combinations
     * and the pages shuffled for each from the seed (the connection counts and rates ascending within a page).
     */
    static List<Task> plan(Sweep sweep, Map<String, Set<Integer>> done) {
        List<Task> tasks = new ArrayList<>();
        for (int rep = 1; rep <= sweep.repeat(); rep++) {
            Random order = new Random(sweep.seed() * 31 + rep);
            List<Combination> combinations = new ArrayList<>(sweep.combinations());
            if (sweep.foreign() != null) {
                combinations.add(null);   // the foreign app's task: shuffled among the combinations
            }
            // Combination by combination, protocol by protocol: with one protocol the list (and so the order a seed
            // gives) is the combinations' alone, as sweeps measured before --protocol took a list were ordered.
            List<Unit> units = new ArrayList<>();
            for (Combination c : combinations) {
                sweep.protocols().forEach(p -> units.add(new Unit(c, p)));
            }
            Collections.shuffle(units, order);
            for (Unit unit : units) {
                Combination c = unit.combination();
                List<Page> pages = new ArrayList<>(sweep.pages());
                Collections.shuffle(pages, order);
                List<Point> points = new ArrayList<>();
                for (Page page : pages) {
                    for (int connections : sweep.connections()) {
                        for (int streams : sweep.streams(unit.protocol())) {
                            for (double rate : sweep.rates().isEmpty() ? List.of(0.0) : sweep.rates()) {
                                Point p = c == null ? Point.foreign(sweep.foreign().label(), page, connections, rate,
                                        unit.protocol(), streams)
                                        : new Point(c, page, connections, rate, unit.protocol(), streams);
                                if (!done.getOrDefault(PointRows.key(sweep.tool(), p), Set.of()).contains(rep)) {
                                    points.add(p);
                                }
                            }
                        }
                    }
                }
                if (!points.isEmpty()) {
                    tasks.add(new Task(rep, c, unit.protocol(), points));
                }
            }
        }
        return tasks;
    }

    /** Every window of the plan, by point key and repetition. */
    private List<RunsFile.Planned> planned(List<Task> todo) {
        return todo.stream().flatMap(t -> t.points().stream().map(p -> new RunsFile.Planned(
                PointRows.key(sweep.tool(), p), t.repetition()))).toList();
    }

    /**
     * Runs the sweep; returns the number of points that are not valid (failed verification included), or -1 when
     * it was stopped before the end.
     */
    public int run() throws IOException, InterruptedException {
        Path csv = sweep.out().resolve("summary.csv");
        Path runsCsv = sweep.out().resolve(Repetitions.FILE);
        // A sweep stopped before its first window left only its provenance record: still a sweep, to --resume.
        boolean earlier = Files.exists(runsCsv) || Files.exists(csv) && Files.size(csv) > 0
                || records.ResultsFolder.hasRunOf(sweep.out(), "bench");
        if (earlier && !sweep.resume()) {
            throw new UsageException(sweep.out() + " already holds a sweep; continue it with --resume or choose"
                    + " another --out.");
        }
        if (earlier) {
            runs.load();
            // bench's drivers (pssrbench, hyperfoil) keep their repetitions in runs.csv, whose summary is rewritten
            // from them; rows of a tool that has none there (wrk, an import) stay as they are.
            Set<String> repeated = new java.util.HashSet<>();
            runs.rows().forEach(r -> repeated.add(r.tool()));
            if (Files.exists(csv)) {
                for (Row row : Summary.read(csv)) {
                    if (repeated.contains(row.tool())) {
                        continue;
                    }
                    if (!row.tool().equals(sweep.tool())) {
                        others.add(row);   // another tool's rows in the same folder stay as they are
                    } else {   // this driver's rows without their repetitions
                        throw new UsageException(sweep.out() + " was measured before repetitions (it has no "
                                + Repetitions.FILE + "); measure again into another --out.");
                    }
                }
            }
        }
        Files.createDirectories(sweep.out().resolve("hgrm"));
        Files.createDirectories(sweep.out().resolve("logs"));
        if (sweep.jfr()) {
            Files.createDirectories(sweep.out().resolve("jfr"));
        }
        writeProvenance();

        List<Task> todo = plan(sweep, runs.settled());
        int total = todo.stream().mapToInt(t -> t.points().size()).sum();
        if (earlier) {
            console.println("bench: resuming in " + sweep.out() + ": " + runs.resuming(planned(todo)));
        }
        Estimate estimate = Estimate.of(todo.stream().map(t -> new Estimate.Repetition(t.combination(),
                t.points().size())).toList(), sweep.warmup(), sweep.steady(), sweep.duration(),
                sweep.target() != null || sweep.foreign() != null);
        console.printf(Locale.ROOT, "bench: %d combinations x %d repetitions%s, %d windows to measure: %s%n",
                sweep.combinations().size() + (sweep.foreign() != null ? 1 : 0), sweep.repeat(),
                sweep.protocols().size() == 1 ? "" : " x " + sweep.protocols().size() + " protocols (" + String.join(
                        ", ", sweep.protocols().stream().map(core.Protocol::id).toList()) + ", interleaved)",
                total, estimate.describe(sweep.steady()));
        console.flush();
        int[] progress = {0};
        long started = System.nanoTime();
        var expected = Reference.renderAll(engines());
        Map<Unit, String> verified = new HashMap<>();   // once per combination and protocol
        for (Task task : todo) {
            if (stopped) {
                break;
            }
            Combination c = task.combination();
            if (c == null) {   // the foreign app: its pages passed ForeignCheck before the sweep began
                measureAll(task, null, null, null, expected, progress, total, started);
                continue;
            }
            if (sweep.target() != null) {   // someone else's server: checked for bytes, not verified or sampled
                String problem = CombinationCheck.checkBytes(sweep.target(), null, expected);
                measureAll(task, sweep.target(), null, problem, expected, progress, total, started);
                continue;
            }
            Unit unit = new Unit(c, task.protocol());
            if (!verified.containsKey(unit)) {   // the same jar and flags every repetition
                String why = check.verify(c, task.protocol());
                verified.put(unit, why == null ? "" : why);
            }
            if (stopped) {
                break;
            }
            String unverified = verified.get(unit).isEmpty() ? null : verified.get(unit);
            Path log = unused(sweep.out().resolve("logs"), Point.label(c, task.protocol()) + ".rep"
                    + task.repetition(), ".server.log");
            try (ServerProcess server = ServerProcess.start(core.ServeConfig.of(c, sweep.delay())
                    .withTimers(sweep.timers()).withProtocol(task.protocol()), sweep.serverCpuPrefix(), log)) {
                String problem = unverified != null ? unverified
                        : CombinationCheck.checkBytes(server.base(), server.tls(), expected);
                measureAll(task, server.base(), server, problem, expected, progress, total, started);
            } catch (IOException e) {
                for (Point p : task.points()) {
                    progress[0]++;
                    record(PointRows.failed(sweep.tool(), p, e.getMessage()), task.repetition());
                }
            }
        }
        Provenance.finish(sweep.out(), Map.of("stopped", stopped, "windows_measured", added, "windows_replaced",
                runs.moved()));
        if (rows.isEmpty()) {   // stopped before a first window: no figure, so no table or report
            if (!stopped) {
                console.println("bench: no window was measured.");
            }
        } else {
            printTable();
            console.println("bench: report in " + Report.write(sweep.out(), baselineId()).toAbsolutePath());
        }
        console.flush();
        if (stopped) {
            return -1;
        }
        return (int) rows.stream().filter(r -> !r.valid()).count();
    }

    /**
     * After {@link #run} returned -1, the sentence that says so (for stderr): what is kept and how to go on. A sweep
     * stopped before its first window is resumed as well: its provenance record holds its settings.
     */
    public String stoppedSentence() {
        int kept = runs.rows().size();
        String what = kept == 0 ? "stopped before a first window" : "stopped; " + kept
                + " measured windows kept in " + sweep.out();
        return what + "; measure " + (kept == 0 ? "it" : "the rest") + " with the same flags and --resume --out="
                + sweep.out() + ".";
    }

    /** The points of one repetition of a combination against one server ({@code server} null: not started here). */
    private void measureAll(Task task, URI base, ServerProcess server, String problem,
                            Map<Page, Map<Engine, byte[]>> expected, int[] progress, int total, long started)
            throws IOException, InterruptedException {
        Map<Page, Double> floors = new java.util.LinkedHashMap<>();
        for (Point p : task.points()) {
            if (stopped) {
                break;
            }
            progress(++progress[0], total, started, p, task.repetition());
            if (problem != null) {
                record(PointRows.failed(sweep.tool(), p, problem), task.repetition());
                continue;
            }
            double floor = floors.computeIfAbsent(p.page(), page -> PointMeasurement.sourceFloor(server, page));
            // A foreign app's own body is its ForeignApp's; PssrBench's, every engine's rendering.
            byte[] body = p.app() != null ? null : expected.get(p.page()).values().iterator().next();
            // A repetition measured again (--resume) numbers its windows on from its earlier ones': their files stay.
            int before = runs.windowsEver(PointRows.key(sweep.tool(), p), task.repetition());
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                int window = before + attempt;
                String name = p.name() + "-rep" + task.repetition() + (window > 1 ? "-try" + window : "");
                Row row = p.app() != null ? measurement.measure(sweep.foreign(), p, () -> stopped, name)
                        : measurement.measure(base, server, p, body, floor, () -> stopped, name);
                if (stopped) {
                    return;   // cut short: not a result
                }
                record(row, task.repetition());
                if (!Boolean.TRUE.equals(row.disturbed()) || !row.valid()) {
                    break;
                }
                console.printf(Locale.ROOT, "bench:   disturbed (foreign CPU %.2f cores, steal %.1f%%)%s%n",
                        row.foreignCpu() == null ? Double.NaN : row.foreignCpu(),
                        row.stealPct() == null ? Double.NaN : row.stealPct(),
                        attempt < ATTEMPTS ? "; measuring it again" : "; kept, marked disturbed");
                console.flush();
            }
        }
    }

    /** A measured window into runs.csv, and summary.csv and summary.json rewritten from all of them. */
    private void record(Row measured, int repetition) throws IOException {
        Row run = measured.withRepetition(repetition);
        runs.record(run);
        added++;
        List<Row> points = Repetitions.summarize(runs.rows());
        PointRows.Ceilings ceilings = new PointRows.Ceilings(baselines);
        points.forEach(ceilings::note);   // every baseline first: a point's ceiling may have been measured after it
        List<Row> all = new ArrayList<>(others);
        points.stream().map(ceilings::apply).forEach(all::add);
        rows = all;
        Summary.write(sweep.out().resolve("summary.csv"), all);
        Summary.writeJson(sweep.out().resolve("summary.json"), all);
    }

    private void progress(int done, int total, long started, Point p, int repetition) {
        long elapsed = System.nanoTime() - started;
        String eta = done == 1 ? "?" : Durations.format(Duration.ofSeconds(
                Math.round(elapsed / 1e9 / (done - 1) * (total - done + 1))));
        console.printf(Locale.ROOT, "bench: %d/%d repetition %d/%d %s %s c%d%s %s (ETA %s)%n", done, total,
                repetition, sweep.repeat(), p.describe(), p.page().id(), p.connections(),
                p.protocol() == core.Protocol.H1 && p.streams() == 1 ? "" : " " + p.protocol().id() + " x"
                        + p.streams() + " streams",
                p.rate() > 0 ? "rate " + (long) p.rate() + "/s" : "closed loop", eta);
        console.flush();
    }

    private void printTable() {
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

    /**
     * {@code dir/stem + ext}, or, when that file exists (a server log of a repetition measured again, or of one a
     * stopped sweep began), {@code dir/stem-2 + ext} and so on: an earlier window's log is not overwritten.
     */
    static Path unused(Path dir, String stem, String ext) {
        Path file = dir.resolve(stem + ext);
        for (int n = 2; Files.exists(file); n++) {
            file = dir.resolve(stem + "-" + n + ext);
        }
        return file;
    }

    /** This sweep's record in provenance.json (a resumed sweep adds its own: the machine may have changed). */
    private void writeProvenance() throws IOException {
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("server_cpus", String.join(" ", sweep.serverCpuPrefix()));
        // What the servers ran with, defaults included (flags holds only what the user wrote).
        more.put("delay", Durations.format(sweep.delay()));
        more.put("source_scheduler", sweep.timers().id());
        more.put("repeat", sweep.repeat());
        more.put("seed", sweep.seed());
        more.put("warmup", sweep.steady() == null ? Durations.format(sweep.warmup())
                : "auto: until " + sweep.steady().windows() + " one-second windows are within "
                + Math.round(sweep.steady().tolerance() * 100) + "%, at most " + Durations.format(sweep.steady().max()));
        more.put("duration", Durations.format(sweep.duration()));
        // What the load generator spoke (every row says it too) and, over HTTP/2, how: its windows above all.
        more.put("protocol", String.join(",", sweep.protocols().stream().map(core.Protocol::id).toList()));
        more.put("streams", sweep.streams());
        if (sweep.http2()) {
            more.put("http2_client", H2Load.describe());
        }
        more.put("disturbed_when", "foreign CPU > " + Row.DISTURBED_FOREIGN_CPU + " cores or steal > "
                + Row.DISTURBED_STEAL_PCT + "% over a measured window; measured again up to " + ATTEMPTS
                + " windows in all");
        // What each measured mode ran on, its threads named (the suspendable mode's coroutine dispatcher among them):
        // the threads column counts every thread of the server JVM (/proc/PID/status), whatever started it.
        Map<String, String> modes = new LinkedHashMap<>();
        sweep.combinations().forEach(c -> modes.put(c.mode().id(), c.mode().summary()));
        more.put("modes", modes);
        Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
        sweep.combinations().forEach(c -> jvmFlags.put(c.server().id(), ServerProcess.jvmFlags(c.server())));
        more.put("server_jvm_flags", jvmFlags);
        Provenance.add(sweep.out(), Provenance.record("bench", sweep.hyperfoil() == null
                ? "pssrbench bench (built in)" : "pssrbench bench --driver=hyperfoil: Hyperfoil " + HyperfoilDriver.VERSION
                + " (io.hyperfoil:hyperfoil-http, LocalSimulationRunner, in a JVM of its own)", sweep.flags(), more));
    }
}
