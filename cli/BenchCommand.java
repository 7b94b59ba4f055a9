package cli;

import bench.Bench;
import bench.HyperfoilBenchmark;
import bench.HyperfoilDriver;
import bench.LoadGenerator;
import core.Combination;
import core.DataSource;
import core.CpuList;
import core.Durations;
import core.Logs;
import core.Page;
import core.Protocol;
import records.Provenance;
import records.ResultsFolder;
import core.ServeConfig;
import core.Signals;
import core.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code bench}: a sweep with the built-in load generator, each combination in its own server JVM. */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Measure combinations with the built-in load generator (by default every engine and mode"
                + " on ${bundle:registry.server}): each in its own server JVM, verified first, then every page x"
                + " connection count (x rate); results in --out.")
final class BenchCommand implements Callable<Integer> {
    /** The most connections a point may have: what stress's streams scenario opens, within a 20,000 file limit. */
    static final int MAX_CONNECTIONS = 10_000;
    /**
     * Five: with three per side no rank test can reach p < 0.05 (the smallest two-sided Mann-Whitney p is 0.1),
     * with five it is 0.008, so compare can tell a real difference; and 6 would first give a 95% interval for the
     * median (five give their range, a 93.75% interval).
     */
    static final String DEFAULT_REPEAT = "5";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Selection selection;

    @Option(names = "--page", split = ",", paramLabel = "ID", defaultValue = "stocks",
            description = "Pages (default: ${DEFAULT-VALUE}).")
    List<String> pages;

    // One point per combination by default, at the published study's headline concurrency: with repetitions and a
    // warm-up that reaches steady state, each point costs about half a minute per repetition, so the default spends
    // the time on measuring carefully rather than on a curve (name more counts for one).
    @Option(names = "--connections", split = ",", paramLabel = "N", defaultValue = "128",
            description = "Concurrent connections per point, up to " + BenchCommand.MAX_CONNECTIONS
                    + " (default: ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(names = "--protocol", split = ",", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "What the servers started here speak and the load generator uses, a comma list of h1"
                    + " (HTTP/1.1), h2c (HTTP/2 in clear text by prior knowledge) and h2 (HTTP/2 over TLS by ALPN,"
                    + " trusting the certificate bench made for the server): each combination in a server JVM of its"
                    + " own per protocol, the protocols interleaved in the shuffled order; with --target, the"
                    + " server's port must speak each (default: ${DEFAULT-VALUE}).")
    List<String> protocol;

    @Option(names = "--streams", split = ",", paramLabel = "N",
            description = "With --protocol=h2c or h2: HTTP/2 streams in flight on each connection, a point each"
                    + " over HTTP/2 (h1's points keep one request per connection; default: 1).")
    List<Integer> streams = List.of(1);

    @Option(names = "--rate", split = ",", paramLabel = "REQ_PER_S",
            description = "Open loop at these rates (requests/s); without it, a closed loop.")
    List<Double> rates = List.of();

    @Option(names = "--repeat", paramLabel = "N", defaultValue = DEFAULT_REPEAT,
            description = "Repetitions of every point, each in a fresh server JVM, the order shuffled per"
                    + " repetition (default: ${DEFAULT-VALUE}: the fewest for which compare can call a difference"
                    + " significant at 5%%).")
    int repeat;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the per-repetition shuffle of combinations and pages (default: a new one,"
                    + " recorded in provenance.json).")
    Long seed;

    @Option(names = "--warmup", paramLabel = "DURATION|auto", defaultValue = "auto",
            description = "Warm-up before each point: auto (until the throughput of the last "
                    + LoadGenerator.Steady.WINDOWS + " one-second windows is within "
                    + LoadGenerator.Steady.TOLERANCE_PCT + "%% of the " + LoadGenerator.Steady.WINDOWS + " before,"
                    + " at most --warmup-max) or a fixed duration (default:"
                    + " ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    String warmup;

    @Option(names = "--warmup-max", paramLabel = "DURATION", defaultValue = "60s",
            description = "The longest an auto warm-up may take; a point that is not steady by then is measured"
                    + " and says so in its note (default: ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    Duration warmupMax;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "5s",
            description = "Measured window of each point (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration duration;

    @Option(names = "--source-scheduler", paramLabel = "ID", defaultValue = DataSource.Timers.DEFAULT_TEXT,
            description = "Where the data source's delays run in each server: computation or io (as the published"
                    + " study's app) (default: ${DEFAULT-VALUE}).")
    DataSource.Timers timers;

    // serve's default on purpose: bench measures the servers at the delay they serve with by default (each server
    // JVM gets it as --delay).
    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = ServeConfig.DEFAULT_DELAY_TEXT,
            description = "Per-item delay of the data source (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration delay;

    @Option(names = "--load-threads", paramLabel = "N", defaultValue = "1",
            description = "Threads of the load generator (default: ${DEFAULT-VALUE}).")
    int loadThreads;

    @Option(names = "--server-cpus", paramLabel = "LIST",
            description = "Pin the server JVM to these CPUs (taskset -c LIST: numbers and ranges, e.g. 1 or"
                    + " 0-1,3).")
    String serverCpus;

    @Option(names = "--client-cpus", paramLabel = "LIST",
            description = "Pin this JVM, the load generator, to these CPUs (taskset -a -p -c LIST, same syntax).")
    String clientCpus;

    @Option(names = "--out", paramLabel = "DIR", description = "Results folder (default: results/<UTC timestamp>).")
    Path out;

    @Option(names = "--resume", description = "Continue the sweep in --out: measure the repetitions its runs.csv"
            + " does not hold yet, and again those whose window was not valid or disturbed (the earlier windows move"
            + " to runs-replaced.csv).")
    boolean resume;

    @Option(names = "--jfr", description = "Keep a JFR recording (JDK 'default' settings) of the server per point,"
            + " in jfr/.")
    boolean jfr;

    @Option(names = "--driver", paramLabel = "ID", defaultValue = "pssrbench",
            description = "The load generator: pssrbench (its own) or hyperfoil (Hyperfoil " + HyperfoilDriver.VERSION
                    + "'s engine in a JVM of its own, fetched by Maven; no TTFB or first item: see docs/hyperfoil.md)"
                    + " (default: ${DEFAULT-VALUE}).")
    String driver;

    @Option(names = "--export", paramLabel = "DIR", description = "With --driver=hyperfoil and --target: write each"
            + " point as a Hyperfoil benchmark (DIR/NAME.hf.yaml) for a Hyperfoil cluster instead of measuring.")
    Path export;

    @Option(names = "--agents", split = ",", paramLabel = "AGENT", description = "With --export: the Hyperfoil"
            + " agents for the agents: section, each [NAME=][user@]host[:port] (Hyperfoil's SSH deployer's syntax;"
            + " NAME defaults to agent-N) with optional ;key=value properties of Hyperfoil's agents (dir, cpu, extras;"
            + " node on Kubernetes), for example a1=localhost:2222;dir=/tmp/hf-a1.")
    List<String> agents = List.of();

    @Option(names = "--no-baseline", description = "Do not add the raw baseline engine on each selected server and"
            + " mode (then ceiling_fraction stays empty).")
    boolean noBaseline;

    @Override
    public Integer call() throws Exception {
        List<Page> chosenPages = pages.stream().<Page>map(Page::byId).toList();
        if (connections.stream().anyMatch(c -> c < 1) || loadThreads < 1) {
            throw new UsageException("--connections and --load-threads take whole numbers of at least 1.");
        }
        if (connections.stream().anyMatch(c -> c > MAX_CONNECTIONS)) {
            throw new UsageException("--connections takes at most " + MAX_CONNECTIONS + " per point.");
        }
        long files = bench.Kernel.fileLimits()[0];   // the JVM raised its soft limit to the hard one at start
        int most = connections.stream().mapToInt(Integer::intValue).max().orElse(1);
        if (files >= 0 && files < most + 200L) {
            throw new UsageException("--connections=" + most + " needs " + (most + 200) + " open files, and this"
                    + " process may open " + files + " (the hard limit, ulimit -Hn): raise it or use fewer.");
        }
        if (rates.stream().anyMatch(r -> r <= 0)) {
            throw new UsageException("--rate takes positive requests per second.");
        }
        if (duration.isZero()) {
            throw new UsageException("--duration must be longer than 0.");
        }
        if (repeat < 1) {
            throw new UsageException("--repeat takes a whole number of at least 1.");
        }
        boolean auto = warmup.equals("auto");
        Duration fixedWarmup;
        try {
            fixedWarmup = auto ? Duration.ZERO : Durations.parse(warmup);
        } catch (UsageException e) {
            throw new UsageException("--warmup takes auto or a duration: " + e.getMessage());
        }
        Duration least = LoadGenerator.Steady.of(warmupMax).least();
        if (auto && warmupMax.compareTo(least) < 0) {
            throw new UsageException("--warmup-max must be at least " + Durations.format(least) + ": auto compares"
                    + " two blocks of " + LoadGenerator.Steady.WINDOWS + " one-second windows.");
        }
        if (!driver.equals("pssrbench") && !driver.equals("hyperfoil")) {
            throw new UsageException("--driver takes pssrbench or hyperfoil.");
        }
        List<Protocol> over = BenchProtocols.check(protocol.stream().map(Protocol::byId).toList(), streams, Cli.given(spec, "--streams"),
                driver.equals("hyperfoil"), selection.target != null);
        if (export != null && !driver.equals("hyperfoil")) {
            throw new UsageException("--export writes Hyperfoil benchmarks: add --driver=hyperfoil.");
        }
        if (!agents.isEmpty() && export == null) {
            throw new UsageException("--agents names the hosts of an exported benchmark: add --export=DIR.");
        }
        HyperfoilBenchmark.agents(agents);   // a malformed agent fails here, before the target is asked
        if (export != null && selection.target == null) {
            throw new UsageException("--export needs --target=URL: the server the agents will load, running.");
        }
        if (export != null && selection.label != null) {
            throw new UsageException("--export writes the benchmarks of a PssrBench serve, not of a foreign app"
                    + " (--label): measure it with --driver=hyperfoil on this machine instead.");
        }
        if (resume && out == null) {
            throw new UsageException("--resume continues a sweep: name its folder with --out=DIR.");
        }
        Path folder = out != null ? out : Path.of("results", DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC).format(Instant.now()));
        ResultsFolder.checkWritable(folder, "--out");
        // Resumable: rows to go on from, or a sweep stopped before its first window (its provenance record only).
        if (resume && !Files.isRegularFile(out.resolve("summary.csv"))
                && !Files.isRegularFile(out.resolve(records.Repetitions.FILE))
                && !ResultsFolder.hasRunOf(out, "bench")) {
            throw new UsageException("nothing to resume: " + out + " has no summary.csv, "
                    + records.Repetitions.FILE + " or bench record in " + Provenance.FILE + ".");
        }
        if (serverCpus != null) {
            CpuList.check("--server-cpus", serverCpus);
        }
        if (clientCpus != null) {
            CpuList.check("--client-cpus", clientCpus);
        }
        if (selection.target != null && selection.target.regionMatches(true, 0, "https:", 0, 6)) {
            // --target resolves over TLS (its /info.json, --trust) for verify and browser, but bench's load generator
            // and its byte check speak clear-text HTTP/1.1: refused before any request rather than failing on each.
            throw new UsageException("bench measures over clear-text HTTP/1.1, its load generator has no TLS yet:"
                    + " give an http:// --target (verify and browser take https://).");
        }
        // The last check, after every usage error: one request to a running server, before anything is written.
        Foreign foreign = selection.foreign(delay, Cli.given(spec, "--delay"));
        Target running = foreign != null ? null : selection.target(delay, Cli.given(spec, "--delay"));
        List<Combination> chosen = foreign != null ? List.of() : running == null
                ? selection.combinations(List.of(Registry.SERVERS.get(0).id())) : List.of(running.combination());
        if (running != null) {
            BenchProtocols.spokenBy(running, over);
        } else {
            BenchProtocols.spokenBy(chosen, over);
        }
        // A foreign app's pages are checked before anything is measured or written; their bodies are the verified
        // ones the load generator compares every response with.
        bench.ForeignApp app = foreign == null ? null : foreign.app(chosenPages);
        URI target = running == null ? null : running.url();
        HyperfoilDriver hyperfoil = driver.equals("hyperfoil") ? HyperfoilDriver.prepare() : null;
        if (export != null) {
            List<Path> written = hyperfoil.export(running.combination(), chosenPages, connections, rates,
                    target, fixedWarmup, auto ? LoadGenerator.Steady.of(warmupMax) : null, duration, agents, export);
            var o = spec.commandLine().getOut();
            written.forEach(f -> o.println("bench: wrote " + f + " (Hyperfoil's parser accepts it)"));
            o.println("bench: run each on a Hyperfoil controller (upload, run, export -f JSON) and bring the"
                    + " exports back with: pssrbench hyperfoil-import --out=DIR RUN.json ... (docs/hyperfoil.md)");
            o.flush();
            return 0;
        }
        // Apart by default where the machine has the cores (4 or more): half for the server, half for the client.
        CpuList.Split split = serverCpus == null && clientCpus == null ? CpuList.split() : null;
        if (split != null && split.apart()) {
            serverCpus = split.server();
            clientCpus = split.client();
        }
        List<String> serverPrefix = serverCpus == null ? List.of() : List.of("taskset", "-c", serverCpus);
        if (clientCpus != null) {
            Process pin = new ProcessBuilder("taskset", "-a", "-p", "-c", clientCpus,
                    String.valueOf(ProcessHandle.current().pid())).redirectErrorStream(true).start();
            if (pin.waitFor() != 0) {
                throw new UsageException("cannot pin to CPUs '" + clientCpus + "': "
                        + new String(pin.getInputStream().readAllBytes()).strip() + ".");
            }
        }
        Logs.configure();
        Map<String, Object> flags = Provenance.flags(spec.commandLine().getParseResult());
        if (!noBaseline && target == null && foreign == null) {
            chosen = Bench.withBaselines(chosen, Registry.ENGINES, Registry.SERVERS);
        }
        flags.put("selected", chosen.stream().map(Combination::toString).toList());
        if (running != null) {   // which server was measured, and where: the URL as checked, its host resolved
            flags.put("measured", running.note());
        }
        if (foreign != null) {
            flags.put("measured", foreign.note());
            flags.put("foreign", foreign.provenance());
        }
        flags.put("cpu_sets", split != null ? split.text() : "given: server " + (serverCpus == null ? "any"
                : serverCpus) + ", load generator " + (clientCpus == null ? "any" : clientCpus));
        // Resumed without --seed: the order the sweep began with, so that the windows still to measure are the ones it
        // would have measured next.
        java.util.TreeSet<String> recordedSeeds = resume ? Provenance.recorded(folder, "bench", "seed")
                : new java.util.TreeSet<>();
        long shuffle = seed != null ? seed : recordedSeeds.size() == 1 ? Long.parseLong(recordedSeeds.first())
                : new java.security.SecureRandom().nextLong() >>> 16;
        var sweep = new Bench.Sweep(chosen, chosenPages, connections, rates, fixedWarmup,
                auto ? LoadGenerator.Steady.of(warmupMax) : null, duration, repeat, shuffle, delay, timers,
                loadThreads, folder, serverPrefix, flags, resume, jfr, target, app, hyperfoil, over, streams);
        if (running != null) {
            spec.commandLine().getOut().println("bench: " + running.note());
        }
        if (foreign != null) {
            spec.commandLine().getOut().println("bench: " + foreign.note());
        }
        Bench bench = new Bench(sweep, spec.commandLine().getOut());
        Runnable restoreSignals = Signals.onTermination(bench::stop);
        try {
            int invalid = bench.run();
            if (invalid < 0) {   // 130: stopped by Ctrl-C, as shells report it; one sentence, as for an error
                spec.commandLine().getErr().println("pssrbench: " + bench.stoppedSentence());
                spec.commandLine().getErr().flush();
                return 130;
            }
            return invalid == 0 ? 0 : 1;
        } finally {
            restoreSignals.run();
        }
    }
}
