package bench;

import base.AtomicFile;
import base.Durations;
import harness.CpuWatch;
import harness.Kernel;
import harness.ServerJmx;
import harness.ServerProcess;
import http.ListenAddress;
import load.LoadGenerator;
import load.WrongResponses;
import model.Page;
import tables.Row;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

/**
 * One point of a sweep against a running server: the load generator's run, the server's resources sampled over
 * the measured window, the kernel's listen drops, the histograms written to {@code hgrm/}, the first wrong
 * responses to {@code wrong/} ({@link WrongResponses}), and the row. Apart from
 * {@link Bench}, which decides which points to measure and in what order, and must not be used from here (the
 * sweep uses this class, not the other way round).
 *
 * @param warmup      each point's fixed warm-up, not measured (ignored when {@code steady} is set)
 * @param steady      the adaptive warm-up's rule ({@code --warmup=auto}); null for a fixed warm-up
 * @param duration    each point's measured window
 * @param loadThreads the load generator's threads at most (never more than the point's connections)
 * @param jfr         whether a JFR recording of the measured window is written to {@code jfr/}
 * @param out         the results folder
 * @param driver      the load generator, prepared ({@code --driver}, {@link LoadDrivers})
 */
record PointMeasurement(Duration warmup, LoadGenerator.Steady steady, Duration duration, int loadThreads,
                        boolean jfr, Path out, LoadDriver driver) {

    /** With PssrBench's own load generator. */
    PointMeasurement(Duration warmup, LoadGenerator.Steady steady, Duration duration, int loadThreads, boolean jfr,
                     Path out) {
        this(warmup, steady, duration, loadThreads, jfr, out, new PssrBenchDriver());
    }

    /**
     * The same measurement for a point whose JVM an earlier window warmed: a fixed warm-up of {@code settle} instead
     * of the adaptive one. Unchanged with a fixed warm-up (the user's, every window's) or without a settle (null).
     */
    PointMeasurement settling(Duration settle) {
        return steady == null || settle == null ? this
                : new PointMeasurement(settle, null, duration, loadThreads, jfr, out, driver);
    }

    /** How many runs of the bare data source give its floor (a median); about 0.5 s for Stocks at 1 ms. */
    private static final int SOURCE_SAMPLES = 15;
    /** Period of the /proc readings during the measured window (cheap: a file read). */
    private static final long PROC_SAMPLE_MILLIS = 200;
    /**
     * Period of the JMX readings: each is one RMI call that the server pays for in CPU (about a millisecond or
     * two on a small machine), so they are rarer than the /proc ones.
     */
    private static final long JMX_SAMPLE_MILLIS = 1000;

    /** The data source alone, in the server JVM, before the page's first point: its median time for a page. */
    static double sourceFloor(ServerProcess server, Page page) {
        if (server == null || server.jmx() == null) {
            return Double.NaN;
        }
        long start = System.nanoTime();
        try {
            return server.jmx().sourceMedianMillis(page.id(), SOURCE_SAMPLES);
        } catch (RuntimeException e) {   // JMX failures arrive unchecked through the proxy
            return Double.NaN;
        } finally {
            server.note("floor", System.nanoTime() - start);   // a fixed cost of the repetition (phases.csv)
        }
    }

    /**
     * One point against {@code server} (null: a server started elsewhere, at {@code base}); {@code body} is the
     * verified page, {@code sourceMs} the data source's floor for the page (NaN unknown), {@code stopped} cuts the
     * run short; {@code name} names the window's files (histograms, JFR, the warm-up's trace).
     */
    Row measure(URI base, ServerProcess server, Point p, byte[] body, double sourceMs, BooleanSupplier stopped,
                String name) throws IOException, InterruptedException {
        return measure(base.resolve(p.page().id()), server == null ? -1 : server.pid(), server, p, body,
                p.page().itemEnds(body)[0], sourceMs, stopped, name,
                "server at " + base + " (started elsewhere): its resources not measured");
    }

    /**
     * Warms the JVM of {@code server} up on point {@code p} (a page at its heaviest load in the repetition) with the
     * adaptive rule, measures nothing, and keeps the trace as {@code logs/<name>.warmup.csv}; returns whether the load
     * became steady. Always PssrBench's own generator: the warm-up is not a measurement, whatever --driver measures.
     */
    boolean warm(URI base, ServerProcess server, Point p, byte[] body, BooleanSupplier stopped, String name)
            throws IOException, InterruptedException {
        LoadGenerator.Result r = LoadGenerator.run(plan(base.resolve(p.page().id()), server, p, body,
                p.page().itemEnds(body)[0], Duration.ZERO, Duration.ofMillis(1)), stopped);
        writeWarmup(name, r);
        return r.steady();
    }

    /** Whether each point warms up until steady (--warmup=auto), rather than for a fixed time. */
    boolean adaptive() {
        return steady != null;
    }

    /**
     * One point of a foreign app ({@link ForeignApp}): its page at its own path, the first item where its own
     * markup ends it, its CPU, RSS and threads from /proc when its PID is known.
     */
    Row measure(ForeignApp app, Point p, BooleanSupplier stopped, String name)
            throws IOException, InterruptedException {
        URI uri = app.uris().get(p.page());
        return measure(uri, app.pid(), null, p, app.bodies().get(p.page()), app.firstItemEnds().get(p.page()),
                Double.NaN, stopped, name, app.resourcesRemark(uri));
    }

    /**
     * {@code pid}: the measured process (-1: none known here), {@code server}: the one bench started (null
     * otherwise, then no JMX), {@code firstItemEnd}: the body offset where the first item's markup ends,
     * {@code unsampled}: the row's remark when no server was started here.
     */
    private Row measure(URI uri, long pid, ServerProcess server, Point p, byte[] body, int firstItemEnd,
                        double sourceMs, BooleanSupplier stopped, String name, String unsampled)
            throws IOException, InterruptedException {
        LoadGenerator.Plan plan = plan(uri, server, p, body, firstItemEnd, warmup, duration);
        ServerJmx jmx = server == null ? null : server.jmx();
        boolean recording = jfr && jmx != null;
        PointRows.Resources res = new PointRows.Resources();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread[] sampler = {null};
        // The server's and this JVM's CPU are the measured ones; a server started elsewhere may have no PID here.
        // A driver whose load comes from a child JVM (Hyperfoil's): this JVM and all it started (the server, the
        // driver), the driver's CPU counted in this JVM's once it has ended and been reaped; a foreign app's PID
        // beside them.
        long[] measured = pid < 0 ? new long[] {ProcessHandle.current().pid()}
                : new long[] {pid, ProcessHandle.current().pid()};
        java.util.function.Supplier<CpuWatch.Mark> mark = !driver.about().childJvm() ? () -> CpuWatch.mark(measured)
                : server != null || pid < 0 ? CpuWatch::markTree : () -> {
                    CpuWatch.Mark tree = CpuWatch.markTree();   // a foreign app is not one of this JVM's children
                    CpuWatch.Mark app = CpuWatch.mark(pid);
                    return new CpuWatch.Mark(tree.busy(), tree.steal(), tree.total(),
                            tree.processes() + app.processes(), tree.nanos(), tree.known() && app.known());
                };
        CpuWatch.Mark[] from = {null};
        // Over the warm-up too: that is when the point's connections are opened, when a short queue overflows.
        long dropsBefore = Kernel.listenDrops();
        Runnable measuring = () -> {
            from[0] = mark.get();
            if (pid >= 0) {   // a server started elsewhere without a PID: nothing to sample
                sampler[0] = startSampler(pid, jmx, recording, res, sampling);
            }
        };
        LoadGenerator.Result r;
        if (!driver.failsPointOnly(p)) {
            r = driver.run(plan, p, out, name, stopped, measuring);
        } else {
            try {
                r = driver.run(plan, p, out, name, stopped, measuring);
            } catch (IOException e) {   // this point only (a sweep that was stopped drops it)
                sampling.set(false);
                if (sampler[0] != null) {
                    sampler[0].join();
                }
                if (recording) {   // started with the measured window, if it began: kept, as for any point
                    jmx.stopRecording(out.resolve("jfr/" + name + ".jfr"));
                }
                return PointRows.failed(driver.about().tool(), p, e.getMessage());
            }
        }
        if (from[0] == null) {   // a child JVM's run ended before its measured phase began (stopped)
            from[0] = mark.get();
        }
        CpuWatch.Conditions conditions = CpuWatch.between(from[0], mark.get());
        if (pid < 0) {   // its CPU is not told apart from the rest of the machine's
            conditions = new CpuWatch.Conditions(Double.NaN, conditions.stealPct());
        }
        Long drops = listenDrops(dropsBefore, Kernel.listenDrops(), server != null || onThisMachine(uri));
        sampling.set(false);
        if (sampler[0] != null) {
            sampler[0].join();   // the sampler's writes happen-before the reads below
            res.cpuEnd = CpuWatch.processNanos(pid);
        }
        if (res.first != null) {
            try {
                res.add(jmx.sample());
            } catch (RuntimeException e) {
                res.first = null;
            }
        }
        if (recording) {
            jmx.stopRecording(out.resolve("jfr/" + name + ".jfr"));
        }
        if (!r.warmupCounts().isEmpty()) {   // the adaptive warm-up's trace: how the point reached steady state
            writeWarmup(name, r);
        }

        if (driver.about().timesFirstBytes()) {   // Hyperfoil times whole responses only: no such histograms to write
            writeHgrm(name + ".ttfb", r.ttfb());
            writeHgrm(name + ".first-item", r.firstItem());
        }
        writeHgrm(name + ".ttlb", r.ttlb());
        String remark = server == null ? unsampled : server.jmxProblem();
        String driverRemark = driver.remark(steady);
        if (driverRemark != null) {
            remark = (remark == null || remark.isEmpty() ? "" : remark + "; ") + driverRemark;
        }
        if (drops != null && drops > 0) {   // the kernel dropped connection attempts: clients waited in SYN retries
            remark = (remark == null || remark.isEmpty() ? "" : remark + "; ") + "kernel listen drops: " + drops
                    + " (whole machine)";
        }
        if (!r.steady() && steady != null) {
            remark = (remark == null || remark.isEmpty() ? "" : remark + "; ") + "no steady state within the "
                    + Durations.format(steady.max()) + " warm-up cap";
        }
        if (r.serverCloses() > 0) {
            remark = (remark == null || remark.isEmpty() ? "" : remark + "; ") + (p.protocol().http2()
                    ? "the server ended " + r.serverCloses() + " connections with GOAWAY (their streams finished or"
                    + " were sent again), reopened"
                    : "the server closed " + r.serverCloses() + " connections after a complete response"
                    + " (Connection: close), reopened");
        }
        Row row = PointRows.measured(driver.about().tool(), p, r,
                res, sourceMs, drops, remark, conditions);
        // The first wrong responses as received, in wrong/ beside hgrm/: the note names them (a row with errors is
        // invalid, and its note is the errors' count, so they are added to that).
        String kept = WrongResponses.write(r.kept(), out, name, body);
        return kept.isEmpty() ? row : row.withText(java.util.function.UnaryOperator.identity(),
                note -> note.isEmpty() ? kept : note + "; " + kept);
    }

    /**
     * The load generator's plan for {@code p} at {@code uri}: this measurement's threads and warm-up rule, the
     * verified {@code body} every response is checked against, the given warm-up and window.
     */
    private LoadGenerator.Plan plan(URI uri, ServerProcess server, Point p, byte[] body, int firstItemEnd,
                                    Duration warmup, Duration duration) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        // Over TLS the generator trusts exactly the certificate of the server bench started (ServerProcess made it).
        java.security.cert.X509Certificate trust = server == null || server.tls() == null ? null
                : server.tls().chain().get(0);
        return new LoadGenerator.Plan(uri, p.connections(), Math.min(loadThreads, p.connections()), p.rate(), warmup,
                duration, body.length, crc.getValue(), firstItemEnd, Duration.ofSeconds(10), steady, p.protocol(),
                p.streams(), trust);
    }

    /**
     * The listen_drops of a point from the kernel's counter before and after it (-1: /proc/net/netstat could not be
     * read), or null where they say nothing about the server: the counter unknown or gone back (another network
     * namespace), or the server on another machine ({@code local} false), whose kernel this one does not see.
     */
    static Long listenDrops(long before, long after, boolean local) {
        return local && before >= 0 && after >= before ? after - before : null;
    }

    /**
     * Whether a server started elsewhere ({@code --target}) listens on this machine: its host is a loopback address
     * or one of this machine's interfaces. A name that does not resolve is not.
     */
    static boolean onThisMachine(URI base) {
        try {
            return ListenAddress.isLocal(InetAddress.getByName(base.getHost()));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Samples the server's resources over the measured window: from the end of the warm-up until {@code sampling}
     * turns false. /proc every {@link #PROC_SAMPLE_MILLIS}, JMX (if attached) every {@link #JMX_SAMPLE_MILLIS}.
     */
    private Thread startSampler(long pid, ServerJmx jmx, boolean recording, PointRows.Resources res,
                                AtomicBoolean sampling) {
        return Thread.ofPlatform().daemon(true).name("pssr-sampler").start(() -> {
            try {
                res.cpuStart = CpuWatch.processNanos(pid);
                if (jmx != null) {
                    res.add(jmx.sample());
                }
                if (recording) {
                    jmx.startRecording();
                }
                long nextJmx = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JMX_SAMPLE_MILLIS);
                while (sampling.get()) {
                    long[] m = ServerProcess.memoryAndThreads(pid);
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

    /** {@code logs/<point>.warmup.csv}: the completed requests of each second of an adaptive warm-up. */
    private void writeWarmup(String name, LoadGenerator.Result r) throws IOException {
        StringBuilder csv = new StringBuilder("second,requests\n");
        for (int i = 0; i < r.warmupCounts().size(); i++) {
            csv.append(i + 1).append(',').append(r.warmupCounts().get(i)).append('\n');
        }
        Files.createDirectories(out.resolve("logs"));
        AtomicFile.write(out.resolve("logs/" + name + ".warmup.csv"), csv);
    }

    private void writeHgrm(String name, Histogram h) throws IOException {
        AtomicFile.write(out.resolve("hgrm/" + name + ".hgrm"), stream -> {
            PrintStream file = new PrintStream(stream, false, StandardCharsets.UTF_8);
            h.outputPercentileDistribution(file, 1000.0);   // microseconds recorded, milliseconds written
            file.flush();
        });
    }
}
