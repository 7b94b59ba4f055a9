package stress;

import http.Protocol;
import site.Combination;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http2.Http2Error;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code h2-resets} scenario, {@code aborts} over HTTP/2 at a pace a browser could keep: {@code --aborts} (1,000)
 * GETs of /stocks (20 ms per item) over {@code --h2-connections} (8) h2c or h2 connections, one stream every 250 ms
 * on each connection ({@link #PER_CONNECTION_PER_SECOND}), each reset by the client (RST_STREAM, CANCEL) after its
 * first DATA frame, but every tenth, read to its end, after a warm-up of 100 pages read whole. The server must stop
 * rendering what was reset (threads, virtual threads, in-flight renders and subscriptions back to their baseline within
 * 5 s, as in {@code aborts}), and each connection must keep serving: the pages read to their end whole, and afterwards
 * a normal page on every one of the same connections, with no GOAWAY.
 */
final class H2Resets {

    /** Streams in flight at once at most, over all the connections, as {@code aborts} keeps 100 connections. */
    private static final int CONCURRENCY = 100;
    /**
     * New streams a second on each connection, nearly all of them reset: a user leaving pages as fast as a browser
     * lets them, not a flood. Below every server's rapid-reset defence, so that a server that cuts this client off
     * fails: Jetty counts every RST_STREAM among 128 frame events a second per connection ({@code WindowRateControl});
     * Netty's HTTP/2 codec, which netty and vertx use, allows 200 RST_STREAM frames per connection in 30 s (this pace
     * sends at most 120 in 30 s, however many streams are asked for); Helidon counts 50 resets per 10 s, and only
     * those sent before the server's first DATA, which none of these is. The attack that resets as fast as it can is
     * {@code h2-rapid-reset} ({@link H2Attacks#RAPID_RESET}).
     */
    static final int PER_CONNECTION_PER_SECOND = 4;
    /** Every this-many-th stream is read to its end: the connection must keep serving beside the resets. */
    private static final int WHOLE_EVERY = 10;

    static final Scenario SCENARIO = new Scenario("h2-resets", Set.of(Protocol.H2C, Protocol.H2),
            List.of("--aborts", "--h2-connections"), H2Resets::run, new Scenario.Rule(
                    f -> "at " + PER_CONNECTION_PER_SECOND + " streams a second per connection: platform threads"
                            + " (not the JVM's JIT, GC, JMX and virtual-thread carriers), virtual threads, in-flight"
                            + " renders and subscriptions back to baseline within 5 s; every reset stream got its first"
                            + " DATA, every " + WHOLE_EVERY + "th stream whole; a normal page afterwards on each of the same"
                            + " connections; no GOAWAY",
                    f -> Aborts.backToBaseline(f) && f.count("reset") == f.count("resets_asked")
                            && f.count("whole") == f.count("whole_asked")
                            && f.count("same_connections_page_after") == f.count("connections")
                            && f.count("goaway_connections") == 0));

    private H2Resets() {
    }

    /** What a round of streams did: resets sent after a first DATA frame, whole pages asked and right, failures. */
    private record Round(int resetsAsked, int reset, int wholeAsked, int whole, Map<String, Integer> problems) {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c).withProtocol(s.http2())
                .withDelay(StressServer.IN_FLIGHT_DELAY), s, "h2-resets")) {
            H2Endpoint endpoint = H2Endpoint.of(server);
            Raw.Response page = endpoint.page("/stocks", 30_000);
            EventLoopGroup group = H2Client.loop();
            List<H2Client> clients = new ArrayList<>();
            try {
                for (int i = 0; i < s.h2Connections(); i++) {
                    clients.add(H2Client.open(group, endpoint));
                }
                warmUp(clients);
                Thread.sleep(1000);
                List<String> base = server.applicationThreads();
                long baseVirtual = server.virtualThreads();
                Round r = round(clients, s.aborts(), page);
                Aborts.Settled after = Aborts.settle(server, base, baseVirtual);
                List<String> now = after.threads();
                long virtual = after.virtual();
                int[] renders = after.renders();
                boolean back = after.back();
                double backAfter = after.seconds();
                int sameConnections = 0;
                for (H2Client client : clients) {
                    if (!client.lost() && client.fetch("/stocks", 30).page(page.bodyBytes(), page.bodyCrc())) {
                        sameConnections++;
                    }
                }
                long goAways = clients.stream().filter(k -> k.goAwayError() >= 0).count();
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("protocol", s.http2().id());
                f.put("connections", clients.size());
                f.put("requests", s.aborts());
                f.put("resets_asked", r.resetsAsked());
                f.put("reset", r.reset());
                f.put("whole_asked", r.wholeAsked());
                f.put("whole", r.whole());
                f.put("baseline_after_s", backAfter);
                f.put("threads_baseline", base.size());
                f.put("threads_after", now.size());
                f.put("virtual_threads_baseline", server.overJmx(baseVirtual));
                f.put("virtual_threads_after", server.overJmx(virtual));
                f.put("in_flight_after", server.overJmx(renders[0]));
                f.put("subscriptions_after", server.overJmx(renders[1]));
                f.put("same_connections_page_after", sameConnections);
                f.put("goaway_connections", goAways);
                f.put("warning_lines", server.warnings());
                String note = (back ? "" : "not back to baseline within 5 s; threads before " + base + ", after "
                        + now + ", virtual " + baseVirtual + " -> " + virtual + ", in flight " + renders[0]
                        + ", subscriptions " + renders[1] + ". ")
                        + (r.problems().isEmpty() ? "" : "streams: " + r.problems() + ". ")
                        + (sameConnections == clients.size() ? "" : "a page afterwards on " + sameConnections
                        + " of the " + clients.size() + " connections. ")
                        + (goAways == 0 ? "" : "GOAWAY on " + goAways + " connection(s), error code(s) "
                        + clients.stream().map(H2Client::goAwayError).filter(e -> e >= 0).distinct().sorted()
                        .map(e -> e < Http2Error.values().length ? Http2Error.valueOf(e).name() : "0x"
                                + Long.toHexString(e)).toList() + ". ");
                return new Scenario.Measured(f, note.strip());
            } finally {
                clients.forEach(H2Client::close);
                H2Client.stop(group);
            }
        }
    }

    /**
     * The warm-up: {@link #CONCURRENCY} pages read whole, sent at once over {@code clients}, so that the pools reach
     * the size that many pages in flight need before the baseline is read. No stream is reset, so no pace is needed;
     * a page that fails here is the round's to show.
     */
    private static void warmUp(List<H2Client> clients) throws InterruptedException {
        List<CompletableFuture<H2Stream.Got>> all = new ArrayList<>();
        for (int i = 0; i < CONCURRENCY; i++) {
            all.add(clients.get(i % clients.size()).get("/stocks", false, null));
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // the round that follows says what fails
        }
    }

    /**
     * {@code count} streams, at most {@link #CONCURRENCY} at a time, spread over {@code clients} in turn at {@link
     * #PER_CONNECTION_PER_SECOND} each: each reset after its first DATA frame but every {@link #WHOLE_EVERY}th, read to
     * its end and compared with {@code page}.
     */
    private static Round round(List<H2Client> clients, int count, Raw.Response page) throws InterruptedException {
        Semaphore permits = new Semaphore(CONCURRENCY);
        long start = System.nanoTime();
        long every = 1_000_000_000L / ((long) PER_CONNECTION_PER_SECOND * clients.size());
        AtomicInteger reset = new AtomicInteger();
        AtomicInteger whole = new AtomicInteger();
        Map<String, Integer> problems = new TreeMap<>();
        int wholeAsked = 0;
        for (int i = 0; i < count; i++) {
            long wait = start + i * every - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (!permits.tryAcquire(60, TimeUnit.SECONDS)) {
                problems.merge("no stream ended within 60 s", 1, Integer::sum);
                break;
            }
            boolean toEnd = i % WHOLE_EVERY == WHOLE_EVERY - 1;
            wholeAsked += toEnd ? 1 : 0;
            clients.get(i % clients.size()).get("/stocks", !toEnd, null).whenComplete((g, e) -> {
                if (toEnd && g.page(page.bodyBytes(), page.bodyCrc())) {
                    whole.incrementAndGet();
                } else if (!toEnd && g.reset()) {
                    reset.incrementAndGet();
                } else {
                    synchronized (problems) {
                        problems.merge((toEnd ? "whole: " : "to reset: ") + g.problem(page.bodyBytes(),
                                page.bodyCrc()), 1, Integer::sum);
                    }
                }
                permits.release();
            });
        }
        if (!permits.tryAcquire(CONCURRENCY, 60, TimeUnit.SECONDS)) {
            synchronized (problems) {
                problems.merge("streams still open 60 s after the last was sent", 1, Integer::sum);
            }
        }
        synchronized (problems) {
            return new Round(count - wholeAsked, reset.get(), wholeAsked, whole.get(), new TreeMap<>(problems));
        }
    }
}
