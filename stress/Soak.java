package stress;

import http.Protocol;
import load.LoadGenerator;
import site.Combination;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * A steady load of pages for {@code --soak-duration}: the load generator (closed loop, {@code --soak-connections}
 * keep-alive connections on /stocks at serve's default delay), unsampled for a quarter of that (at most
 * {@link #MAX_WARMUP}), then in {@link #SAMPLES} consecutive windows, and after each
 * the server's heap after its last GC, resident memory, threads, open file descriptors and the window's TTLB p99,
 * written to {@code soak-<combination>.csv} (drawn in the stress report). The heap is fixed and touched at start, so
 * that RSS grows only outside it (10 s on jdk with the JVM's default heap: RSS 179 -> 252 MB as it committed heap,
 * nothing leaking), and a heap that leaks ends in an OutOfMemoryError. A leak shows as growth from the first
 * quarter of the samples to the last; each figure is the median of its quarter, so one GC or one slow window does not
 * decide. The first quarter also holds the JIT's warm-up, whose slower pages only make the last quarter look better.
 */
final class Soak {

    /** The unsampled load before the samples: a quarter of the soak, at most this. */
    static final Duration MAX_WARMUP = Duration.ofSeconds(10);

    /** Samples over the run (fewer when a window would be under a second). */
    static final int SAMPLES = 40;

    // The bounds of growth from the first quarter to the last: a relative part and an absolute slack, since at a
    // short soak's small sizes a few MB or threads are noise (a GC that ran later, a pool that grew once).
    static final double HEAP_PCT = 25;
    static final double HEAP_SLACK_MB = 8;
    // The heap is fixed and touched at start (SlowReaders.FIXED_HEAP), so RSS grows only outside it: code, metaspace,
    // thread stacks, direct buffers; 10% of a 512 MB heap's RSS and 32 MB more is about 90 MB, where a leak of 1 KB a
    // page at 600 pages/s adds 270 MB between the quarters of a 30-minute soak.
    static final double RSS_PCT = 10;
    static final double RSS_SLACK_MB = 32;
    static final long THREADS_SLACK = 8;
    static final long FDS_SLACK = 16;
    // One-second windows' p99 at 16 connections moved by up to 2x on a busy 2-core machine with nothing wrong
    // (33 then 65 ms on jdk, load average 11): a creep worth the name is more than a doubling.
    static final double TTLB_PCT = 100;
    static final double TTLB_SLACK_MS = 10;

    /**
     * Once, whatever the machine did meanwhile: run again while disturbed, as the other scenarios are, a 30-minute
     * soak could take 90; a disturbed soak is kept and marked so in its row and note, as bench keeps a window.
     */
    static final int ATTEMPTS = 1;

    static final Scenario SCENARIO = new Scenario("soak", Set.of(Protocol.H1),
            List.of("--soak-duration", "--soak-connections"), Soak::measure, new Scenario.Rule(
                    f -> "every page complete; from the first quarter to the last, heap after GC grows by at most "
                            + (int) HEAP_PCT + "% + " + (int) HEAP_SLACK_MB + " MB, RSS by " + (int) RSS_PCT + "% + "
                            + (int) RSS_SLACK_MB + " MB, threads by " + THREADS_SLACK + ", open files by " + FDS_SLACK
                            + ", TTLB p99 by " + (int) TTLB_PCT + "% + " + (int) TTLB_SLACK_MS + " ms",
                    Soak::passes), ATTEMPTS);

    private Soak() {
    }

    static boolean passes(Scenario.Figures f) {
        return f.count("pages") > 0 && f.count("errors") == 0
                && within(f.num("heap_first_mb"), f.num("heap_last_mb"), HEAP_PCT, HEAP_SLACK_MB)
                && within(f.num("rss_first_mb"), f.num("rss_last_mb"), RSS_PCT, RSS_SLACK_MB)
                && f.num("threads_last") <= f.num("threads_first") + THREADS_SLACK
                && f.num("fds_last") <= f.num("fds_first") + FDS_SLACK
                && within(f.num("ttlb_p99_first_ms"), f.num("ttlb_p99_last_ms"), TTLB_PCT, TTLB_SLACK_MS);
    }

    private static boolean within(double first, double last, double pct, double slack) {
        return last <= first * (1 + pct / 100) + slack;
    }

    /** One sample: after the window that ended {@code seconds} into the soak. */
    record Sample(double seconds, long pages, long errors, double reqPerS, double ttlbP99Ms, double heapMb,
                  double rssMb, long threads, long virtualThreads, long fds) {
    }

    static Scenario.Measured measure(Combination c, StressSettings s) throws IOException, InterruptedException {
        int samples = (int) Math.max(4, Math.min(SAMPLES, s.soakDuration().toSeconds()));
        Duration window = s.soakDuration().dividedBy(samples);
        try (StressServer server = StressServer.start(StressServer.config(c), s, "soak",
                SlowReaders.FIXED_HEAP)) {
            Raw.Response page = Raw.exchange(server.port(), Raw.get("/stocks", server.port()), 30_000);
            if (page.status() != 200 || !page.complete()) {
                throw new IOException("soak: the server did not serve /stocks (" + page.status() + " "
                        + page.failure() + ")");
            }
            LoadGenerator.Plan plan = new LoadGenerator.Plan(java.net.URI.create("http://127.0.0.1:" + server.port()
                    + "/stocks"), s.soakConnections(), 1, 0, Duration.ZERO, window, page.bodyBytes(),
                    page.bodyCrc(), 0, Duration.ofSeconds(30));
            // Unsampled first: the JIT's warm-up would otherwise read as a change in a short soak.
            Duration warmup = s.soakDuration().dividedBy(4).compareTo(MAX_WARMUP) > 0 ? MAX_WARMUP
                    : s.soakDuration().dividedBy(4);
            // Each window ends within 100 ms of the server's end (Ctrl-C's stop ends it, or a crash): a 30-minute
            // soak otherwise ran its windows against nothing to the end, deaf to Ctrl-C and SIGTERM.
            java.util.function.BooleanSupplier gone = () -> server.ended() != null;
            LoadGenerator.Result warm = LoadGenerator.run(new LoadGenerator.Plan(plan.uri(), plan.connections(), 1,
                    0, Duration.ZERO, warmup, plan.bodyLength(), plan.bodyCrc(), 0, plan.timeout()), gone);
            List<Sample> taken = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < samples; i++) {
                LoadGenerator.Result r = LoadGenerator.run(plan, gone);
                if (gone.getAsBoolean()) {
                    throw new IOException("soak: the server ended after " + taken.size() + " of " + samples
                            + " windows: " + server.ended());
                }
                long[] m = server.memoryAndThreads();
                taken.add(new Sample((System.nanoTime() - start) / 1e9, r.requests(), r.errors(),
                        r.requestsPerSecond(), Scenario.ms(r.ttlb().getValueAtPercentile(99)),
                        server.heapAfterGcBytes() / 1048576.0, m[0] / 1024.0, m[1], server.virtualThreads(),
                        server.openFiles()));
            }
            Path csv = write(s.folder(), c, taken);
            Map<String, Object> f = figures(taken, s,
                    server.jmxWhy("no GC had run in the server by then"));
            f.put("warmup_s", Scenario.round(warm.seconds()));
            f.put("errors", (long) f.get("errors") + warm.errors());
            return new Scenario.Measured(f, "samples in " + csv.getFileName());
        }
    }

    /**
     * The figures the rule reads: totals, and each series' first and last quarter (medians of the samples that were
     * read: a reading of -1 is none). A quarter with no reading is {@link Scenario.Unread}, saying why:
     * {@code heapWhy} for the heap (read over JMX, and only once a GC has run), the /proc files for RSS, threads and
     * open files.
     */
    static Map<String, Object> figures(List<Sample> taken, StressSettings s, String heapWhy) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("duration_s", Scenario.round(taken.get(taken.size() - 1).seconds()));
        f.put("connections", s.soakConnections());
        f.put("samples", taken.size());
        f.put("pages", taken.stream().mapToLong(Sample::pages).sum());
        f.put("errors", taken.stream().mapToLong(Sample::errors).sum());
        String proc = "the server's /proc files could not be read";
        quarters(f, "heap", "_mb", taken, Sample::heapMb, heapWhy);
        quarters(f, "rss", "_mb", taken, Sample::rssMb, proc);
        quarters(f, "threads", "", taken, x -> x.threads(), proc);
        quarters(f, "fds", "", taken, x -> x.fds(), proc);
        quarters(f, "ttlb_p99", "_ms", taken, Sample::ttlbP99Ms, "no window timed a page");
        return f;
    }

    private static void quarters(Map<String, Object> f, String name, String unit, List<Sample> taken,
                                 ToDoubleFunction<Sample> series, String why) {
        int q = Math.max(1, taken.size() / 4);
        f.put(name + "_first" + unit, median(taken.subList(0, q), series, why));
        f.put(name + "_last" + unit, median(taken.subList(taken.size() - q, taken.size()), series, why));
    }

    /** The median of the readings, rounded as stress.csv shows it; {@link Scenario.Unread} when none was read. */
    private static Object median(List<Sample> part, ToDoubleFunction<Sample> series, String why) {
        double[] v = part.stream().mapToDouble(series).filter(x -> x >= 0).sorted().toArray();
        if (v.length == 0) {
            return new Scenario.Unread(why + " (none of the quarter's " + part.size() + " sample(s) read it)");
        }
        return Scenario.round(v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2);
    }

    /** The file the stress report draws the soak of {@code c} from. */
    static String file(Combination c) {
        return "soak-" + c.toString().replace('/', '-').replace(' ', '-') + ".csv";
    }

    static final String HEADER = "t_s,pages,errors,req_per_s,ttlb_p99_ms,heap_after_gc_mb,rss_mb,threads,"
            + "virtual_threads,fds";

    private static Path write(Path folder, Combination c, List<Sample> taken) throws IOException {
        Path csv = folder.resolve(file(c));
        try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            w.write(HEADER + "\n");
            for (Sample x : taken) {
                w.write(String.format(Locale.ROOT, "%.2f,%d,%d,%.1f,%.2f,%.2f,%.1f,%d,%d,%d%n", x.seconds(),
                        x.pages(), x.errors(), x.reqPerS(), x.ttlbP99Ms(), x.heapMb(), x.rssMb(), x.threads(),
                        x.virtualThreads(), x.fds()));
            }
        }
        return csv;
    }
}
