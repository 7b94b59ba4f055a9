package browser;

import base.Durations;
import harness.ServerProcess;
import http.Protocol;
import model.Mode;
import model.Page;
import site.Combination;
import tables.CsvWriter;
import tables.Provenance;
import tables.Row;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * {@code browser --lighthouse}: each selected combination's pages loaded by Google Lighthouse ({@link Lighthouse}),
 * beside the same server and engine in the buffered mode, served as {@link BrowserBench} serves them (a JVM per
 * combination, over HTTP/1.1 on the loopback) and interleaved the same way (progressive, buffered, progressive, ...).
 * Each load is a fresh browser that Lighthouse starts, so there is no browser to warm up: each server gets one plain
 * request per page first (its JIT's first use). One row per load in lighthouse-runs.csv, with its JSON report in
 * lighthouse/; medians per combination and page in lighthouse.csv; both written after each group.
 */
public final class LighthouseBench {

    public static final String FILE = "lighthouse.csv";
    public static final String RUNS_FILE = "lighthouse-runs.csv";
    /** Loads per combination and page when --runs is not given: a Lighthouse load takes 15 to 30 s here. */
    public static final int DEFAULT_RUNS = 3;
    /** Lighthouse's standard throttling, the one its scores are calibrated for. */
    public static final String DEFAULT_THROTTLING = Lighthouse.DEFAULT_THROTTLING;

    static final List<String> RUN_COLUMNS = List.of("server", "engine", "mode", "page", "run", "delay_ms", "score",
            "fcp_ms", "lcp_ms", "speed_index_ms", "tbt_ms", "observed_fcp_ms", "observed_lcp_ms",
            "observed_speed_index_ms", "valid", "report", "note");
    static final List<String> COLUMNS = List.of("server", "engine", "mode", "page", "delay_ms", "runs", "valid",
            "score_p50", "fcp_p50_ms", "lcp_p50_ms", "speed_index_p50_ms", "tbt_p50_ms", "observed_fcp_p50_ms",
            "observed_lcp_p50_ms", "observed_speed_index_p50_ms", "throttling");

    /** What to measure; {@code target} and {@code bufferedTarget} as in {@link BrowserBench.Plan}. */
    public record Plan(List<Combination> combinations, Mode buffered, List<Page<?>> pages, int runs, Duration delay,
                       Path out, Path chrome, Path lighthouseHome, String throttling, Map<String, Object> flags,
                       URI target, Function<Page<?>, URI> bufferedTarget) {
    }

    /** Refuses a throttling Lighthouse does not name, in one sentence naming those it does. */
    public static void checkThrottling(String throttling) {
        Lighthouse.checkThrottling(throttling);
    }

    /** One load: which page of which combination, and what Lighthouse said of it. */
    record Load(Combination combination, Page<?> page, int run, String report, Lighthouse.Result result) {
        boolean valid() {
            return result.problem() == null;
        }
    }

    private final Plan plan;
    private final Lighthouse lighthouse;
    private final PrintWriter console;
    private final List<Load> loads = new ArrayList<>();
    private volatile boolean stopped;

    /** Finds Lighthouse and Node first: a missing one is a usage error in one sentence, before anything starts. */
    public LighthouseBench(Plan plan, PrintWriter console) throws IOException, InterruptedException {
        this.plan = plan;
        this.lighthouse = Lighthouse.find(plan.lighthouseHome(), plan.chrome(), plan.throttling());
        this.console = console;
    }

    /** Ends the run soon, from any thread (Ctrl-C): the load under way finishes, what is finished is kept. */
    public void stop() {
        stopped = true;
    }

    /** Runs it; returns the number of loads that gave no report, or -1 when it was stopped before the end. */
    public int run() throws IOException, InterruptedException {
        Files.createDirectories(plan.out().resolve("logs"));
        Files.createDirectories(plan.out().resolve("lighthouse"));
        console.printf(Locale.ROOT, "browser: Lighthouse %s (Node %s, %s throttling), %d load(s) of each page at %s"
                        + " per item%n", lighthouse.version(), lighthouse.nodeVersion(), lighthouse.throttling(),
                plan.runs(), Durations.format(plan.delay()));
        console.flush();
        writeProvenance();
        try (BrowserServers servers = BrowserServers.of(plan.target(), plan.bufferedTarget(), plan.delay(),
                plan.out().resolve("logs"), List.of(Protocol.H1))) {
            Map<String, List<Combination>> groups = new LinkedHashMap<>();
            for (Combination c : plan.combinations()) {
                groups.computeIfAbsent(c.server().id() + " " + c.engine().id(), k -> new ArrayList<>())
                        .add(c);
            }
            for (List<Combination> group : groups.values()) {
                if (!stopped) {
                    measure(group, servers);
                    write();
                }
            }
        }
        Provenance.finish(plan.out(), Map.of("stopped", stopped, "loads_measured", loads.size()));
        write();
        console.println("browser: results in " + plan.out().toAbsolutePath().resolve(FILE));
        console.flush();
        return stopped ? -1 : (int) loads.stream().filter(l -> !l.valid()).count();
    }

    /** One server and engine: its buffered combination served throughout, each progressive one in turn beside it. */
    private void measure(List<Combination> group, BrowserServers servers) throws IOException, InterruptedException {
        Combination first = group.get(0);
        Combination buffered = new Combination(first.server(), first.engine(), plan.buffered());
        List<Combination> progressive = group.stream().filter(c -> !c.mode().wholePage()).toList();
        try (BrowserServers.Served b = servers.serve(buffered, Protocol.H1, "")) {
            int bufferedRun = 0;
            for (Combination c : progressive.isEmpty() ? List.of(buffered) : progressive) {
                try (BrowserServers.Served p = c == buffered ? null : servers.serve(c, Protocol.H1, "")) {
                    for (Page<?> page : plan.pages()) {
                        warm(b.url(page));
                        if (p != null) {
                            warm(p.url(page));
                        }
                        for (int run = 1; run <= plan.runs() && !stopped; run++) {
                            if (p != null) {
                                load(c, p, page, run);
                            }
                            load(buffered, b, page, bufferedRun + run);
                        }
                    }
                }
                bufferedRun += plan.runs();
            }
        }
    }

    /** One plain request of the whole page: the server's first use, which no measured load should pay for. */
    private static void warm(URI url) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newHttpClient()) {
            client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    private void load(Combination c, BrowserServers.Served server, Page<?> page, int run) throws IOException,
            InterruptedException {
        String name = c.server().id() + "-" + c.engine().id() + "-" + c.mode().id() + "-" + page.id() + "-" + run;
        Path report = plan.out().resolve("lighthouse").resolve(name + ".json");
        Duration timeout = plan.delay().multipliedBy(page.items().size()).plusSeconds(120);
        Lighthouse.Result r = lighthouse.load(server.url(page), report, plan.out().resolve("logs")
                .resolve("lighthouse-" + name + ".log"), timeout);
        Load l = new Load(c, page, run, plan.out().relativize(report).toString(), r);
        loads.add(l);
        console.printf(Locale.ROOT, "browser: %s %s lighthouse run %d: %s%n", c, page.id(), run, l.valid()
                ? String.format(Locale.ROOT, "score %.2f, fcp %.0f ms, lcp %.0f ms, speed index %.0f ms, tbt %.0f ms"
                + " (observed fcp %.0f ms)", r.score(), r.fcpMs(), r.lcpMs(), r.speedIndexMs(), r.tbtMs(),
                r.observedFcpMs()) : "failed: " + r.problem());
        console.flush();
    }

    /** Both files, replacing what they held: every load so far, and the medians of each combination and page. */
    private void write() throws IOException {
        List<List<String>> runs = new ArrayList<>();
        Map<String, List<Load>> byRow = new LinkedHashMap<>();
        for (Load l : loads) {
            Lighthouse.Result r = l.result();
            runs.add(List.of(l.combination().server().id(), l.combination().engine().id(),
                    l.combination().mode().id(), l.page().id(), String.valueOf(l.run()), Row.decimal(millis()),
                    cell(r.score()), cell(r.fcpMs()), cell(r.lcpMs()), cell(r.speedIndexMs()), cell(r.tbtMs()),
                    cell(r.observedFcpMs()), cell(r.observedLcpMs()), cell(r.observedSpeedIndexMs()),
                    String.valueOf(l.valid()), l.report(), r.problem() == null ? "" : r.problem()));
            byRow.computeIfAbsent(l.combination() + " " + l.page().id(), k -> new ArrayList<>()).add(l);
        }
        List<List<String>> rows = new ArrayList<>();
        for (List<Load> same : byRow.values()) {
            Load l = same.get(0);
            List<Lighthouse.Result> valid = same.stream().filter(Load::valid).map(Load::result).toList();
            rows.add(List.of(l.combination().server().id(), l.combination().engine().id(),
                    l.combination().mode().id(), l.page().id(), Row.decimal(millis()), String.valueOf(same.size()),
                    String.valueOf(valid.size() == same.size()), cell(median(valid, Lighthouse.Result::score)),
                    cell(median(valid, Lighthouse.Result::fcpMs)), cell(median(valid, Lighthouse.Result::lcpMs)),
                    cell(median(valid, Lighthouse.Result::speedIndexMs)), cell(median(valid, Lighthouse.Result::tbtMs)),
                    cell(median(valid, Lighthouse.Result::observedFcpMs)),
                    cell(median(valid, Lighthouse.Result::observedLcpMs)),
                    cell(median(valid, Lighthouse.Result::observedSpeedIndexMs)), lighthouse.throttling()));
        }
        base.AtomicFile.write(plan.out().resolve(RUNS_FILE), CsvWriter.text(RUN_COLUMNS, runs));
        base.AtomicFile.write(plan.out().resolve(FILE), CsvWriter.text(COLUMNS, rows));
    }

    /** The median of the loads' figure (the mean of the middle two for an even count), NaN with none. */
    static double median(List<Lighthouse.Result> results, ToDoubleFunction<Lighthouse.Result> figure) {
        double[] v = results.stream().mapToDouble(figure).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String cell(double v) {
        return Double.isNaN(v) ? "" : Row.decimal(v);
    }

    private double millis() {
        return plan.delay().toNanos() / 1e6;
    }

    /** This run's record in provenance.json: Lighthouse, Node, the browser, the throttling and the servers' flags. */
    private void writeProvenance() throws IOException, InterruptedException {
        String chromium = Lighthouse.output(List.of(plan.chrome().toString(), "--version"));
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("delay", Durations.format(plan.delay()));
        record.put("runs", plan.runs());
        record.put("lighthouse", lighthouse.version());
        record.put("lighthouse_cli", lighthouse.cli().toString());
        record.put("node", lighthouse.nodeVersion());
        record.put("browser", chromium);
        record.put("browser_binary", plan.chrome().toString());
        record.put("browser_flags", Lighthouse.CHROME_FLAGS);
        record.put("throttling", lighthouse.throttling() + " (Lighthouse's default mobile settings; each report's"
                + " configSettings.throttling holds the figures)");
        if (plan.target() == null) {
            Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
            plan.combinations().forEach(c -> jvmFlags.put(c.server().id(), ServerProcess.jvmFlags(c.server())));
            record.put("server_jvm_flags", jvmFlags);
        } else {
            record.put("target", plan.target().toString());
        }
        Provenance.add(plan.out(), Provenance.record("browser", "Lighthouse " + lighthouse.version() + " on "
                + chromium + ", Node " + lighthouse.nodeVersion(), plan.flags(), record));
    }
}
