package bench;

import base.AtomicFile;
import base.Durations;
import base.UsageException;
import importers.HyperfoilImport;
import load.LoadGenerator;
import load.LoadWorker;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.spi.ToolProvider;

/**
 * {@code bench --driver=hyperfoil}: each point written as a Hyperfoil benchmark ({@link HyperfoilBenchmark}) and run
 * on Hyperfoil's own engine ({@code LocalSimulationRunner} of {@code io.hyperfoil:hyperfoil-http} {@value #VERSION},
 * the newest on Maven Central) in a JVM of its own.
 *
 * <p>Why a JVM of its own: Hyperfoil 0.25 is built on Vert.x 4.3 and Netty 4.1, with Jackson 2.15, HdrHistogram 2.1
 * and a Log4j binding for SLF4J; PssrBench's vertx server needs Vert.x 5 and its servers Netty 4.2. Both Vert.x
 * versions have the same package and class names, so one class path cannot hold both, and a shaded jar (or jbang)
 * keeps only one. The driver's class path is therefore resolved by Maven, once, into a cache folder
 * ({@link #cache}): {@code mvn dependency:build-classpath} on a three-line pom naming hyperfoil-http, the same way
 * in the Maven-built jar and under jbang. The runner (bench/hyperfoil/HyperfoilRunner.java, a resource of the jar)
 * is compiled against that class path with the JDK's javac; nothing of Hyperfoil enters PssrBench's own class path.
 */
public final class HyperfoilDriver implements LoadDriver, LoadDriver.Exports {

    public static final String VERSION = "0.25.2";
    static final String RUNNER = "bench/hyperfoil/HyperfoilRunner.java";

    /** Hyperfoil's class path and the compiled runner's; null in {@link LoadDrivers}' entry, not yet prepared. */
    private final String classPath;

    /** The entry of {@link LoadDrivers}: {@link #prepare} makes the driver that runs. */
    HyperfoilDriver() {
        this(null);
    }

    private HyperfoilDriver(String classPath) {
        this.classPath = classPath;
    }

    // HTTP/1.1 only (its benchmarks are written for it, HyperfoilBenchmark), whole responses timed only, the load
    // from a JVM of its own.
    private static final About ABOUT = new About("hyperfoil", "Hyperfoil " + VERSION + "'s engine in a JVM of its own,"
            + " fetched by Maven; no TTFB or first item: see docs/hyperfoil.md", HyperfoilImport.TOOL,
            "pssrbench bench --driver=hyperfoil: Hyperfoil " + VERSION
                    + " (io.hyperfoil:hyperfoil-http, LocalSimulationRunner, in a JVM of its own)", true, false, true);

    @Override
    public About about() {
        return ABOUT;
    }

    /** Its run is a process of its own: whatever ends it, the next point starts another. */
    @Override
    public boolean failsPointOnly(Point p) {
        return true;
    }

    /**
     * One point on Hyperfoil's engine: its benchmark written to {@code hyperfoil/NAME.hf.yaml} and its figures to
     * {@code hyperfoil/NAME.json}, Hyperfoil's log to {@code logs/NAME.hyperfoil.log}.
     */
    @Override
    public LoadGenerator.Result run(LoadGenerator.Plan plan, Point p, Path out, String name, BooleanSupplier stopped,
                                    Runnable measuring) throws IOException, InterruptedException {
        Duration w = HyperfoilBenchmark.warmup(plan.warmup(), plan.steady());
        Path dir = Files.createDirectories(out.resolve("hyperfoil"));
        Files.createDirectories(out.resolve("logs"));
        Path yaml = dir.resolve(name + ".hf.yaml");
        // As many event-loop threads as PssrBench's generator uses for the point (--load-threads, at most one per
        // connection).
        AtomicFile.write(yaml, HyperfoilBenchmark.yamlAt(p, plan.uri(), w, plan.duration(),
                Duration.ofSeconds(10), List.of(), plan.threads()));
        return run(yaml, dir.resolve(name + ".json"), out.resolve("logs/" + name + ".hyperfoil.log"),
                w.toNanos() / 1e9, stopped, measuring);
    }

    /** What a Hyperfoil row's note says beyond {@link HyperfoilImport#NOTE}. */
    @Override
    public String remark(LoadGenerator.Steady steady) {
        String note = HyperfoilImport.NOTE + " (Hyperfoil " + VERSION + ", its own JVM)";
        return steady == null ? note : note + "; fixed warm-up of " + Durations.format(steady.least())
                + " (--warmup=auto adapts with PssrBench's own generator only)";
    }

    /** Where the driver's class path and compiled runner are kept: $XDG_CACHE_HOME or ~/.cache, pssrbench/. */
    static Path cache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("pssrbench/hyperfoil-" + VERSION);
    }

    /**
     * The driver ready to run: Hyperfoil's class path resolved (Maven downloads it the first time) and the runner
     * compiled. Fails with one sentence when Maven is missing or cannot resolve it.
     */
    @Override
    public HyperfoilDriver prepare() throws IOException, InterruptedException {
        if (classPath != null) {
            return this;
        }
        Path dir = cache();
        Files.createDirectories(dir);
        Path cpFile = dir.resolve("classpath.txt");
        if (!Files.isRegularFile(cpFile) || !allExist(Files.readString(cpFile).strip())) {
            Files.writeString(dir.resolve("pom.xml"), """
                    <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                      <groupId>pssrbench</groupId><artifactId>hyperfoil-driver</artifactId><version>1</version>
                      <!-- PssrBench's Hyperfoil driver: its class path, apart from PssrBench's own -->
                      <dependencies><dependency><groupId>io.hyperfoil</groupId><artifactId>hyperfoil-http</artifactId>
                        <version>%s</version></dependency></dependencies>
                    </project>
                    """.formatted(VERSION));
            List<String> mvn = List.of("mvn", "-B", "-q", "-f", dir.resolve("pom.xml").toString(),
                    "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath",
                    "-Dmdep.outputFile=" + cpFile);
            Process p;
            try {
                p = new ProcessBuilder(mvn).redirectErrorStream(true).redirectOutput(dir.resolve("mvn.log").toFile())
                        .start();
            } catch (IOException e) {
                throw new UsageException("--driver=hyperfoil needs Maven (mvn on the PATH) to fetch"
                        + " io.hyperfoil:hyperfoil-http:" + VERSION + " and its dependencies: " + e.getMessage());
            }
            if (p.waitFor() != 0 || !Files.isRegularFile(cpFile)) {
                throw new IOException("Maven could not resolve io.hyperfoil:hyperfoil-http:" + VERSION + " (see "
                        + dir.resolve("mvn.log") + ")");
            }
        }
        String deps = Files.readString(cpFile).strip();
        Path classes = dir.resolve("classes");
        Path source = dir.resolve("HyperfoilRunner.java");
        byte[] runner;
        try (InputStream in = HyperfoilDriver.class.getClassLoader().getResourceAsStream(RUNNER)) {
            if (in == null) {
                throw new IOException(RUNNER + " is missing from PssrBench's jar or sources");
            }
            runner = in.readAllBytes();
        }
        // Compiled again whenever the runner changed (another PssrBench version): compare with the compiled copy.
        if (!Files.isRegularFile(source) || !java.util.Arrays.equals(Files.readAllBytes(source), runner)
                || !Files.isRegularFile(classes.resolve("HyperfoilRunner.class"))) {
            Files.write(source, runner);
            ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new UsageException(
                    "--driver=hyperfoil needs a JDK (javac), not a JRE, to compile its runner."));
            java.io.StringWriter errors = new java.io.StringWriter();
            java.io.PrintWriter w = new java.io.PrintWriter(errors);
            if (javac.run(w, w, "-nowarn", "-cp", deps, "-d", classes.toString(), source.toString()) != 0) {
                throw new IOException("the Hyperfoil runner did not compile: " + errors);
            }
        }
        return new HyperfoilDriver(classes + java.io.File.pathSeparator + deps);
    }

    private static boolean allExist(String classPath) {
        return !classPath.isEmpty() && java.util.Arrays.stream(classPath.split(java.io.File.pathSeparator))
                .allMatch(j -> Files.exists(Path.of(j)));
    }

    private List<String> command(String... args) {
        List<String> c = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", classPath, "--enable-native-access=ALL-UNNAMED", "HyperfoilRunner"));
        c.addAll(List.of(args));
        return c;
    }

    /**
     * What Hyperfoil's own parser (BenchmarkParser) makes of {@code yaml}: the benchmark's name, its phases and
     * agents, a line each; fails with the parser's message.
     */
    public List<String> parse(Path yaml) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command("parse", yaml.toString())).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(err.lines().filter(l -> l.contains("refused")).findFirst().orElse(err.strip()));
        }
        return out.lines().toList();
    }

    /**
     * Runs {@code yaml} (written for {@code p}) and returns its measured phase as the load generator's result:
     * whole-response times only (TTFB and first-item histograms empty), no body check, chunks and the client's
     * CPU unknown (-1). {@code measuring} runs when the measured phase starts; {@code stop} ends the run. Hyperfoil's
     * log goes to {@code log}; its figures to {@code json} (the layout of Hyperfoil's JSON export).
     */
    LoadGenerator.Result run(Path yaml, Path json, Path log, double warmupSeconds, BooleanSupplier stop,
                             Runnable measuring) throws IOException, InterruptedException {
        Files.deleteIfExists(json);
        // Its standard input stays a pipe from this JVM, never written to: the runner ends when it ends, so that a
        // bench ended by SIGKILL leaves no Hyperfoil JVM loading a server that is gone.
        Process p = new ProcessBuilder(command("run", yaml.toString(), json.toString()))
                .redirectError(log.toFile()).start();
        try {
            Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.equals("measuring")) {
                            measuring.run();
                        }
                    }
                } catch (IOException e) {   // the process ended: its exit status says how
                }
            });
            while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
                if (stop.getAsBoolean()) {
                    p.destroy();
                }
            }
            reader.join();
        } finally {
            p.destroyForcibly();
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(json)) {
            throw new IOException("Hyperfoil's run ended with status " + p.exitValue() + " (its log: " + log + ")");
        }
        HyperfoilImport.Phase m = HyperfoilImport.read(json).stream()
                .filter(x -> x.phase().equals(HyperfoilBenchmark.MEASURE)).findFirst()
                .orElseThrow(() -> new IOException("Hyperfoil measured nothing in its phase '"
                        + HyperfoilBenchmark.MEASURE + "' (its log: " + log + ")"));
        Histogram ttlb = LoadWorker.histogram();
        if (m.hdrHistogram() != null) {   // Hyperfoil's nanoseconds, as the load generator's microseconds
            Histogram ns;
            try {
                ns = Histogram.decodeFromCompressedByteBuffer(
                        ByteBuffer.wrap(Base64.getDecoder().decode(m.hdrHistogram())), 0);
            } catch (java.util.zip.DataFormatException e) {
                throw new IOException("Hyperfoil's histogram in " + json + " does not decode: " + e.getMessage());
            }
            ns.recordedValues().forEach(v -> ttlb.recordValueWithCount(
                    Math.min(v.getValueIteratedTo() / 1000, ttlb.getHighestTrackableValue()),
                    v.getCountAtValueIteratedTo()));
        }
        return new LoadGenerator.Result(m.responses(), m.non2xx(), 0, m.ioErrors(), m.timeouts(), m.seconds(),
                LoadWorker.histogram(), LoadWorker.histogram(), ttlb, -1, -1, warmupSeconds, true, List.of());
    }

    /**
     * {@code --export=DIR}: every point of {@code combination} (pages x connections x rates; no rate: the closed
     * loop) as {@code DIR/NAME.hf.yaml} for a Hyperfoil cluster whose {@code agents} load the server at {@code base};
     * each checked with Hyperfoil's own parser. Returns the files written.
     */
    @Override
    public List<Path> export(site.Combination combination, List<model.Page> pages, List<Integer> connections,
                             List<Double> rates, URI base, Duration warmup, LoadGenerator.Steady steady,
                             Duration duration, List<String> agents, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (model.Page page : pages) {
            for (int c : connections) {
                for (double rate : rates.isEmpty() ? List.of(0.0) : rates) {
                    Point p = new Point(combination, page, c, rate);
                    Path file = dir.resolve(HyperfoilBenchmark.name(p) + ".hf.yaml");
                    AtomicFile.write(file, HyperfoilBenchmark.yaml(p, base,
                            HyperfoilBenchmark.warmup(warmup, steady), duration, Duration.ofSeconds(10), agents, 0));
                    parse(file);   // Hyperfoil's parser accepts it, agents included, or this fails
                    written.add(file);
                }
            }
        }
        return written;
    }
}
