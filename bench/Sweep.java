package bench;

import base.Durations;
import harness.ServerProcess;
import http.Protocol;
import load.H2Load;
import load.LoadGenerator;
import model.Engine;
import model.Page;
import site.Combination;
import site.Server;
import tables.Provenance;
import tables.Row;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * What {@link Bench} sweeps, and in what order: the configuration ({@link BenchConfig}, its seed and results folder
 * chosen) and what the command resolved from it: the combinations (the baselines added), a server running elsewhere
 * ({@code target}: its URL, null when bench starts the servers) or foreign apps ({@code foreign}: a --target with
 * --label, or each route of a --targets file; their tasks have no combination), the prepared load driver, and the
 * flags as the user wrote them (provenance.json's).
 */
public record Sweep(BenchConfig config, List<Combination> combinations, URI target, List<ForeignApp> foreign,
                    LoadDriver driver, Map<String, Object> flags) {

    public Sweep {
        if (config.windows().seed() == null || config.folder().out() == null) {
            throw new IllegalArgumentException("a sweep's seed and results folder are chosen before it starts");
        }
        foreign = List.copyOf(foreign);
        if (foreign.stream().map(ForeignApp::label).distinct().count() < foreign.size()) {
            throw new IllegalArgumentException("each foreign app of a sweep has a label of its own");
        }
    }

    /** The servers started here, the configuration's driver as it is (not prepared): enough for its plan. */
    public Sweep(BenchConfig config, List<Combination> combinations) {
        this(config, combinations, null, List.of(), config.load().loadDriver(), Map.of());
    }

    /** The foreign app whose rows carry {@code label}. */
    ForeignApp foreign(String label) {
        return foreign.stream().filter(a -> a.label().equals(label)).findFirst().orElseThrow();
    }

    /** Whether no server is started here: a --target, or foreign apps. */
    boolean elsewhere() {
        return target != null || !foreign.isEmpty();
    }

    /** What the server JVM of {@code task} serves: its combination, protocol and pool size at the sweep's delay. */
    site.ServeConfig serveConfig(Task task) {
        return site.ServeConfig.of(task.combination(), servers().delay()).withTimers(servers().timers())
                .withProtocol(task.protocol()).withThreads(task.threads());
    }

    /**
     * The JVM options bench gives the server JVM of a task after the server's own: --server-jvm's, then {@code aot}
     * (its AOT cache's), so that an option of the user's can never displace the cache's.
     */
    public List<String> serverJvmFlags(List<String> aot) {
        return ServerJvm.concat(servers().serverJvm(), aot);
    }

    /** The tool column of this sweep's rows: its driver's ({@code --driver}). */
    public String tool() {
        return driver.about().tool();
    }

    public BenchConfig.Points points() {
        return config.points();
    }

    public BenchConfig.Windows windows() {
        return config.windows();
    }

    public BenchConfig.Servers servers() {
        return config.servers();
    }

    public Path out() {
        return config.folder().out();
    }

    public int repeat() {
        return config.windows().repeat();
    }

    public long seed() {
        return config.windows().seed();
    }

    /** The command the servers started here run under: taskset on --server-cpus, or nothing. */
    public List<String> serverCpuPrefix() {
        String cpus = config.servers().serverCpus();
        return cpus == null ? List.of() : List.of("taskset", "-c", cpus);
    }

    /**
     * One repetition of one combination over one protocol with one pool size (a server JVM started with
     * {@code --threads=threads}): its points, pages in this order.
     */
    record Task(int repetition, Combination combination, Protocol protocol, int threads, List<Point> points) {
    }

    /**
     * What one server JVM serves in a repetition: a combination over a protocol, its platform pool of {@code threads}
     * (serve's default where the combination has none); or the foreign app labelled {@code app} (combination null).
     */
    record Unit(Combination combination, String app, Protocol protocol, int threads) {
        Unit(Combination combination, Protocol protocol, int threads) {
            this(combination, null, protocol, threads);
        }
    }

    /**
     * The repetitions still to measure ({@code done}: the repetitions already settled, by point key), in the order
     * to measure them: repetition by repetition, the combinations and the pages shuffled for each from the seed (the
     * connection counts and rates ascending within a page).
     */
    List<Task> plan(Map<String, Set<Integer>> done) {
        List<Task> tasks = new ArrayList<>();
        for (int rep = 1; rep <= repeat(); rep++) {
            tasks.addAll(plan(rep, done, p -> true));
        }
        return tasks;
    }

    /**
     * Repetition {@code rep}'s tasks: of the points {@code wanted} (all of them up to --repeat; beyond it, those
     * whose interval --precision finds too wide), the ones not {@code done}, in the order the seed gives that
     * repetition.
     */
    List<Task> plan(int rep, Map<String, Set<Integer>> done, java.util.function.Predicate<Point> wanted) {
        BenchConfig.Points at = points();
        List<Task> tasks = new ArrayList<>();
        Random order = new Random(seed() * 31 + rep);
        // Combination by combination, protocol by protocol, pool size by pool size: with one protocol and one pool
        // size the list (and so the order a seed gives) is the combinations' alone, as sweeps measured before
        // --protocol and --threads took a list were ordered. The foreign apps after them, in their given order, each a
        // task shuffled among the combinations' (one app is ordered as before --targets).
        List<Unit> units = new ArrayList<>();
        for (Combination c : combinations) {
            for (Protocol p : at.protocols()) {
                at.threads(c).forEach(t -> units.add(new Unit(c, p, t)));
            }
        }
        for (ForeignApp app : foreign) {
            for (Protocol p : at.protocols()) {
                at.threads(null).forEach(t -> units.add(new Unit(null, app.label(), p, t)));
            }
        }
        Collections.shuffle(units, order);
        for (Unit unit : units) {
            Combination c = unit.combination();
            List<Page> pages = new ArrayList<>(at.pages());
            Collections.shuffle(pages, order);
            List<Point> points = new ArrayList<>();
            for (Page page : pages) {
                for (int connections : at.connections()) {
                    for (int streams : at.streams(unit.protocol())) {
                        for (double rate : at.rates().isEmpty() ? List.of(0.0) : at.rates()) {
                            Point p = c == null ? Point.foreign(unit.app(), page, connections, rate,
                                    unit.protocol(), streams)
                                    : new Point(c, page, connections, rate, unit.protocol(), streams,
                                    unit.threads());
                            if (wanted.test(p)
                                    && !done.getOrDefault(PointRows.key(tool(), p), Set.of()).contains(rep)) {
                                points.add(p);
                            }
                        }
                    }
                }
            }
            if (!points.isEmpty()) {
                tasks.add(new Task(rep, c, unit.protocol(), unit.threads(), points));
            }
        }
        return tasks;
    }

    /** Every window of the plan, by point key and repetition. */
    List<RunsFile.Planned> planned(List<Task> todo) {
        return todo.stream().flatMap(t -> t.points().stream().map(p -> new RunsFile.Planned(
                PointRows.key(tool(), p), t.repetition()))).toList();
    }

    /** How long the plan will take ({@link Estimate}). */
    Estimate estimate(List<Task> todo) {
        return Estimate.of(todo.stream().map(t -> new Estimate.Repetition(t.combination(), t.points().size(),
                (int) t.points().stream().map(Point::page).distinct().count(), t.repetition())).toList(),
                windows().fixedWarmup(), windows().steady(), windows().duration(),
                windows().settleTime(), windows().fixedWindows(),
                elsewhere(), elsewhere() || AotTraining.off(servers().noAotCache()) != null ? 0
                        : untrained(todo, harness.AotCache.folder(System.getenv())));
    }

    /** How many of the plan's server units have no AOT cache in {@code folder} yet: each is trained first. */
    int untrained(List<Task> todo, Path folder) {
        Set<String> seen = new java.util.HashSet<>();
        int missing = 0;
        for (Task t : todo) {
            String unit = Point.label(t.combination(), t.protocol());
            if (!seen.add(unit)) {
                continue;   // a unit's key (a hash over the class path) once, not once per repetition
            }
            try {
                String key = AotTraining.key(t.combination(), t.protocol(), servers().serverJvm());
                missing += java.nio.file.Files.isRegularFile(harness.AotCache.file(folder, unit, key)) ? 0 : 1;
            } catch (java.io.IOException e) {   // the class path unreadable: then training is what will fail
                missing++;
            }
        }
        return missing;
    }

    /** This sweep's record in provenance.json (a resumed sweep adds its own: the machine may have changed). */
    Map<String, Object> provenance() {
        BenchConfig.Windows w = windows();
        LoadGenerator.Steady steady = w.steady();
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("server_cpus", String.join(" ", serverCpuPrefix()));
        // What the servers ran with, defaults included (flags holds only what the user wrote).
        more.put("delay", Durations.format(servers().delay()));
        more.put("source_scheduler", servers().timers().id());
        more.put("repeat", repeat());
        more.put("seed", seed());
        more.put("warmup", steady == null ? Durations.format(w.fixedWarmup())
                : "auto: until " + steady.windows() + " one-second windows are within "
                + Math.round(steady.tolerance() * 100) + "%, at most " + Durations.format(steady.max()));
        more.put("duration", Durations.format(w.duration()));
        more.put("settle", w.settle());
        more.put("windows", w.windows().equals(BenchConfig.AUTO) ? "auto: Kalibera-Jones from each point's variance"
                + " components, two per JVM until two JVMs measured two" : w.windows());
        more.put("precision", w.precision().equals(BenchConfig.OFF) ? "off: exactly " + repeat() + " repetitions"
                : "±" + w.precision() + "% of the median (95% interval of req_per_s), " + repeat() + " to "
                + w.repeatMax() + " repetitions");
        // What the load generator spoke (every row says it too) and, over HTTP/2, how: its windows above all.
        more.put("protocol", String.join(",", points().protocols().stream().map(Protocol::id).toList()));
        more.put("streams", points().streams());
        // The pool sizes, and what they sized: the server JVMs of the others started at serve's default, unused.
        more.put("threads", points().threads());
        more.put("threads_sized", elsewhere() ? List.of() : combinations.stream()
                .filter(c -> c.serving().onPlatformPool()).map(Combination::toString).toList());
        if (points().http2()) {
            more.put("http2_client", H2Load.describe());
        }
        more.put("disturbed_when", "foreign CPU > " + Row.DISTURBED_FOREIGN_CPU + " cores or steal > "
                + Row.DISTURBED_STEAL_PCT + "% over a measured window; measured again up to " + Row.DISTURBED_ATTEMPTS
                + " windows in all");
        // What each measured mode ran on, its threads named (the suspendable mode's coroutine dispatcher among them):
        // the threads column counts every thread of the server JVM (/proc/PID/status), whatever started it.
        Map<String, String> modes = new LinkedHashMap<>();
        combinations.forEach(c -> modes.put(c.mode().id(), c.mode().summary()));
        more.put("modes", modes);
        Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
        combinations.forEach(c -> jvmFlags.put(c.server().id(), ServerJvm.concat(ServerProcess.jvmFlags(c.server()),
                servers().serverJvm())));
        more.put("server_jvm_flags", jvmFlags);
        // Whether the servers started from an AOT cache (each one's key, file, size and training: the outcome's).
        more.put("aot_cache", elsewhere() ? "off: no server started here"
                : AotTraining.describe(servers().noAotCache()));
        return Provenance.record("bench", driver.about().provenance(), flags, more);
    }

    /**
     * The selection plus the raw baseline on every selected server and mode it is not already there for, the
     * baselines first on each server.
     */
    public static List<Combination> withBaselines(List<Combination> selected, List<Engine> engines,
                                                  List<Server> servers) {
        Set<Combination> all = new java.util.LinkedHashSet<>(selected);
        for (Combination c : selected) {
            for (Engine e : engines) {
                if (e.baseline() && c.mode().supports(e)) {
                    all.add(new Combination(c.server(), e, c.mode()));
                }
            }
        }
        return all.stream().sorted(java.util.Comparator.comparingInt((Combination c) -> servers.indexOf(c.server()))
                .thenComparing(c -> !c.engine().baseline())).toList();
    }
}
