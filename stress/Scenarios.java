package stress;

import bench.Kernel;
import core.Combination;
import core.Page;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@code streams} and {@code aborts} scenarios. */
final class Scenarios {

    private Scenarios() {
    }

    static Outcome streams(Combination c, StressSettings s) throws IOException, InterruptedException {
        int n = s.streams();
        long[] limits = Kernel.fileLimits();
        String note = "";
        if (limits[0] >= 0 && limits[0] < n + 200L) {   // the JVM raises its soft limit to the hard one at start
            int lowered = (int) Math.max(1, limits[0] - 200);
            note = "file limit " + limits[0] + " (hard " + limits[1] + ") is below " + n
                    + " connections + 200: lowered to " + lowered + "; raise the hard limit (ulimit -Hn) to run "
                    + n + ". ";
            n = lowered;
        }
        Duration pageTime = s.streamsDelay().multipliedBy(Page.STOCKS.items().size());
        try (StressServer server = StressServer.start(StressServer.config(c).withDelay(s.streamsDelay()),
                s.folder(), "streams")) {
            Raw.pageWorks(server.port(), "/stocks");
            server.resetPeaks();
            long drops = Kernel.listenDrops();
            Streams.Result r = Streams.run(server.port(), "/stocks", n, pageTime.plusSeconds(90));
            long dropped = drops < 0 ? -1 : Kernel.listenDrops() - drops;
            Thread.sleep(200);   // one more sample of the server after the last page
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("connections", n);
            f.put("completed", r.completed());
            f.put("errors", r.errors());
            f.put("open_peak", r.openPeak());
            f.put("page_s", pageTime.toMillis() / 1000.0);
            f.put("wall_s", round(r.wallSeconds()));
            f.put("connect_p99_ms", ms(r.connect().getValueAtPercentile(99)));
            f.put("ttfb_p50_ms", ms(r.ttfb().getValueAtPercentile(50)));
            f.put("ttfb_p99_ms", ms(r.ttfb().getValueAtPercentile(99)));
            f.put("ttlb_p50_ms", ms(r.ttlb().getValueAtPercentile(50)));
            f.put("ttlb_p99_ms", ms(r.ttlb().getValueAtPercentile(99)));
            f.put("server_rss_peak_mb", round(server.peakRssMb()));
            f.put("server_threads_peak", server.peakThreads());
            f.put("server_virtual_threads_peak", server.peakVirtualThreads());
            f.put("listen_drops", dropped);
            boolean pass = r.completed() == n && r.errors() == 0 && r.distinctBodies() == 1 && r.openPeak() == n;
            if (!r.errorKinds().isEmpty()) {
                note += "errors: " + r.errorKinds() + ". ";
            }
            if (r.distinctBodies() > 1) {
                note += r.distinctBodies() + " different bodies. ";
            }
            return new Outcome("streams", c, f, "every page 200, complete and identical; all " + n
                    + " open together", pass, note.strip());
        }
    }

    static Outcome aborts(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c).withDelay(StressServer.IN_FLIGHT_DELAY),
                s.folder(), "aborts")) {
            int port = server.port();
            abort(port, 100, 100);   // warm-up: the pools reach their working size
            Raw.pageWorks(port, "/stocks");
            Thread.sleep(1000);
            List<String> base = server.applicationThreads();
            long baseVirtual = server.virtualThreads();
            int aborted = abort(port, s.aborts(), 100);
            Settled after = settle(server, base, baseVirtual);
            boolean page = Raw.pageWorks(port, "/stocks");
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("requests", s.aborts());
            f.put("aborted", aborted);
            f.put("baseline_after_s", after.seconds());
            f.put("threads_baseline", base.size());
            f.put("threads_after", after.threads().size());
            f.put("virtual_threads_baseline", baseVirtual);
            f.put("virtual_threads_after", after.virtual());
            f.put("in_flight_after", after.renders()[0]);
            f.put("subscriptions_after", after.renders()[1]);
            f.put("normal_page_after", page);
            f.put("warning_lines", server.warnings());
            return new Outcome("aborts", c, f, "platform threads (not the JVM's JIT, GC and JMX ones), virtual threads, in-flight renders and subscriptions back"
                    + " to baseline within 5 s; a normal page afterwards", after.back() && page && aborted == s.aborts(),
                    after.back() ? "" : "not back to baseline within 5 s; threads before " + base + ", after "
                            + after.threads());
        }
    }

    /**
     * What the server holds after a burst of cut pages, read every 100 ms until its platform threads, virtual threads,
     * in-flight renders and subscriptions are back to {@code base} and {@code baseVirtual}, at most 5 s;
     * {@code seconds} is how long that took, -1 if they were not back by then. (aborts and h2-resets share the rule.)
     */
    record Settled(List<String> threads, long virtual, int[] renders, boolean back, double seconds) {
    }

    static Settled settle(StressServer server, List<String> base, long baseVirtual)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<String> now;
        long virtual;
        int[] renders;
        boolean back;
        do {
            Thread.sleep(100);
            now = server.applicationThreads();
            virtual = server.virtualThreads();
            renders = server.renders();
            back = now.size() <= base.size() && virtual <= baseVirtual && renders[0] == 0 && renders[1] == 0;
        } while (!back && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
        return new Settled(now, virtual, renders, back, back ? round((System.nanoTime() - start) / 1e9) : -1);
    }

    /**
     * {@code count} GETs of /stocks, {@code concurrency} at a time, each closed after the first bytes of the page
     * (every other one with a reset); returns how many got their first bytes.
     */
    private static int abort(int port, int count, int concurrency) throws InterruptedException {
        Semaphore permits = new Semaphore(concurrency);
        AtomicInteger ok = new AtomicInteger();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                permits.acquire();
                boolean reset = i % 2 == 1;
                threads.submit(() -> {
                    try (Socket socket = Raw.open(port, 10_000)) {
                        Raw.send(socket, Raw.get("/stocks", port));
                        if (socket.getInputStream().read(new byte[256]) > 0) {
                            ok.incrementAndGet();
                        }
                        if (reset) {
                            socket.setSoLinger(true, 0);
                        }
                    } catch (IOException e) {
                        // counted as not aborted
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        return ok.get();
    }

    static double ms(long micros) {
        return round(micros / 1000.0);
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
