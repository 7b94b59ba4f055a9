package bench;

import base.UsageException;
import harness.ServerProcess;
import model.Engine;
import model.Page;
import report.Report;
import site.Combination;
import stats.Repetitions;
import stats.ScalesTo;
import tables.Metric;
import tables.Provenance;
import tables.Row;
import tables.Summary;
import verify.Reference;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench}: every selected point measured {@code repeat} times, each repetition of a combination in a server JVM
 * of its own (verified once, before its first repetition), the combinations and pages in an order shuffled anew for
 * each repetition from a recorded seed, so that drift and a neighbour's load spread over all of them instead of
 * landing on one. Each measured window is a row of {@code runs.csv} as soon as it ends (an interrupted sweep keeps
 * it, and {@code --resume} measures the repetitions missing and again those whose window was not valid or disturbed,
 * {@link RunsFile}); {@code summary.csv} is rewritten from runs.csv after each, one row per point: medians and
 * intervals ({@link Repetitions}). A window that the rest of the machine
 * disturbed is measured again, at most {@link #ATTEMPTS} times in all. This class runs the sweep (what is already
 * done, the servers, the repetitions, the rows); which points in what order are {@link Sweep}'s, what it prints
 * {@link BenchConsole}'s, a combination's checks {@link CombinationCheck}'s, a point's measurement
 * {@link PointMeasurement}'s and its load driver's ({@link LoadDriver}).
 */
public final class Bench {

    /** The most windows one repetition of a point is measured in: the first and two more if it was disturbed. */
    static final int ATTEMPTS = Row.DISTURBED_ATTEMPTS;
    /** bench's exit status when a server died more often than {@link ServerDeath#AGAIN} allows ({@link #died}). */
    public static final int SERVER_DIED = 3;

    private final Sweep sweep;
    private final BenchConsole console;
    private final RunsFile runs;
    private final List<Row> others = new ArrayList<>();
    private List<Row> rows = List.of();
    /** The ids of the selection's baseline engines: whose throughput is every point's ceiling. */
    private final Set<String> baselines;
    private final PointMeasurement measurement;
    private final CombinationCheck check;
    /** The server JVMs' AOT caches; null when they start without one (AotTraining.off says why). */
    private final AotTraining aot;
    private final PhaseLog phases;
    private volatile boolean stopped;
    /** Set when a server died once more than {@link ServerDeath#AGAIN} allows: the sentence bench ends with. */
    private String died;
    /** The windows this run measured (a resumed sweep's earlier ones not counted): its provenance record's. */
    private int added;

    public Bench(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.console = new BenchConsole(sweep, console);
        Set<String> chosen = engines().stream().filter(Engine::baseline).map(Engine::id)
                .collect(java.util.stream.Collectors.toSet());
        // None selected (a foreign app measured into a sweep's folder): the report's baseline id, so that the rows
        // found there keep their ceilings when summary.csv is rewritten.
        this.baselines = chosen.isEmpty() ? Set.of(baselineId()) : chosen;
        BenchConfig.Windows w = sweep.windows();
        this.measurement = new PointMeasurement(w.fixedWarmup(), w.steady(), w.duration(),
                sweep.config().load().loadThreads(), sweep.servers().jfr(), sweep.out(), sweep.driver());
        this.check = new CombinationCheck(sweep.out().resolve("logs"), sweep.servers().serverJvm(), () -> stopped);
        this.runs = new RunsFile(sweep.out());
        this.phases = new PhaseLog(sweep.out());
        this.aot = AotTraining.off(sweep.servers().noAotCache()) != null ? null : new AotTraining(
                harness.AotCache.folder(System.getenv()), sweep.out().resolve("logs"), sweep.servers().serverJvm(),
                this.console::println);
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
        Path runsCsv = sweep.out().resolve(Repetitions.FILE);
        // A sweep stopped before its first window left only its provenance record: still a sweep, to --resume.
        boolean earlier = Files.exists(runsCsv) || Files.exists(csv) && Files.size(csv) > 0
                || tables.ResultsFolder.hasRunOf(sweep.out(), "bench");
        if (earlier && !sweep.config().folder().resume()) {
            throw new UsageException(sweep.out() + " already holds a sweep; continue it with --resume or choose"
                    + " another --out.");
        }
        if (earlier) {
            runs.load();
            others.addAll(runs.others(csv, sweep.tool(), sweep.out()));
        }
        Files.createDirectories(sweep.out().resolve("hgrm"));
        Files.createDirectories(sweep.out().resolve("logs"));
        if (sweep.servers().jfr()) {
            Files.createDirectories(sweep.out().resolve("jfr"));
        }
        Provenance.add(sweep.out(), sweep.provenance());
        // Servers started here without the cache they would have: said once (provenance.json records why).
        String aotOff = AotTraining.off(sweep.servers().noAotCache());
        if (aotOff != null && !sweep.servers().noAotCache() && !sweep.elsewhere()) {
            console.println("bench: the server JVMs start without an AOT cache: " + aotOff + ".");
        }

        List<Sweep.Task> todo = sweep.plan(runs.settled());
        int[] progress = {0, todo.stream().mapToInt(t -> t.points().size()).sum()};   // done, planned
        if (earlier) {
            console.println("bench: resuming in " + sweep.out() + ": " + runs.resuming(sweep.planned(todo)));
        }
        console.plan(progress[1], sweep.estimate(todo));
        long started = System.nanoTime();
        var expected = Reference.renderAll(engines());
        Map<Sweep.Unit, String> verified = new HashMap<>();   // once per combination and protocol, at any pool size
        for (Sweep.Task task : todo) {
            if (!stopped) {
                runTask(task, verified, expected, progress, started);
            }
        }
        // --precision: one fresh JVM more, round by round, for each point whose interval is still too wide.
        for (int rep = sweep.repeat() + 1; rep <= sweep.windows().repeatMax() && !stopped; rep++) {
            Set<String> wide = Precision.tooWide(rows, sweep.windows(), sweep.tool());
            if (wide.isEmpty()) {
                break;
            }
            List<Sweep.Task> more = sweep.plan(rep, runs.settled(), p -> wide.contains(PointRows.key(sweep.tool(),
                    p)));
            progress[1] += more.stream().mapToInt(t -> t.points().size()).sum();
            if (!more.isEmpty()) {
                console.println(String.format(java.util.Locale.ROOT, "bench: %d point%s wider than ±%s%% of the"
                        + " median: repetition %d (at most %d)", wide.size(), wide.size() == 1 ? "" : "s",
                        sweep.windows().precision(), rep, sweep.windows().repeatMax()));
            }
            for (Sweep.Task task : more) {
                if (!stopped) {
                    runTask(task, verified, expected, progress, started);
                }
            }
        }
        Provenance.finish(sweep.out(), Map.of("stopped", stopped, "windows_measured", added, "windows_replaced",
                runs.moved(), "aot_caches", aot == null ? List.of() : aot.records()));
        if (rows.isEmpty()) {   // stopped before a first window: no figure, so no table or report
            if (!stopped) {
                console.println("bench: no window was measured.");
            }
        } else {
            console.table(rows);
            console.println("bench: report in " + Report.write(sweep.out(), baselineId()).toAbsolutePath());
        }
        console.flush();
        if (stopped) {
            return -1;
        }
        return (int) rows.stream().filter(r -> !r.valid()).count();
    }

    /** One repetition of a combination: verified once (the first time), then its points in a server JVM of its own. */
    private void runTask(Sweep.Task task, Map<Sweep.Unit, String> verified, Map<Page, Map<Engine, byte[]>> expected,
                         int[] progress, long started) throws IOException, InterruptedException {
        Combination c = task.combination();
        if (c == null) {   // a foreign app: its pages passed ForeignCheck before the sweep began
            measureAll(task, null, null, null, expected, progress, started);
            return;
        }
        if (sweep.target() != null) {   // someone else's server: checked for bytes, not verified or sampled
            String problem = CombinationCheck.checkBytes(sweep.target(), null, expected);
            measureAll(task, sweep.target(), null, problem, expected, progress, started);
            return;
        }
        // Verified at serve's pool size: its pages and bytes are the same on any (each JVM's bytes are checked).
        Sweep.Unit unit = new Sweep.Unit(c, task.protocol(), site.ServeConfig.DEFAULT_THREADS);
        long verifying = System.nanoTime();
        if (!verified.containsKey(unit)) {   // the same jar and flags every repetition
            String why = check.verify(c, task.protocol());
            verified.put(unit, why == null ? "" : why);
        }
        verifying = System.nanoTime() - verifying;
        if (stopped) {
            return;
        }
        String unverified = verified.get(unit).isEmpty() ? null : verified.get(unit);
        String label = Point.label(c, task.protocol(), task.threads());
        for (int again = 0; !stopped; again++, verifying = 0) {   // verified once, before its first JVM
            ServerDeath death = inServer(task, label, unverified, verifying, expected, progress, started);
            if (death == null) {
                return;
            }
            runs.measureAgain(PointRows.key(sweep.tool(), death.point()), task.repetition(), "the server died");
            String sentence = death.sentence(task, label, again < ServerDeath.AGAIN ? again + 1 : 0,
                    runs.rows().size(), sweep.out());
            console.println("bench: " + sentence);
            if (again == ServerDeath.AGAIN) {   // bench ends, keeping every window (run() then returns -1)
                died = sentence;
                stopped = true;
                return;
            }
            task = death.rest(task);
            progress[1] += task.points().size();
        }
    }

    /** One repetition in a server JVM of its own; how it died if it ended on its own, else null. */
    private ServerDeath inServer(Sweep.Task task, String label, String unverified, long verifying,
                                 Map<Page, Map<Engine, byte[]>> expected, int[] progress, long started)
            throws IOException, InterruptedException {
        Combination c = task.combination();
        Path log = RunsFile.unused(sweep.out().resolve("logs"), label + ".rep" + task.repetition(), ".server.log");
        ServerProcess[] ran = {null};   // for its phases, once closed
        ServerDeath death = null;
        try (ServerProcess server = ServerProcess.start(sweep.serveConfig(task), sweep.serverCpuPrefix(),
                sweep.serverJvmFlags(aot == null ? List.of() : aot.flags(c, task.protocol(), expected)), log)) {
            ran[0] = server;
            String problem = unverified != null ? unverified
                    : CombinationCheck.checkBytes(server.base(), server.tls(), expected);
            death = measureAll(task, server.base(), server, problem, expected, progress, started);
        } catch (IOException e) {
            for (Point p : task.points()) {
                progress[0]++;
                record(PointRows.failed(sweep.tool(), p, e.getMessage()).with(Metric.WINDOW, 1), task.repetition());
            }
        }
        phases.record(task.repetition(), label, verifying, aot == null ? 0 : aot.lastNanos(), ran[0]);
        return death;
    }

    /** After {@link #run} returned -1 because a server died too often, the sentence that says so (else null). */
    public String died() {
        return died;
    }

    /**
     * After {@link #run} returned -1, the sentence that says so (for stderr): what is kept and how to go on. A sweep
     * stopped before its first window is resumed as well: its provenance record holds its settings.
     */
    public String stoppedSentence() {
        return stoppedSentence(runs.rows().size(), sweep.out());
    }

    /** The same for a sweep into {@code out} that kept {@code kept} windows (0: stopped before it began). */
    public static String stoppedSentence(int kept, Path out) {
        String what = kept == 0 ? "stopped before a first window" : "stopped; " + kept
                + " measured windows kept in " + out;
        return what + "; measure " + (kept == 0 ? "it" : "the rest") + " with the same flags and --resume --out="
                + out + ".";
    }

    /**
     * The points of one repetition of a combination against one server ({@code server} null: not started here); how
     * that server died if it ended on its own before the last of them (the window it died in recorded as such).
     */
    private ServerDeath measureAll(Sweep.Task task, URI base, ServerProcess server, String problem,
                            Map<Page, Map<Engine, byte[]>> expected, int[] progress, long started)
            throws IOException, InterruptedException {
        Map<Page, Double> floors = new java.util.LinkedHashMap<>();
        // The pages whose JVM warm-up at their heaviest point reached steady state: their points then only settle.
        // A server that died cuts the warm-up or window under way short, as Ctrl-C does: its end is not measured.
        java.util.function.BooleanSupplier cut = () -> stopped || server != null && !server.alive();
        Set<Page> warm = problem != null || stopped ? Set.of() : WarmOnce.pages(task, base, server, expected,
                measurement, sweep.windows().settleTime(), cut);
        for (int i = 0; i < task.points().size() && !stopped; i++) {
            Point p = task.points().get(i);
            if (ServerDeath.ended(server, null)) {   // in the warm-up, or between two points
                return new ServerDeath(i, p, false, server.ended());
            }
            console.progress(++progress[0], progress[1], started, p, task.repetition());
            if (problem != null) {
                record(PointRows.failed(sweep.tool(), p, problem).with(Metric.WINDOW, 1), task.repetition());
                continue;
            }
            double floor = floors.computeIfAbsent(p.page(), page -> PointMeasurement.sourceFloor(server, page));
            // A foreign app's own body is its ForeignApp's; PssrBench's, every engine's rendering.
            byte[] body = p.app() != null ? null : expected.get(p.page()).values().iterator().next();
            String key = PointRows.key(sweep.tool(), p);
            // A repetition measured again (--resume) numbers its windows on from its earlier ones': their files stay.
            int ever = runs.windowsEver(key, task.repetition());
            int windows = Precision.windowsOf(key, runs.rows(), sweep.windows());
            // Warmed once (WarmOnce, --settle): every window only settles; else the first warms up, a later one (the
            // same load in the same JVM, new connections only) waits NEXT_WINDOW, and a window measured again as its
            // first attempt did.
            boolean pageWarm = warm.contains(p.page());
            for (int w = 1; w <= windows && !stopped; w++) {
                for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                    ever++;
                    String name = p.name() + "-rep" + task.repetition() + (w > 1 ? "-w" + w : "")
                            + (ever > w ? "-try" + ever : "");
                    PointMeasurement how = pageWarm ? measurement.settling(sweep.windows().settleTime())
                            : w > 1 ? measurement.settling(BenchConfig.NEXT_WINDOW) : measurement;
                    Row row = p.app() != null ? how.measure(sweep.foreign(p.app()), p, () -> stopped, name)
                            : how.measure(base, server, p, body, floor, cut, name);
                    if (stopped) {
                        return null;   // cut short: not a result
                    }
                    if (ServerDeath.ended(server, row)) {
                        ServerDeath death = new ServerDeath(i, p, true, server.ended());
                        record(death.row(sweep.tool()).with(Metric.WINDOW, w), task.repetition());
                        return death;
                    }
                    record(row.with(Metric.WINDOW, w), task.repetition());
                    if (!Boolean.TRUE.equals(row.disturbed()) || !row.valid()) {
                        break;
                    }
                    console.disturbed(row, attempt < ATTEMPTS);
                }
            }
        }
        return null;
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
        ScalesTo.apply(points.stream().map(ceilings::apply).toList()).forEach(all::add);   // scales_to: per series
        rows = all;
        Summary.write(sweep.out().resolve("summary.csv"), all);
        Summary.writeJson(sweep.out().resolve("summary.json"), all);
    }
}
