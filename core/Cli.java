package core;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;

/**
 * The command line: {@code serve} (the default), {@code list}, {@code verify}, {@code bench}, {@code wrk-row},
 * {@code provenance} and {@code report}. Exit codes: 0 success, 1 a failure at run time (port in use, verification failed), 2 a usage
 * error. Errors are one sentence, no stack trace.
 */
@Command(name = "pssrbench", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Progressive server-side rendering benchmark: one server, engine and mode per run, streaming"
                + " the Presentations (${sys:pssrbench.presentations} items) and Stocks"
                + " (${sys:pssrbench.stocks} items) pages.",
                "",
                "Servers: ${sys:pssrbench.servers}",
                "Engines: ${sys:pssrbench.engines}",
                "Modes:   ${sys:pssrbench.modes}",
                ""},
        footer = {"", "Without a command, serve (its flags: pssrbench help serve). Example:",
                "  jbang PssrBench.java --server=nima --engine=jstachio --mode=virtual"},
        subcommands = {Cli.Serve.class, Cli.ListCommand.class, Cli.Verify.class, Cli.Bench.class, Cli.WrkRow.class,
                ProvenanceCommand.class, Cli.ReportCommand.class, CommandLine.HelpCommand.class})
public final class Cli {

    /** Runs the command line and returns the exit code; output goes to the given writers. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        describeRegistry();
        CommandLine cli = new CommandLine(new Cli());
        cli.setOut(out).setErr(err);
        cli.registerConverter(Duration.class, text -> {
            try {
                return Durations.parse(text);
            } catch (UsageException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
        cli.setParameterExceptionHandler((ex, a) -> {
            String message = ex.getMessage();
            ex.getCommandLine().getErr().println("pssrbench: " + message
                    + (message.endsWith(".") ? "" : ".") + " See 'pssrbench --help'.");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parsed) -> {
            commandLine.getErr().println("pssrbench: " + ex.getMessage());
            if (ex instanceof UsageException) {
                return 2;
            }
            if (!(ex instanceof PortInUseException) && !(ex instanceof Failure)) {
                ex.printStackTrace(commandLine.getErr());   // a bug, not bad input: keep the evidence
            }
            return 1;
        });
        String unknown = unknownCommand(cli, args);
        if (unknown != null) {
            err.println("pssrbench: " + unknown);
            err.flush();
            return 2;
        }
        return cli.execute(withDefaultSubcommand(cli, args));
    }

    public static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /**
     * A first word (or the word after help) that is neither an option nor a command: one sentence naming the
     * commands, instead of serve's "unmatched argument" (a word that is not an option defaults to serve otherwise).
     */
    private static String unknownCommand(CommandLine cli, String[] args) {
        java.util.Set<String> commands = cli.getSubcommands().keySet();
        int at = args.length > 0 && args[0].equals("help") ? 1 : 0;
        if (args.length <= at || args[at].startsWith("-") || args[at].startsWith("@")   // @FILE: picocli's
                || commands.contains(args[at])) {
            return null;
        }
        return "unknown command '" + args[at] + "'; commands: " + String.join(", ", commands.stream()
                .map(c -> c.equals("serve") ? "serve (the default)" : c).toList()) + ".";
    }

    private static String[] withDefaultSubcommand(CommandLine cli, String[] args) {
        if (args.length > 0 && (cli.getSubcommands().containsKey(args[0])
                || List.of("-h", "--help", "-V", "--version").contains(args[0]))) {
            return args;
        }
        String[] serve = new String[args.length + 1];
        serve[0] = "serve";
        System.arraycopy(args, 0, serve, 1, args.length);
        return serve;
    }

    /** Help text derives from the registry: picocli interpolates these in descriptions and defaults. */
    private static void describeRegistry() {
        System.setProperty("pssrbench.servers", Registry.serverIds());
        System.setProperty("pssrbench.engines", Registry.engineIds());
        System.setProperty("pssrbench.modes", Registry.modeIds());
        System.setProperty("pssrbench.server", Registry.SERVERS.get(0).id());
        System.setProperty("pssrbench.engine", Registry.ENGINES.get(0).id());
        System.setProperty("pssrbench.mode", Registry.modes(Registry.ENGINES.get(0))
                .iterator().next().id());
        System.setProperty("pssrbench.presentations", String.valueOf(Page.PRESENTATIONS.items().size()));
        System.setProperty("pssrbench.stocks", String.valueOf(Page.STOCKS.items().size()));
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"pssrbench " + core.Version.VERSION + " (Java " + Runtime.version() + ")"};
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = "Serve /presentations and /stocks progressively with one combination until Ctrl-C or"
                    + " SIGTERM (in-flight pages get --grace to finish).")
    static final class Serve implements Callable<Integer> {

        @Option(names = "--server", paramLabel = "ID", defaultValue = "${sys:pssrbench.server}",
                description = "HTTP server: ${sys:pssrbench.servers} (default: ${DEFAULT-VALUE}).")
        String server;

        @Option(names = "--engine", paramLabel = "ID", defaultValue = "${sys:pssrbench.engine}",
                description = "Template engine: ${sys:pssrbench.engines} (default: ${DEFAULT-VALUE}).")
        String engine;

        @Option(names = "--mode", paramLabel = "ID", defaultValue = "${sys:pssrbench.mode}",
                description = "Mode: ${sys:pssrbench.modes} (default: ${DEFAULT-VALUE}).")
        String mode;

        @Option(names = "--host", paramLabel = "ADDR", defaultValue = ServeConfig.DEFAULT_HOST,
                description = "Address to listen on (default: ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--port", paramLabel = "N", defaultValue = "8080",
                description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--delay", paramLabel = "DURATION", defaultValue = "1ms",
                description = "Per-item delay of the data source (default: ${DEFAULT-VALUE})."
                        + " Units: " + Durations.UNITS + ".")
        Duration delay;

        @Option(names = "--threads", paramLabel = "N", defaultValue = "" + ServeConfig.DEFAULT_THREADS,
                description = "Platform threads of the blocking mode's pool (default: ${DEFAULT-VALUE}, as Tomcat"
                        + " and Jetty).")
        int threads;

        @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "3s",
                description = "On Ctrl-C or SIGTERM, how long in-flight pages may finish (default: ${DEFAULT-VALUE})."
                        + " Units: " + Durations.UNITS + ".")
        Duration grace;

        @Option(names = "--fail-after", paramLabel = "N", defaultValue = "-1",
                description = "Testing: the data source fails after N items, to exercise aborted pages"
                        + " (default: ${DEFAULT-VALUE}, never).")
        int failAfter;

        @Override
        public Integer call() throws InterruptedException {
            ServeConfig config = new ServeConfig(Registry.server(server), Registry.engine(engine),
                    Registry.mode(mode), host, port, delay, threads, grace, failAfter);
            Logs.configure();
            Site site = new Site(config);
            ListenAddress.check(config.host(), config.port());
            ServerStats.register(site);
            Server.Running running = config.server().start(config, site);
            CountDownLatch stop = new CountDownLatch(1);
            Signals.onTermination(stop::countDown);
            System.out.printf(Locale.ROOT, "pssrbench: serving http://%s:%d/ server=%s engine=%s mode=%s delay=%s%n",
                    config.host(), running.port(), config.server().id(), config.engine().id(),
                    config.mode().id(), Durations.format(config.delay()));
            System.out.flush();
            stop.await();
            site.drain(config.grace());
            running.close();
            site.close();
            System.out.println("pssrbench: stopped");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Print every valid combination, one per line: server engine mode.")
    static final class ListCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "lines",
                description = "lines (for scripts) or markdown (the README's matrix tables) (default: ${DEFAULT-VALUE}).")
        String format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            switch (format) {
                case "lines" -> Registry.combinations().forEach(out::println);
                case "markdown" -> out.print(Matrix.markdown());
                default -> throw new UsageException("unknown --format '" + format + "'; valid formats: lines,"
                        + " markdown.");
            }
            out.flush();
            return 0;
        }
    }

    /**
     * Which combinations verify and bench take: comma lists checked against the registry, or --all; --target
     * names one combination that is already running elsewhere.
     */
    static final class Selection {
        @Option(names = "--server", split = ",", paramLabel = "ID",
                description = "Servers, comma-separated: ${sys:pssrbench.servers}.")
        List<String> servers = List.of();

        @Option(names = "--engine", split = ",", paramLabel = "ID",
                description = "Engines, comma-separated: ${sys:pssrbench.engines} (default: all).")
        List<String> engines = List.of();

        @Option(names = "--mode", split = ",", paramLabel = "ID",
                description = "Modes, comma-separated: ${sys:pssrbench.modes} (default: all).")
        List<String> modes = List.of();

        @Option(names = "--all", description = "Every valid combination.")
        boolean all;

        @Option(names = "--target", paramLabel = "URL", description = "A server that is already running at URL"
                + " instead of one started here; its combination and delay come from its /info.json (--server,"
                + " --engine and --mode may be left out, or must match).")
        String target;

        /** The selected combinations; {@code defaultServers} when no --server is given (empty: every server). */
        List<Combination> combinations(List<String> defaultServers) {
            if (all && !(servers.isEmpty() && engines.isEmpty() && modes.isEmpty())) {
                throw new UsageException("--all selects every combination: leave out --server, --engine and --mode.");
            }
            return all ? Registry.combinations()
                    : Registry.select(servers.isEmpty() ? defaultServers : servers, engines, modes);
        }

        /**
         * The server at --target (null without it), what it runs checked against the flags: one request to it.
         * {@code delay} is the command's --delay, {@code delayGiven} whether the user gave it.
         */
        Target target(Duration delay, boolean delayGiven) {
            if (target == null) {
                return null;
            }
            if (all || servers.size() > 1 || engines.size() > 1 || modes.size() > 1) {
                throw new UsageException("--target is one running server: give at most one --server, --engine and"
                        + " --mode (none: they are taken from the server).");
            }
            return Target.resolve(target, first(servers), first(engines), first(modes), delay, delayGiven);
        }

        private static String first(List<String> ids) {
            return ids.isEmpty() ? null : ids.get(0);
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = "Start each selected combination (all by default) on a free loopback port and check both"
                    + " pages: status and headers, the same bytes as every engine, the reference page, well-formed"
                    + " HTML, progressive arrival and identical bodies under concurrency. Exits 1 if any check"
                    + " fails.")
    static final class Verify implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        Selection selection;

        @Option(names = "--delay", paramLabel = "DURATION", defaultValue = "50ms",
                description = "Delay per item while verifying; large, so that progressive arrival shows"
                        + " (default: ${DEFAULT-VALUE}). With --target, the server's own delay applies."
                        + " Units: " + Durations.UNITS + ".")
        Duration delay;

        @Option(names = "--concurrency", paramLabel = "N", defaultValue = "50",
                description = "Concurrent requests per page that must all return the same body"
                        + " (default: ${DEFAULT-VALUE}).")
        int concurrency;

        @Override
        public Integer call() {
            if (concurrency < 1) {   // before --target is asked, as every usage error
                throw new UsageException("--concurrency must be at least 1.");
            }
            Target target = selection.target(delay, given(spec, "--delay"));
            List<Combination> chosen = target == null ? selection.combinations(List.of())
                    : List.of(target.combination());
            Logs.configure();
            PrintWriter out = spec.commandLine().getOut();
            Verifier verifier = target == null ? new Verifier(delay, concurrency)
                    : Verifier.ofRunning(target.delay(), concurrency);
            if (target == null) {
                out.printf(Locale.ROOT, "verify: delay %s per item, %d concurrent requests per page%n",
                        Durations.format(delay), concurrency);
            } else {
                out.printf(Locale.ROOT, "verify: %s; %d concurrent requests per page%n", target.note(), concurrency);
            }
            if (!verifier.checksProgressive()) {
                out.println("verify: " + verifier.whyNotProgressive());
            }
            String pageHeads = String.join(" | ", java.util.Arrays.stream(Page.values())
                    .map(p -> String.format(Locale.ROOT, "%-34s", p.id() + ": ttfb total chunks lag")).toList());
            out.printf(Locale.ROOT, "%-8s %-9s %-9s %s | result%n", "server", "engine", "mode", pageHeads);
            int failed = 0;
            for (Combination c : chosen) {
                Verifier.Result r = target == null ? verifier.verify(c) : verifier.verify(c, target.url());
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8s %-9s %-9s ",
                        c.server().id(), c.engine().id(), c.mode().id()));
                for (Verifier.PageResult p : r.pages()) {
                    row.append(String.format(Locale.ROOT, "%-34s | ", ms(p.ttfbMs(), "%.1f") + " "
                            + ms(p.totalMs(), "%.0f") + " " + p.chunks() + " " + ms(p.lagMs(), "%.1f")));
                }
                row.append(r.ok() ? "OK" : "FAIL");
                out.println(row);
                r.allProblems().forEach(p -> out.println("    " + p));
                out.flush();
                failed += r.ok() ? 0 : 1;
            }
            out.println(failed == 0 ? "verify: all " + chosen.size() + " combinations passed"
                    : "verify: " + failed + " of " + chosen.size() + " combinations FAILED");
            out.flush();
            return failed == 0 ? 0 : 1;
        }
    }

    /** Milliseconds for a table cell; "-" for what was not measured. */
    private static String ms(double value, String format) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format + "ms", value);
    }

    /** Whether the user gave {@code option} (not its default). */
    private static boolean given(CommandLine.Model.CommandSpec spec, String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    @Command(name = "wrk-row", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = "Read the text output of one wrk2 (or Debian wrk) run and append its row to a summary.csv;"
                    + " keep its percentile spectra as .hgrm files. Used by scripts/wrk2-*.sh.")
    static final class WrkRow implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--raw", required = true, paramLabel = "FILE", description = "The run's output.")
        java.nio.file.Path raw;

        @Option(names = "--server", required = true, paramLabel = "ID", description = "The server measured.")
        String server;

        @Option(names = "--engine", required = true, paramLabel = "ID", description = "The engine measured.")
        String engine;

        @Option(names = "--mode", required = true, paramLabel = "ID", description = "The mode measured.")
        String mode;

        @Option(names = "--page", required = true, paramLabel = "ID", description = "The page measured.")
        String page;

        @Option(names = "--rate", paramLabel = "REQ_PER_S", defaultValue = "0",
                description = "The target rate of a wrk2 run; 0 for a closed-loop run (default: ${DEFAULT-VALUE}).")
        double rate;

        @Option(names = "--csv", required = true, paramLabel = "FILE",
                description = "The summary.csv to append to (created with its header if new).")
        java.nio.file.Path csv;

        @Option(names = "--hgrm", paramLabel = "PREFIX",
                description = "Write PREFIX.hgrm (and PREFIX-uncorrected.hgrm) when the output has spectra.")
        java.nio.file.Path hgrm;

        @Override
        public Integer call() throws java.io.IOException {
            Combination combination = new Combination(Registry.server(server), Registry.engine(engine),
                    Registry.mode(mode));
            Page p = Page.byId(page);
            if (!java.nio.file.Files.isRegularFile(raw)) {
                throw new UsageException("no such file: " + raw + ".");
            }
            WrkReport run;
            try {
                run = WrkReport.parse(java.nio.file.Files.readString(raw));
            } catch (IllegalArgumentException e) {
                throw new UsageException(raw + ": " + e.getMessage() + ".");
            }
            Summary row = Summary.of(run, combination, p, rate);
            row.appendTo(csv);
            if (hgrm != null) {
                if (!run.spectrum().isEmpty()) {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(hgrm + ".hgrm"), run.spectrum());
                }
                if (!run.uncorrectedSpectrum().isEmpty()) {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(hgrm + "-uncorrected.hgrm"),
                            run.uncorrectedSpectrum());
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            out.printf(Locale.ROOT, "%s %s %s c%d %s: %.1f req/s, p50 %.2f ms, p99 %.2f ms, %d errors: %s%n",
                    run.tool(), combination, p.id(), run.connections(),
                    rate > 0 ? String.format(Locale.ROOT, "R%.0f", rate) : "closed loop", run.reqPerS(),
                    run.percentileMs(50), run.percentileMs(99), run.errors(),
                    row.get("valid").equals("true") ? "valid" : "INVALID (" + row.get("note") + ")");
            out.flush();
            return 0;
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = "Measure combinations with the built-in load generator (by default every engine and mode"
                    + " on ${sys:pssrbench.server}): each in its own server JVM, verified first, then every page x"
                    + " connection count (x rate); results in --out.")
    static final class Bench implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        Selection selection;

        @Option(names = "--page", split = ",", paramLabel = "ID", defaultValue = "stocks",
                description = "Pages (default: ${DEFAULT-VALUE}).")
        List<String> pages;

        @Option(names = "--connections", split = ",", paramLabel = "N", defaultValue = "1,2,4,8,16,32,64,128",
                description = "Concurrent connections per point (default: ${DEFAULT-VALUE}).")
        List<Integer> connections;

        @Option(names = "--rate", split = ",", paramLabel = "REQ_PER_S",
                description = "Open loop at these rates (requests/s); without it, a closed loop.")
        List<Double> rates = List.of();

        @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "1s",
                description = "Warm-up before each point (default: ${DEFAULT-VALUE})."
                        + " Units: " + Durations.UNITS + ".")
        Duration warmup;

        @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "3s",
                description = "Measured window of each point (default: ${DEFAULT-VALUE})."
                        + " Units: " + Durations.UNITS + ".")
        Duration duration;

        @Option(names = "--delay", paramLabel = "DURATION", defaultValue = "1ms",
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
        java.nio.file.Path out;

        @Option(names = "--resume", description = "Continue the interrupted sweep in --out: measure only the points"
                + " its summary.csv does not hold yet.")
        boolean resume;

        @Option(names = "--jfr", description = "Keep a JFR recording (JDK 'default' settings) of the server per point,"
                + " in jfr/.")
        boolean jfr;

        @Option(names = "--no-baseline", description = "Do not add the raw baseline engine on each selected server and"
                + " mode (then ceiling_fraction stays empty).")
        boolean noBaseline;

        @Override
        public Integer call() throws Exception {
            List<Page> chosenPages = pages.stream().map(Page::byId).toList();
            if (connections.stream().anyMatch(c -> c < 1) || loadThreads < 1) {
                throw new UsageException("--connections and --load-threads take whole numbers of at least 1.");
            }
            if (rates.stream().anyMatch(r -> r <= 0)) {
                throw new UsageException("--rate takes positive requests per second.");
            }
            if (duration.isZero()) {
                throw new UsageException("--duration must be longer than 0.");
            }
            if (resume && out == null) {
                throw new UsageException("--resume continues a sweep: name its folder with --out=DIR.");
            }
            if (resume && !java.nio.file.Files.isRegularFile(out.resolve("summary.csv"))) {
                throw new UsageException("nothing to resume: " + out + " has no summary.csv.");
            }
            java.nio.file.Path folder = out != null ? out : java.nio.file.Path.of("results",
                    java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                            .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now()));
            if (serverCpus != null) {
                CpuList.check("--server-cpus", serverCpus);
            }
            if (clientCpus != null) {
                CpuList.check("--client-cpus", clientCpus);
            }
            // The last check, after every usage error: one request to a running server, before anything is written.
            Target running = selection.target(delay, given(spec, "--delay"));
            List<Combination> chosen = running == null
                    ? selection.combinations(List.of(Registry.SERVERS.get(0).id())) : List.of(running.combination());
            URI target = running == null ? null : running.url();
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
            java.util.Map<String, Object> flags = Provenance.flags(spec.commandLine().getParseResult());
            if (!noBaseline && target == null) {
                chosen = bench.Bench.withBaselines(chosen);
            }
            flags.put("selected", chosen.stream().map(Combination::toString).toList());
            var sweep = new bench.Bench.Sweep(chosen, chosenPages, connections, rates, warmup, duration, delay,
                    loadThreads, folder, serverPrefix, flags, resume, jfr, target);
            if (running != null) {
                spec.commandLine().getOut().println("bench: " + running.note());
            }
            bench.Bench bench = new bench.Bench(sweep, spec.commandLine().getOut());
            Runnable restoreSignals = Signals.onTermination(bench::stop);
            try {
                int invalid = bench.run();
                return invalid < 0 ? 130 : invalid == 0 ? 0 : 1;   // 130: stopped by Ctrl-C, as shells report it
            } finally {
                restoreSignals.run();
            }
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
            description = "Write DIR/report.html from DIR/summary.csv (and DIR/provenance.json): charts and tables"
                    + " in one self-contained file that opens offline.")
    static final class ReportCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR",
                description = "A results folder written by bench or scripts/wrk2-*.sh.")
        Path dir;

        @Override
        public Integer call() {
            if (!Files.isDirectory(dir)) {
                throw new UsageException("no such folder: " + dir + "; give a results folder written by bench.");
            }
            if (!Files.isRegularFile(dir.resolve("summary.csv"))) {
                throw new UsageException(dir + " has no summary.csv; give a results folder written by bench.");
            }
            Path html;
            try {
                html = bench.Report.write(dir);
            } catch (IOException e) {
                // Almost always the input (another version's columns, a broken CSV or JSON): the user's to fix.
                throw new UsageException("cannot write a report from " + dir + ": "
                        + e.getMessage().lines().findFirst().orElse("") + ".");
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("report: " + html);
            out.flush();
            return 0;
        }
    }
}
