package cli;

import base.Durations;
import base.UsageException;
import harness.Signals;
import http.Protocol;
import report.Report;
import report.StressReport;
import site.Combination;
import site.Logs;
import stress.Outcome;
import stress.Scenarios;
import stress.Stress;
import stress.StressSettings;
import tables.Provenance;
import tables.ResultsFolder;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code stress}: the reliability scenarios, each combination and scenario in a server JVM of its own. */
@Command(name = "stress", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Reliability scenarios (${bundle:registry.stress.h1}; over h2c or h2:"
                + " ${bundle:registry.stress.h2}) on the selected combinations (by default"
                + " the first engine and mode on every server), each in its own server JVM on loopback; every scenario"
                + " prints its pass rule beside its figures; results in --out.")
final class StressCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Selection selection;

    @Option(names = "--protocol", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "h1: the HTTP/1.1 scenarios; h2c: the HTTP/2 ones (${bundle:registry.stress.h2}) in clear"
                    + " text by prior knowledge; h2: the same over TLS, HTTP/2 chosen by ALPN,"
                    + " the server's certificate made for the run and trusted alone; on the servers that speak it (a"
                    + " server named with --server that does not is refused) (default: ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--scenario", split = ",", paramLabel = "ID",
            description = "Scenarios, comma-separated: ${bundle:registry.stress.h1}; with --protocol=h2c or h2:"
                    + " ${bundle:registry.stress.h2} (default: all of the protocol's).")
    List<String> scenarios;

    @Option(names = "--connections", paramLabel = "N", defaultValue = StressSettings.CONNECTIONS,
            description = "streams: concurrent connections, one page each (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--streams-delay", paramLabel = "DURATION", defaultValue = StressSettings.STREAMS_DELAY,
            description = "streams: per-item delay, so that every page is still open when the last connects"
                    + " (default: ${DEFAULT-VALUE}: 5 s per page). Units: " + Durations.UNITS + ".")
    Duration streamsDelay;

    @Option(names = "--h2-connections", paramLabel = "N", defaultValue = StressSettings.H2_CONNECTIONS,
            description = "h2-streams and h2-resets: HTTP/2 connections (default: ${DEFAULT-VALUE}).")
    int h2Connections;

    @Option(names = "--h2-streams", paramLabel = "N", defaultValue = StressSettings.H2_STREAMS,
            description = "h2-streams: streams sent at once on each connection, one page each (default:"
                    + " ${DEFAULT-VALUE}).")
    int h2Streams;

    @Option(names = "--aborts", paramLabel = "N", defaultValue = StressSettings.ABORTS,
            description = "aborts: requests closed after the first chunk; h2-resets: streams reset after their first"
                    + " DATA frame (and every tenth read whole) (default: ${DEFAULT-VALUE}).")
    int aborts;

    @Option(names = "--slow-readers", paramLabel = "N", defaultValue = StressSettings.SLOW_READERS,
            description = "slow-readers: clients reading 1 KB/s; h2-slow-reader: connections that never open their"
                    + " windows (default: ${DEFAULT-VALUE}).")
    int slowReaders;

    @Option(names = "--slow-readers-window", paramLabel = "DURATION",
            defaultValue = StressSettings.SLOW_READERS_WINDOW,
            description = "slow-readers and h2-slow-reader: how long the normal traffic is measured, alone and beside"
                    + " the slow readers, each after 1 s of warm-up (default: ${DEFAULT-VALUE}). Units: "
                    + Durations.UNITS + ".")
    Duration slowReadersWindow;

    @Option(names = "--idle", paramLabel = "N", defaultValue = StressSettings.IDLE,
            description = "idle: idle connections (default: ${DEFAULT-VALUE}).")
    int idle;

    @Option(names = "--half-sent", paramLabel = "N", defaultValue = StressSettings.HALF_SENT,
            description = "idle: half-sent requests (default: ${DEFAULT-VALUE}).")
    int halfSent;

    @Option(names = "--trickling", paramLabel = "N", defaultValue = StressSettings.TRICKLING,
            description = "idle: clients that send a request head a byte every half second, so that it would take"
                    + " several timeouts (slowloris) (default: ${DEFAULT-VALUE}).")
    int trickling;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", defaultValue = StressSettings.IDLE_TIMEOUT,
            description = "idle: the idle timeout its servers get (default: ${DEFAULT-VALUE}, serve's default)."
                    + " Units: " + Durations.UNITS + ".")
    Duration idleTimeout;

    @Option(names = "--shutdown-clients", paramLabel = "N", defaultValue = StressSettings.SHUTDOWN_CLIENTS,
            description = "shutdown: keep-alive clients loading the server at SIGTERM; the second part (pages that"
                    + " outlive the grace period) has a quarter as many pages, at least 1 (default: ${DEFAULT-VALUE}).")
    int shutdownClients;

    @Option(names = "--soak-duration", paramLabel = "DURATION", defaultValue = StressSettings.SOAK_DURATION,
            description = "soak: how long the steady load runs, sampled in up to 40 windows of at least 1 s after"
                    + " a quarter of it (default: ${DEFAULT-VALUE}; 30m to look for a leak). Units: " + Durations.UNITS
                    + ".")
    Duration soakDuration;

    @Option(names = "--soak-connections", paramLabel = "N", defaultValue = StressSettings.SOAK_CONNECTIONS,
            description = "soak: the steady load's keep-alive connections (default: ${DEFAULT-VALUE}).")
    int soakConnections;

    @Option(names = "--attack-duration", paramLabel = "DURATION", defaultValue = StressSettings.ATTACK_DURATION,
            description = "h2-rapid-reset and the other HTTP/2 attacks: how long each attack lasts at most"
                    + " (default: ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    Duration attackDuration;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Results folder (default: results/stress-<UTC timestamp>).")
    Path out;

    @Override
    public Integer call() throws Exception {
        Protocol over = Protocol.Command.STRESS.check(Protocol.byId(protocol));
        List<String> offered = Scenarios.ids(over);
        if (scenarios == null) {
            scenarios = offered;
        }
        for (String s : scenarios) {
            if (!offered.contains(s)) {
                throw new UsageException("unknown scenario '" + s + "' for --protocol=" + over.id() + "; scenarios: "
                        + String.join(", ", offered) + ".");
            }
        }
        if (connections < 1 || aborts < 1 || shutdownClients < 1 || h2Connections < 1 || h2Streams < 1 || idle < 0
                || halfSent < 0 || trickling < 0 || slowReaders < 0 || soakConnections < 1) {
            throw new UsageException("--connections, --aborts, --shutdown-clients, --h2-connections, --h2-streams and"
                    + " --soak-connections take at least 1, --idle, --half-sent, --trickling and --slow-readers at"
                    + " least 0.");
        }
        if (soakDuration.compareTo(java.time.Duration.ofSeconds(4)) < 0) {
            throw new UsageException("--soak-duration must be at least 4s (four windows of a second), e.g. 60s or"
                    + " 30m.");
        }
        if (attackDuration.isZero() || attackDuration.isNegative()) {
            throw new UsageException("--attack-duration must be longer than 0, e.g. 5s.");
        }
        if (slowReadersWindow.isZero() || slowReadersWindow.isNegative()) {
            throw new UsageException("--slow-readers-window must be longer than 0, e.g. 5s.");
        }
        if (selection.target != null || selection.allowRemote || selection.trust != null) {
            throw new UsageException("stress starts (and, in shutdown, stops) its own servers: --target,"
                    + " --allow-remote and --trust are not supported.");
        }
        // With --server, a named server that does not speak --protocol is refused (the user asked for it by name);
        // without, every server that speaks it.
        List<Combination> chosen = Registry.speaking(selection.combinations(List.of()), over,
                !selection.servers.isEmpty()).stream().filter(distinctServersUnlessAsked()).toList();
        Path folder = out != null ? out : Path.of("results", "stress-" + DateTimeFormatter
                .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Instant.now()));
        ResultsFolder.checkWritable(folder, "--out");
        // stress has no --resume: its rows are rewritten whole after each scenario, so a second run into the same
        // folder would drop the first one's while provenance.json listed both.
        if (Files.exists(folder.resolve(Stress.FILE))) {
            throw new UsageException(folder + " already holds " + Stress.FILE + " (stress does not append to it);"
                    + " choose another --out.");
        }
        Logs.configure();
        Map<String, Object> flags = Provenance.flags(spec.commandLine().getParseResult());
        flags.put("selected", chosen.stream().map(Combination::toString).toList());
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("protocol", over.id());
        more.put("scenarios", scenarios);
        more.put("connections", connections);
        more.put("streams_delay", Durations.format(streamsDelay));
        more.put("idle_timeout", Durations.format(idleTimeout));
        more.put("slow_readers_window", Durations.format(slowReadersWindow));
        more.put("soak_duration", Durations.format(soakDuration));
        more.put("attack_duration", Durations.format(attackDuration));
        Provenance.add(folder, Provenance.record("stress", "pssrbench stress (built in)", flags, more));
        StressSettings settings = new StressSettings(connections, streamsDelay, aborts, idle, halfSent, trickling,
                idleTimeout, slowReaders, slowReadersWindow, folder, System.out, shutdownClients, h2Connections,
                h2Streams, over, soakDuration, soakConnections, StressSettings.SERVE, attackDuration);
        AtomicBoolean stopped = new AtomicBoolean();
        Runnable restoreSignals = Signals.onTermination(() -> {
            if (!stopped.getAndSet(true)) {
                // The scenario under way ends as soon as its server is gone; again later, for a server that was
                // starting at the first pass.
                Thread.ofPlatform().daemon(true).name("stress-stop").start(() -> {
                    for (int i = 0; i < 20; i++) {
                        ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
                        try {
                            Thread.sleep(500);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
            }
        });
        List<Outcome> outcomes;
        try {
            outcomes = Stress.run(chosen, scenarios, settings, stopped::get);
        } finally {
            restoreSignals.run();
        }
        Provenance.finish(folder, Map.of("stopped", stopped.get(), "scenarios_run", outcomes.size()));
        if (stopped.get() && outcomes.isEmpty()) {
            spec.commandLine().getErr().println("pssrbench: stopped before a first scenario ended; nothing measured"
                    + " in " + folder + ".");
            return 130;
        }
        Stress.printTable(outcomes, System.out);
        System.out.println("stress: results in " + folder.resolve(Stress.FILE).toAbsolutePath());
        // A folder bench measured into as well gets its report with a stress section; else one of its own.
        Path report = java.nio.file.Files.isRegularFile(folder.resolve("summary.csv"))
                ? Report.write(folder, Registry.baselineId()) : StressReport.write(folder);
        System.out.println("stress: report in " + report.toAbsolutePath());
        if (stopped.get()) {   // 130: as shells report Ctrl-C; stress has no --resume
            System.out.flush();
            spec.commandLine().getErr().println("pssrbench: stopped; " + outcomes.size() + " finished scenarios kept"
                    + " in " + folder.resolve(Stress.FILE) + ", the one under way dropped.");
            return 130;
        }
        return outcomes.stream().allMatch(Outcome::pass) ? 0 : 1;
    }

    /**
     * Without --engine, --mode or --all, one combination per server (its first engine and mode): the scenarios are
     * about the server, and all combinations would take hours.
     */
    private java.util.function.Predicate<Combination> distinctServersUnlessAsked() {
        if (selection.all || !selection.engines.isEmpty() || !selection.modes.isEmpty()) {
            return c -> true;
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        return c -> seen.add(c.server().id());
    }
}
