package bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import core.Combination;
import core.Durations;
import core.Page;
import core.Reference;
import core.Summary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * {@code bench}: for each selected combination, one server JVM, verified first, then every page × connection
 * count (× rate) measured with {@link LoadGenerator}, each point written to the results folder as it finishes.
 */
public final class Bench {

    /** What to sweep. {@code rates} empty means the closed loop. */
    public record Sweep(List<Combination> combinations, List<Page> pages, List<Integer> connections,
                        List<Double> rates, Duration warmup, Duration duration, Duration delay, int loadThreads,
                        Path out, List<String> serverCpuPrefix, Map<String, String> flags) {
    }

    private final Sweep sweep;
    private final PrintWriter console;
    private final List<Summary> rows = new ArrayList<>();

    public Bench(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.console = console;
    }

    /** Runs the sweep; returns the number of points that are not valid (failed verification included). */
    public int run() throws IOException, InterruptedException {
        Files.createDirectories(sweep.out().resolve("hgrm"));
        Files.createDirectories(sweep.out().resolve("logs"));
        writeProvenance();
        List<Double> models = sweep.rates().isEmpty() ? List.of(0.0) : sweep.rates();
        int total = sweep.combinations().size() * sweep.pages().size() * sweep.connections().size() * models.size();
        int done = 0;
        int invalid = 0;
        long started = System.nanoTime();
        var expected = Reference.renderAll();
        core.Verifier verifier = new core.Verifier(Duration.ofMillis(20), 10);
        for (Combination c : sweep.combinations()) {
            Path log = sweep.out().resolve("logs/" + label(c) + ".server.log");
            core.Verifier.Result verified = verifier.verify(c);   // progressive, correct, concurrent: in this JVM
            if (!verified.ok()) {
                Files.write(sweep.out().resolve("logs/" + label(c) + ".verify.log"), verified.allProblems());
            }
            try (ServerProcess server = ServerProcess.start(c, sweep.delay(), sweep.serverCpuPrefix(), log)) {
                String problem = verified.ok() ? checkBytes(server.base(), expected)
                        : "failed verification: " + verified.allProblems().get(0);
                for (Page page : sweep.pages()) {
                    byte[] body = expected.get(page).values().iterator().next();
                    for (int connections : sweep.connections()) {
                        for (double rate : models) {
                            done++;
                            progress(done, total, started, c, page, connections, rate);
                            Summary row = problem != null
                                    ? failed(c, page, connections, rate, problem)
                                    : measure(server, c, page, body, connections, rate);
                            invalid += row.get("valid").equals("true") ? 0 : 1;
                            record(row);
                        }
                    }
                }
            } catch (IOException e) {
                for (Page page : sweep.pages()) {
                    for (int connections : sweep.connections()) {
                        for (double rate : models) {
                            done++;
                            invalid++;
                            record(failed(c, page, connections, rate, e.getMessage()));
                        }
                    }
                }
            }
        }
        printTable();
        return invalid;
    }

    private static String label(Combination c) {
        return c.server().id() + "-" + c.engine().id() + "-" + c.approach().id();
    }

    /** The served pages at the measured delay must be byte-identical to the engines' rendering. */
    private static String checkBytes(URI base, Map<Page, Map<core.Engine, byte[]>> expected)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            for (Page page : Page.values()) {
                byte[] want = expected.get(page).values().iterator().next();
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(base.resolve(page.id())).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200 || !Arrays.equals(want, r.body())) {
                    return "failed verification: " + page.path() + " answered " + r.statusCode() + " with "
                            + r.body().length + " bytes, not the verified page";
                }
            }
            return null;
        } finally {
            client.shutdownNow();
        }
    }

    private Summary measure(ServerProcess server, Combination c, Page page, byte[] body, int connections,
                            double rate) throws IOException, InterruptedException {
        CRC32C crc = new CRC32C();
        crc.update(body);
        LoadGenerator.Plan plan = new LoadGenerator.Plan(server.base().resolve(page.id()), connections,
                Math.min(sweep.loadThreads(), connections), rate, sweep.warmup(), sweep.duration(), body.length,
                crc.getValue(), page.itemEnds(body)[0], Duration.ofSeconds(10));

        // Server resources, sampled during the measured window only.
        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicLong rssPeak = new AtomicLong(-1);
        AtomicLong threadsPeak = new AtomicLong(-1);
        long[] cpuAtStart = {-1};
        Thread sampler = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                Thread.sleep(sweep.warmup().toMillis());
                cpuAtStart[0] = server.cpuNanos();
                while (sampling.get()) {
                    long[] m = server.memoryAndThreads();
                    rssPeak.accumulateAndGet(m[0], Math::max);
                    threadsPeak.accumulateAndGet(m[1], Math::max);
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        LoadGenerator.Result r = LoadGenerator.run(plan);
        long cpuAtEnd = server.cpuNanos();
        sampling.set(false);
        sampler.join();

        String point = label(c) + "-" + page.id() + "-c" + connections + (rate > 0 ? "-r" + (long) rate : "");
        writeHgrm(point + ".ttfb", r.ttfb());
        writeHgrm(point + ".first-item", r.firstItem());
        writeHgrm(point + ".ttlb", r.ttlb());
        String invalid = Summary.invalidReason(r.requests(), r.errors(), String.format(Locale.ROOT,
                "non-2xx %d, wrong body %d, i/o %d, timeout %d", r.non2xx(), r.wrongBodies(), r.ioErrors(),
                r.timeouts()), r.requestsPerSecond(), rate);
        double cpuMsPerReq = cpuAtStart[0] < 0 || cpuAtEnd < 0 || r.requests() == 0 ? Double.NaN
                : (cpuAtEnd - cpuAtStart[0]) / 1e6 / r.requests();
        return base(c, page, connections, rate)
                .set("duration_s", r.seconds())
                .set("requests", r.requests())
                .set("errors", r.errors())
                .set("valid", invalid == null)
                .set("req_per_s", r.requestsPerSecond())
                .set("ttfb_p50_ms", ms(r.ttfb(), 50))
                .set("ttfb_p99_ms", ms(r.ttfb(), 99))
                .set("first_item_p50_ms", ms(r.firstItem(), 50))
                .set("ttlb_p50_ms", ms(r.ttlb(), 50))
                .set("ttlb_p90_ms", ms(r.ttlb(), 90))
                .set("ttlb_p99_ms", ms(r.ttlb(), 99))
                .set("ttlb_p999_ms", ms(r.ttlb(), 99.9))
                .set("ttlb_max_ms", r.ttlb().getTotalCount() == 0 ? Double.NaN : r.ttlb().getMaxValue() / 1000.0)
                .set("chunks_mean", r.chunksMean())
                .set("cpu_ms_per_req", cpuMsPerReq)
                .set("rss_peak_mb", rssPeak.get() < 0 ? Double.NaN : rssPeak.get() / 1024.0)
                .set("threads_peak", threadsPeak.get() < 0 ? null : threadsPeak.get())
                .set("client_cpu_ms_per_req", r.requests() == 0 ? Double.NaN : r.clientCpuNanos() / 1e6 / r.requests())
                .set("note", invalid);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    private Summary base(Combination c, Page page, int connections, double rate) {
        return new Summary().set("tool", "pssrbench").set("server", c.server().id()).set("engine", c.engine().id())
                .set("mode", c.approach().id()).set("page", page.id()).set("model", rate > 0 ? "open" : "closed")
                .set("connections", connections).set("rate", rate > 0 ? String.valueOf((long) rate) : "");
    }

    private Summary failed(Combination c, Page page, int connections, double rate, String why) {
        return base(c, page, connections, rate).set("requests", 0).set("valid", false).set("note", why);
    }

    private void record(Summary row) throws IOException {
        rows.add(row);
        row.appendTo(sweep.out().resolve("summary.csv"));
        List<Map<String, String>> json = new ArrayList<>();
        for (Summary r : rows) {
            Map<String, String> m = new LinkedHashMap<>();
            Summary.COLUMNS.forEach(col -> m.put(col, r.get(col)));
            json.add(m);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(sweep.out().resolve("summary.json").toFile(), json);
    }

    private void writeHgrm(String name, Histogram h) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(sweep.out().resolve("hgrm/" + name + ".hgrm")),
                false, StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(out, 1000.0);   // microseconds recorded, milliseconds written
        }
    }

    private void progress(int done, int total, long started, Combination c, Page page, int connections,
                          double rate) {
        long elapsed = System.nanoTime() - started;
        String eta = done == 1 ? "?" : Durations.format(Duration.ofSeconds(
                Math.round(elapsed / 1e9 / (done - 1) * (total - done + 1))));
        console.printf(Locale.ROOT, "bench: point %d/%d %s %s c%d %s (ETA %s)%n", done, total, c, page.id(),
                connections, rate > 0 ? "rate " + (long) rate + "/s" : "closed loop", eta);
        console.flush();
    }

    private void printTable() {
        console.printf(Locale.ROOT, "%n%-8s %-9s %-9s %-13s %5s %6s %10s %9s %9s %9s %7s%n", "server", "engine",
                "mode", "page", "conns", "rate", "req/s", "ttfb p50", "ttlb p50", "ttlb p99", "valid");
        for (Summary r : rows) {
            console.printf(Locale.ROOT, "%-8s %-9s %-9s %-13s %5s %6s %10s %9s %9s %9s %7s%n", r.get("server"),
                    r.get("engine"), r.get("mode"), r.get("page"), r.get("connections"),
                    r.get("rate").isEmpty() ? "-" : r.get("rate"), r.get("req_per_s"), r.get("ttfb_p50_ms"),
                    r.get("ttlb_p50_ms"), r.get("ttlb_p99_ms"), r.get("valid"));
        }
        console.println("bench: results in " + sweep.out().toAbsolutePath());
        console.flush();
    }

    private void writeProvenance() throws IOException {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("pssrbench", core.Cli.VERSION);
        p.put("git", git());
        p.put("started", Instant.now().toString());
        p.put("java", Runtime.version().toString());
        p.put("java_vendor", System.getProperty("java.vendor"));
        p.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        p.put("cpu", cpuModel());
        p.put("cores", Runtime.getRuntime().availableProcessors());
        p.put("load_average", loadAverage());
        p.put("flags", sweep.flags());
        p.put("server_cpus", String.join(" ", sweep.serverCpuPrefix()));
        p.put("libraries", libraries());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(sweep.out().resolve("provenance.json").toFile(), p);
    }

    private static String git() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String rev = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? rev : "unknown";
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Library versions, from the Maven metadata each library jar carries (kept in the fat jar too). */
    private static Map<String, String> libraries() {
        Map<String, String> v = new LinkedHashMap<>();
        for (String ga : List.of("io.helidon.webserver:helidon-webserver", "io.javalin:javalin",
                "org.eclipse.jetty:jetty-server", "io.projectreactor.netty:reactor-netty-http", "io.netty:netty-common",
                "io.reactivex.rxjava3:rxjava", "com.github.xmlet:htmlflow", "io.jstach:jstachio",
                "io.pebbletemplates:pebble", "org.hdrhistogram:HdrHistogram")) {
            String[] parts = ga.split(":");
            String resource = "/META-INF/maven/" + parts[0] + "/" + parts[1] + "/pom.properties";
            java.util.Properties props = new java.util.Properties();
            try (var in = Bench.class.getResourceAsStream(resource)) {
                if (in != null) {
                    props.load(in);
                }
            } catch (IOException e) {
                // reported as unknown
            }
            v.put(ga, props.getProperty("version", "unknown"));
        }
        return v;
    }
}
