package bench;

import records.Report;

import core.Combination;
import core.DataSource;
import core.Durations;
import core.Engine;
import core.Page;
import core.Server;
import records.Provenance;
import verify.Reference;
import records.Row;
import records.Summary;
import core.UsageException;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * {@code bench}: for each selected combination, one server JVM, verified first, then every page × connection
 * count (× rate) measured with {@link LoadGenerator}, each point written to the results folder as it finishes, so
 * that an interrupted sweep keeps its finished points and {@code --resume} measures only the rest.
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

    /** How many runs of the bare data source give its floor (a median); about 0.5 s for Stocks at 1 ms. */
    private static final int SOURCE_SAMPLES = 15;
    /** Period of the /proc readings during the measured window (cheap: a file read). */
    private static final long PROC_SAMPLE_MILLIS = 200;
    /**
     * Period of the JMX readings: each is one RMI call that the server pays for in CPU (about a millisecond or
     * two on a small machine), so they are rarer than the /proc ones.
     */
    private static final long JMX_SAMPLE_MILLIS = 1000;

    /** One point of the sweep; {@code rate} 0 is the closed loop. */
    private final Sweep sweep;
    private final PrintWriter console;
    private final List<Row> rows = new ArrayList<>();
    private final PointRows.Ceilings ceilings;
    private volatile boolean stopped;
    /** The verification JVM running now, if any, so that a stop does not wait for it. */
    private volatile Process verifying;

    public Bench(Sweep sweep, PrintWriter console) {
        this.sweep = sweep;
        this.ceilings = new PointRows.Ceilings(engines().stream().filter(Engine::baseline).map(Engine::id)
                .collect(java.util.stream.Collectors.toSet()));
        this.console = console;
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
        Process p = verifying;
        if (p != null) {   // a verification takes many seconds: not worth finishing when the sweep ends
            p.destroy();
        }
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
                measureAll(group.getValue(), sweep.target(), null, checkBytes(sweep.target(), expected), expected,
                        progress, total, started);
                continue;
            }
            String unverified = verify(c);
            if (stopped) {
                break;
            }
            Path log = sweep.out().resolve("logs/" + Point.label(c) + ".server.log");
            try (ServerProcess server = ServerProcess.start(c, sweep.delay(), sweep.timers(), sweep.serverCpuPrefix(),
                    log)) {
                measureAll(group.getValue(), server.base(), server,
                        unverified != null ? unverified : checkBytes(server.base(), expected), expected, progress,
                        total, started);
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
                double floor = floors.computeIfAbsent(p.page(), page -> sourceFloor(server, page));
                byte[] body = expected.get(p.page()).values().iterator().next();
                row = measure(base, server, p, body, floor);
            }
            if (stopped) {
                break;   // cut short: not a result
            }
            record(row);
        }
    }

    /**
     * {@code verify} of one combination (progressive, correct, the same bytes under concurrency), in a JVM of its
     * own like the measured server: this JVM, the load generator's, never runs a server. Returns why it failed, or
     * null; its output is kept in logs/.
     */
    private String verify(Combination c) throws IOException, InterruptedException {
        Path log = sweep.out().resolve("logs/" + Point.label(c) + ".verify.log");
        Process p = new ProcessBuilder(ServerProcess.command(List.of(), "verify", "--server=" + c.server().id(),
                "--engine=" + c.engine().id(), "--mode=" + c.mode().id(), "--delay=20ms", "--concurrency=10"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        verifying = p;
        if (stopped) {
            p.destroy();
        }
        boolean ended;
        try {
            ended = p.waitFor(5, TimeUnit.MINUTES);
        } finally {
            verifying = null;
        }
        if (stopped) {
            p.waitFor();
            return "not verified: the sweep was stopped";
        }
        if (!ended) {
            p.destroyForcibly().waitFor();
            return "failed verification: no answer within 5 minutes; see " + log;
        }
        if (p.exitValue() == 0) {
            return null;
        }
        String why = Files.readAllLines(log).stream().filter(l -> l.startsWith("    ")).map(String::strip)
                .findFirst().orElse("exit code " + p.exitValue());
        return "failed verification: " + why + " (see " + log.getFileName() + ")";
    }

    /** The served pages at the measured delay must be byte-identical to the engines' rendering. */
    private static String checkBytes(URI base, Map<Page, Map<Engine, byte[]>> expected)
            throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            for (Page page : Page.values()) {
                byte[] want = expected.get(page).values().iterator().next();
                HttpResponse<byte[]> r;
                try {
                    r = client.send(HttpRequest.newBuilder(base.resolve(page.id())).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                } catch (IOException e) {   // a server gone since it was asked: its points are invalid, said why
                    return "failed verification: GET " + page.path() + " at " + base + " failed: "
                            + verify.TimedFetch.why(e);
                }
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

    /** The data source alone, in the server JVM, before the page's first point: its median time for a page. */
    private static double sourceFloor(ServerProcess server, Page page) {
        if (server == null || server.jmx() == null) {
            return Double.NaN;
        }
        try {
            return server.jmx().sourceMedianMillis(page.id(), SOURCE_SAMPLES);
        } catch (RuntimeException e) {   // JMX failures arrive unchecked through the proxy
            return Double.NaN;
        }
    }

    /** One point against {@code server} ({@code sourceMs}: the data source's floor for the page, NaN unknown). */
    private Row measure(URI base, ServerProcess server, Point p, byte[] body, double sourceMs)
            throws IOException, InterruptedException {
        CRC32C crc = new CRC32C();
        crc.update(body);
        LoadGenerator.Plan plan = new LoadGenerator.Plan(base.resolve(p.page().id()), p.connections(),
                Math.min(sweep.loadThreads(), p.connections()), p.rate(), sweep.warmup(), sweep.duration(),
                body.length, crc.getValue(), p.page().itemEnds(body)[0], Duration.ofSeconds(10));
        ServerJmx jmx = server == null ? null : server.jmx();
        boolean jfr = sweep.jfr() && jmx != null;
        PointRows.Resources res = new PointRows.Resources();
        AtomicBoolean sampling = new AtomicBoolean(true);
        // A server started elsewhere (--target) has no PID or JMX here: nothing to sample.
        Thread sampler = server == null ? null : startSampler(server, jmx, jfr, res, sampling);
        long dropsBefore = Kernel.listenDrops();
        LoadGenerator.Result r = LoadGenerator.run(plan, () -> stopped);
        long drops = dropsBefore < 0 ? -1 : Kernel.listenDrops() - dropsBefore;
        sampling.set(false);
        if (sampler != null) {
            sampler.join();   // the sampler's writes happen-before the reads below
            res.cpuEnd = server.cpuNanos();
        }
        if (res.first != null) {
            try {
                res.add(jmx.sample());
            } catch (RuntimeException e) {
                res.first = null;
            }
        }
        if (jfr) {
            jmx.stopRecording(sweep.out().resolve("jfr/" + p.name() + ".jfr"));
        }

        writeHgrm(p.name() + ".ttfb", r.ttfb());
        writeHgrm(p.name() + ".first-item", r.firstItem());
        writeHgrm(p.name() + ".ttlb", r.ttlb());
        String remark = server == null ? "server at " + base + " (started elsewhere): its resources not measured"
                : server.jmxProblem();
        if (drops > 0) {   // the kernel dropped connection attempts: clients waited in SYN retries
            remark = (remark == null || remark.isEmpty() ? "" : remark + "; ") + "kernel listen drops: " + drops
                    + " (whole machine)";
        }
        return PointRows.measured(p, r, res, sourceMs, remark);
    }

    /**
     * Samples the server's resources over the measured window: from the end of the warm-up until {@code sampling}
     * turns false. /proc every {@link #PROC_SAMPLE_MILLIS}, JMX (if attached) every {@link #JMX_SAMPLE_MILLIS}.
     */
    private Thread startSampler(ServerProcess server, ServerJmx jmx, boolean jfr, PointRows.Resources res,
                                AtomicBoolean sampling) {
        return Thread.ofPlatform().daemon(true).name("pssr-sampler").start(() -> {
            try {
                Thread.sleep(sweep.warmup().toMillis());
                res.cpuStart = server.cpuNanos();
                if (jmx != null) {
                    res.add(jmx.sample());
                }
                if (jfr) {
                    jmx.startRecording();
                }
                long nextJmx = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JMX_SAMPLE_MILLIS);
                while (sampling.get()) {
                    long[] m = server.memoryAndThreads();
                    if (m[0] >= 0) {
                        res.rssPeakKb = Math.max(res.rssPeakKb, m[0]);
                        res.rssSumKb += m[0];
                        res.rssSamples++;
                    }
                    res.threadsPeak = Math.max(res.threadsPeak, m[1]);
                    if (jmx != null && System.nanoTime() >= nextJmx) {
                        res.add(jmx.sample());
                        nextJmx += TimeUnit.MILLISECONDS.toNanos(JMX_SAMPLE_MILLIS);
                    }
                    Thread.sleep(PROC_SAMPLE_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {   // JMX failures arrive unchecked: the columns stay empty
                res.first = null;
            }
        });
    }

    private void record(Row measured) throws IOException {
        Row row = ceilings.apply(measured);
        rows.add(row);
        Summary.append(sweep.out().resolve("summary.csv"), row);
        Summary.writeJson(sweep.out().resolve("summary.json"), rows);
    }

    private void writeHgrm(String name, Histogram h) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(sweep.out().resolve("hgrm/" + name + ".hgrm")),
                false, StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(out, 1000.0);   // microseconds recorded, milliseconds written
        }
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
                    Summary.text(r, "first_item_p50_ms"), Summary.text(r, "ttlb_p50_ms"), Summary.text(r, "ttlb_p99_ms"), Summary.text(r, "cpu_ms_per_req"),
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
