package stress;

import http.Protocol;
import site.Combination;

import java.io.IOException;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code aborts} scenario: GETs of /stocks closed after their first bytes (every other one with a reset), 100 at
 * a time, after a warm-up of 100; the server's threads, virtual threads, in-flight renders and data-source
 * subscriptions must come back to their baseline within 5 s, and a normal page must follow.
 */
final class Aborts {

    static final Scenario SCENARIO = new Scenario("aborts", Set.of(Protocol.H1), List.of("--aborts"), Aborts::run,
            new Scenario.Rule(f -> "platform threads (not the JVM's JIT, GC, JMX and virtual-thread carriers),"
                    + " virtual threads, in-flight renders and subscriptions back to baseline within 5 s; a normal"
                    + " page afterwards",
                    f -> f.count("aborted") == f.count("requests") && backToBaseline(f)
                            && f.yes("normal_page_after")));

    private Aborts() {
    }

    /**
     * The server's platform threads, virtual threads, in-flight renders and subscriptions at their baseline at the
     * last reading ({@link #settle}'s condition, from the figures; aborts and h2-resets share it).
     */
    static boolean backToBaseline(Scenario.Figures f) {
        return f.count("threads_after") <= f.count("threads_baseline")
                && f.count("virtual_threads_after") <= f.count("virtual_threads_baseline")
                && f.count("in_flight_after") == 0 && f.count("subscriptions_after") == 0;
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c).withDelay(StressServer.IN_FLIGHT_DELAY),
                s, "aborts")) {
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
            f.put("virtual_threads_baseline", server.overJmx(baseVirtual));
            f.put("virtual_threads_after", server.overJmx(after.virtual()));
            f.put("in_flight_after", server.overJmx(after.renders()[0]));
            f.put("subscriptions_after", server.overJmx(after.renders()[1]));
            f.put("normal_page_after", page);
            f.put("warning_lines", server.warnings());
            return new Scenario.Measured(f, after.back() ? "" : "not back to baseline within 5 s; threads before "
                    + base + ", after " + after.threads() + ", virtual " + baseVirtual + " -> " + after.virtual()
                    + ", in flight " + after.renders()[0] + ", subscriptions " + after.renders()[1]);
        }
    }

    /**
     * What the server holds after a burst of cut pages, read every 100 ms until its platform threads, virtual threads,
     * in-flight renders and subscriptions are back to {@code base} and {@code baseVirtual}, at most 5 s;
     * {@code seconds} is how long that took, -1 if they were not back by then. A figure that cannot be read (-1: no
     * JMX) is not waited for: the rule fails on it anyway, saying it could not be read, and the others are still
     * measured. (aborts and h2-resets share the rule.)
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
            back = now.size() <= base.size() && (virtual < 0 || baseVirtual < 0 || virtual <= baseVirtual)
                    && renders[0] <= 0 && renders[1] <= 0;
        } while (!back && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
        return new Settled(now, virtual, renders, back, back ? Scenario.round((System.nanoTime() - start) / 1e9) : -1);
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
}
