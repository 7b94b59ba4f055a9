package cli;

import base.Durations;
import base.UsageException;
import bench.Bench;
import bench.BenchConfig;
import bench.LoadDriver;
import bench.LoadDrivers;
import bench.Sweep;
import harness.CpuList;
import harness.Signals;
import http.Protocol;
import load.LoadGenerator;
import model.DataSource;
import model.Page;
import site.Combination;
import site.Logs;
import site.ServeConfig;
import tables.Provenance;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Selection selection;

    @CommandLine.Mixin
    PresetChoice preset;

    @Option(names = "--page", split = ",", paramLabel = "ID", defaultValue = BenchConfig.DEFAULT_PAGES,
            description = "Pages (default: ${DEFAULT-VALUE}).")
    List<String> pages;

    @Option(names = "--connections", split = ",", paramLabel = "N", defaultValue = BenchConfig.DEFAULT_CONNECTIONS,
            description = "Concurrent connections per point, up to " + BenchConfig.MAX_CONNECTIONS
                    + " (default: ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(names = "--protocol", split = ",", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "What the servers started here speak and the load generator uses, a comma list of h1"
                    + " (HTTP/1.1), h2c (HTTP/2 in clear text by prior knowledge) and h2 (HTTP/2 over TLS by ALPN,"
                    + " trusting the certificate bench made for the server): each combination in a server JVM of its"
                    + " own per protocol, the protocols interleaved in the shuffled order; with --target, the"
                    + " server's port must speak each (default: ${DEFAULT-VALUE}).")
    List<String> protocol;

    @Option(names = "--streams", split = ",", paramLabel = "N", defaultValue = BenchConfig.DEFAULT_STREAMS,
            description = "With --protocol=h2c or h2: HTTP/2 streams in flight on each connection, a point each"
                    + " over HTTP/2 (h1's points keep one request per connection; default: ${DEFAULT-VALUE}).")
    List<Integer> streams;

    @Option(names = "--threads", split = ",", paramLabel = "N", defaultValue = BenchConfig.DEFAULT_THREADS,
            description = "Platform pool sizes of the servers started here (serve --threads), a server JVM each: for"
                    + " the combinations that run their handlers or renders on that pool (the blocking mode, and"
                    + " javalin's modes with a platform handler), a point each; the others are measured once, at"
                    + " the default, which they do not use (default: ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--rate", split = ",", paramLabel = "REQ_PER_S",
            description = "Open loop at these rates (requests/s); without it, a closed loop.")
    List<Double> rates = List.of();

    @Option(names = "--repeat", paramLabel = "N", defaultValue = BenchConfig.DEFAULT_REPEAT,
            description = "Repetitions of every point, each in a fresh server JVM, the order shuffled per"
                    + " repetition: at least N with --precision, else exactly N (default: ${DEFAULT-VALUE}, the fewest"
                    + " whose median has a 95%% interval).")
    int repeat;

    @Option(names = "--precision", paramLabel = "PCT|off", defaultValue = BenchConfig.DEFAULT_PRECISION,
            description = "After --repeat, add repetitions (fresh JVMs) to each point whose throughput's 95%%"
                    + " interval is wider than PCT %% of its median on either side, up to --repeat-max; off: exactly"
                    + " --repeat (default: ${DEFAULT-VALUE}; docs/method.md says what it costs here).")
    String precision;

    @Option(names = "--repeat-max", paramLabel = "N",
            description = "The most repetitions --precision adds up to (default: " + BenchConfig.DEFAULT_REPEAT_MAX
                    + ", or --repeat if more).")
    int repeatMax;

    @Option(names = "--settle", paramLabel = "DURATION|off", defaultValue = BenchConfig.DEFAULT_SETTLE,
            description = "With --warmup=auto and several points per server JVM: the JVM warms up once, each page"
                    + " at its heaviest point, and then each point only settles for this long (not yet shown equal"
                    + " to full warm-ups at the highest load: docs/method.md); off: every point warms up until"
                    + " steady (default: ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    String settle;

    @Option(names = "--windows", paramLabel = "N|auto", defaultValue = BenchConfig.DEFAULT_WINDOWS,
            description = "Measured windows of each point in each server JVM, their mean the JVM's figure: auto"
                    + " chooses them per point from its between-JVM and within-JVM variance (Kalibera-Jones; two"
                    + " while they are unknown; not the default: a later window can read low, docs/method.md)"
                    + " (default: ${DEFAULT-VALUE}).")
    String windows;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the per-repetition shuffle of combinations and pages (default: a new one,"
                    + " recorded in provenance.json).")
    Long seed;

    @Option(names = "--warmup", paramLabel = "DURATION|auto", defaultValue = BenchConfig.DEFAULT_WARMUP,
            description = "Warm-up before each point: auto (until the throughput of the last "
                    + LoadGenerator.Steady.WINDOWS + " one-second windows is within "
                    + LoadGenerator.Steady.TOLERANCE_PCT + "%% of the " + LoadGenerator.Steady.WINDOWS + " before,"
                    + " at most --warmup-max) or a fixed duration (default:"
                    + " ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    String warmup;

    @Option(names = "--warmup-max", paramLabel = "DURATION", defaultValue = BenchConfig.DEFAULT_WARMUP_MAX,
            description = "The longest an auto warm-up may take; a point that is not steady by then is measured"
                    + " and says so in its note (default: ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    Duration warmupMax;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = BenchConfig.DEFAULT_DURATION,
            description = "Measured window of each point (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration duration;

    @Option(names = "--source-scheduler", paramLabel = "ID", defaultValue = DataSource.Timers.DEFAULT_TEXT,
            description = "Where the data source's delays run in each server: computation or io (as the published"
                    + " study's app) (default: ${DEFAULT-VALUE}).")
    DataSource.Timers timers;

    // serve's default on purpose: bench measures the servers at the delay they serve with (each gets it as --delay).
    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = ServeConfig.DEFAULT_DELAY_TEXT,
            description = "Per-item delay of the data source (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration delay;

    @Option(names = "--load-threads", paramLabel = "N", defaultValue = BenchConfig.DEFAULT_LOAD_THREADS,
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

    @Option(names = "--jfr", description = "Keep a JFR recording (JDK 'default' settings, virtual threads' start"
            + " and end) of the server per point, in jfr/; the report draws their timeline.")
    boolean jfr;

    @Option(names = "--driver", paramLabel = "ID", defaultValue = BenchConfig.DEFAULT_DRIVER,
            description = "The load generator: ${bundle:registry.drivers} (default: ${DEFAULT-VALUE}).")
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

    @Option(names = "--no-aot-cache", description = BenchConfig.NO_AOT_CACHE_HELP)
    boolean noAotCache;

    @Option(names = "--server-jvm", paramLabel = "OPTIONS", defaultValue = "", description = bench.ServerJvm.HELP)
    String serverJvm;

    @Option(names = "--targets", paramLabel = "FILE", description = "Measure every route of this routes file (CSV:"
            + " label, url, a path per page, pid; docs/bench.md) as a foreign app in one sweep, each checked first,"
            + " their tasks shuffled as combinations' are. Needs --delay, the delay the apps run with.")
    Path targets;

    /**
     * The flags as bench's configuration, checked against each other (each refusal one sentence, exit 2): the
     * protocols first against the driver and --target ({@link BenchProtocols}), the rest by the value itself.
     */
    BenchConfig config() {
        preset.apply(spec);
        LoadDriver loadDriver = LoadDrivers.byId(driver);
        List<Protocol> over = BenchProtocols.check(protocol.stream().map(Protocol::byId).toList(), streams,
                Cli.given(spec, "--streams"), loadDriver.about(), selection.target != null || targets != null);
        if (Cli.given(spec, "--threads") && (selection.target != null || targets != null)) {
            throw new UsageException("--threads sizes the pools of the servers bench starts: a --target runs with its"
                    + " own (serve --threads), which bench records.");
        }
        return new BenchConfig(new BenchConfig.Points(pages.stream().<Page>map(Page::byId).toList(), connections,
                rates, over, streams, threads), new BenchConfig.Windows(repeat, seed, warmup, warmupMax, duration,
                settle, windows, Cli.given(spec, "--repeat") && !Cli.given(spec, "--precision") ? BenchConfig.OFF
                : precision, repeatMax),
                new BenchConfig.Servers(delay, timers, serverCpus, clientCpus, jfr, noBaseline, noAotCache,
                        bench.ServerJvm.parse(serverJvm)),
                new BenchConfig.Load(driver, loadThreads, export, agents), new BenchConfig.Folder(out, resume),
                new BenchConfig.Running(selection.target, selection.label));
    }

    /**
     * Ctrl-C and SIGTERM from the first moment: the sweep's set-up (the combinations' reference pages, a load
     * driver's class path) takes seconds before the sweep exists, and a stop then ended the JVM without a word. The
     * handler is installed first; until the sweep exists, a stop ends the command at once with bench's one sentence
     * (nothing is written yet, and --resume of the folder starts the run); from then on it is the sweep's stop.
     */
    @Override
    public Integer call() throws Exception {
        Path folder = out != null ? out : Path.of("results", DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC).format(Instant.now()));
        java.util.concurrent.atomic.AtomicReference<Bench> sweeping = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable restoreSignals = Signals.onTermination(() -> {
            synchronized (sweeping) {   // the sweep is not made while the command ends here
                Bench bench = sweeping.get();
                if (bench != null) {
                    bench.stop();
                    return;
                }
                spec.commandLine().getErr().println("pssrbench: " + Bench.stoppedSentence(0, folder));
                spec.commandLine().getErr().flush();
                System.exit(130);   // 130: stopped by Ctrl-C, as shells report it
            }
        });
        try {
            return run(folder, sweeping);
        } finally {
            restoreSignals.run();
        }
    }

    /** The command once the signals are bench's; {@code sweeping} receives the sweep as soon as it exists. */
    private int run(Path folder, java.util.concurrent.atomic.AtomicReference<Bench> sweeping) throws Exception {
        BenchConfig config = config();
        List<Page> chosenPages = config.points().pages();
        bench.MachineCheck.check(config, folder);
        // The last check, after every usage error: one request to each running server, before anything is written.
        BenchTargets measured = BenchTargets.resolve(config, selection, targets, delay, Cli.given(spec, "--delay"),
                Cli.given(spec, "--threads"));
        config = measured.config();
        List<Combination> chosen = measured.chosen();
        Target running = measured.running();
        preset.sayLeftOut(selection, spec.commandLine().getOut());
        if (preset.estimated(config, folder, chosen, measured.elsewhere(), spec.commandLine().getOut())) {
            return 0;
        }
        List<bench.ForeignApp> apps = measured.apps(chosenPages);
        URI target = running == null ? null : running.url();
        LoadDriver loadDriver = config.load().loadDriver().prepare();
        if (config.load().export() != null) {   // the configuration checked that the driver exports it
            BenchExport.write(config, loadDriver, running.combination(), target, spec.commandLine().getOut());
            return 0;
        }
        // Apart by default where the machine has the cores (4 or more): half for the server, half for the client.
        BenchConfig.Servers servers = config.servers();
        String serverCpus = servers.serverCpus();
        String clientCpus = servers.clientCpus();
        CpuList.Split split = serverCpus == null && clientCpus == null ? CpuList.split() : null;
        if (split != null && split.apart()) {
            serverCpus = split.server();
            clientCpus = split.client();
        }
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
        if (!servers.noBaseline() && !measured.elsewhere()) {
            chosen = Sweep.withBaselines(chosen, Registry.ENGINES, Registry.SERVERS);
        }
        flags.put("selected", chosen.stream().map(Combination::toString).toList());
        measured.record(flags, targets != null);
        flags.put("cpu_sets", split != null ? split.text() : "given: server " + (serverCpus == null ? "any"
                : serverCpus) + ", load generator " + (clientCpus == null ? "any" : clientCpus));
        // Resumed without --seed: the order the sweep began with, so that the windows still to measure are the ones it
        // would have measured next.
        BenchConfig.Windows w = config.windows();
        boolean resuming = config.folder().resume();
        java.util.TreeSet<String> recordedSeeds = resuming ? Provenance.recorded(folder, "bench", "seed")
                : new java.util.TreeSet<>();
        long shuffle = w.seed() != null ? w.seed() : recordedSeeds.size() == 1
                ? Long.parseLong(recordedSeeds.first()) : new java.security.SecureRandom().nextLong() >>> 16;
        // What the sweep runs with, chosen here: its seed, folder and CPUs.
        BenchConfig chosenHere = config.with(w.withSeed(shuffle)).with(new BenchConfig.Folder(folder, resuming))
                .with(new BenchConfig.Servers(servers.delay(), servers.timers(), serverCpus, clientCpus,
                        servers.jfr(), servers.noBaseline(), servers.noAotCache(), servers.serverJvm()));
        var sweep = new Sweep(chosenHere, chosen, target, apps, loadDriver, flags);
        measured.say(spec.commandLine().getOut());
        Bench bench = new Bench(sweep, spec.commandLine().getOut());
        synchronized (sweeping) {
            sweeping.set(bench);
        }
        int invalid = bench.run();
        if (invalid < 0) {   // 130: stopped by Ctrl-C, as shells report it; or a server died too often; one sentence
            String died = bench.died();
            spec.commandLine().getErr().println("pssrbench: " + (died != null ? died : bench.stoppedSentence()));
            spec.commandLine().getErr().flush();
            return died != null ? Bench.SERVER_DIED : 130;
        }
        return invalid == 0 ? 0 : 1;
    }
}
