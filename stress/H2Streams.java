package stress;

import http.Protocol;
import model.Page;
import site.Combination;

import io.netty.channel.EventLoopGroup;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@code h2-streams} scenario: many streams on few connections ({@code --h2-connections}, 8, each with {@code
 * --h2-streams}, 100, one GET of /stocks at {@code --streams-delay} per item, all sent at once), over h2c by prior
 * knowledge or h2 over TLS ({@code --protocol}), with HTTP/2's initial windows. Every page must come back 200, whole
 * and equal to the page the same port serves over HTTP/1.1, with no stream reset and no GOAWAY, and as many streams
 * open together as the server's SETTINGS_MAX_CONCURRENT_STREAMS lets each connection have.
 */
final class H2Streams {

    static final Scenario SCENARIO = new Scenario("h2-streams", Set.of(Protocol.H2C, Protocol.H2),
            List.of("--h2-connections", "--h2-streams", "--streams-delay"), H2Streams::run, new Scenario.Rule(
                    f -> "every stream 200, whole and equal to the page over HTTP/1.1; no reset, no GOAWAY; "
                            + expectedOpen(f) + " streams open together (" + f.count("connections")
                            + " connections x " + expectedOpen(f) / f.count("connections") + ")",
                    f -> f.count("completed") == f.count("connections") * f.count("streams_per_connection")
                            && f.count("goaway_connections") == 0 && f.count("open_peak") == expectedOpen(f)));

    /** As many streams open together as the server's SETTINGS_MAX_CONCURRENT_STREAMS (-1: none) lets each have. */
    static long expectedOpen(Scenario.Figures f) {
        long max = f.count("server_max_streams");
        long perConnection = f.count("streams_per_connection");
        return f.count("connections") * (max < 0 ? perConnection : Math.min(perConnection, max));
    }

    private H2Streams() {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        int connections = s.h2Connections();
        int perConnection = s.h2Streams();
        int n = connections * perConnection;
        Duration pageTime = s.streamsDelay().multipliedBy(Page.STOCKS.items().size());
        Duration timeout = pageTime.plusSeconds(30);
        try (StressServer server = StressServer.start(StressServer.config(c).withProtocol(s.http2())
                .withDelay(s.streamsDelay()), s, "h2-streams")) {
            H2Endpoint endpoint = H2Endpoint.of(server);
            Raw.Response page = endpoint.page("/stocks", 30_000 + (int) pageTime.toMillis());
            EventLoopGroup group = H2Client.loop();
            List<H2Client> clients = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    clients.add(H2Client.open(group, endpoint));
                }
                long maxStreams = clients.get(0).maxConcurrentStreams();
                int expectedOpen = connections * (int) (maxStreams < 0 ? perConnection
                        : Math.min(perConnection, maxStreams));
                server.resetPeaks();
                H2Stream.Gauge gauge = new H2Stream.Gauge();
                long start = System.nanoTime();
                List<CompletableFuture<H2Stream.Got>> all = new ArrayList<>();
                for (H2Client client : clients) {
                    for (int i = 0; i < perConnection; i++) {
                        all.add(client.get("/stocks", false, gauge));
                    }
                }
                try {
                    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(timeout.toMillis(),
                            TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // those not done are counted below
                }
                double wall = (System.nanoTime() - start) / 1e9;
                Thread.sleep(200);   // one more sample of the server after the last page
                Histogram ttfb = new Histogram(3);
                Histogram ttlb = new Histogram(3);
                Map<String, Integer> errors = new TreeMap<>();
                int completed = 0;
                for (CompletableFuture<H2Stream.Got> f : all) {
                    H2Stream.Got g = f.getNow(null);
                    if (g == null) {
                        errors.merge("not finished within " + timeout.toSeconds() + " s", 1, Integer::sum);
                    } else if (g.page(page.bodyBytes(), page.bodyCrc())) {
                        completed++;
                        ttfb.recordValue(Math.max(0, g.ttfbNanos() / 1000));
                        ttlb.recordValue(g.ttlbNanos() / 1000);
                    } else {
                        errors.merge(g.problem(page.bodyBytes(), page.bodyCrc()), 1, Integer::sum);
                    }
                }
                long goAways = clients.stream().filter(k -> k.goAwayError() >= 0).count();
                int errorCount = n - completed;
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("protocol", s.http2().id());
                f.put("connections", connections);
                f.put("streams_per_connection", perConnection);
                f.put("server_max_streams", maxStreams);
                f.put("completed", completed);
                f.put("errors", errorCount);
                f.put("open_peak", gauge.peak());
                f.put("page_s", pageTime.toMillis() / 1000.0);
                f.put("wall_s", Scenario.round(wall));
                f.put("ttfb_p50_ms", Scenario.ms(ttfb.getValueAtPercentile(50)));
                f.put("ttfb_p99_ms", Scenario.ms(ttfb.getValueAtPercentile(99)));
                f.put("ttlb_p50_ms", Scenario.ms(ttlb.getValueAtPercentile(50)));
                f.put("ttlb_p99_ms", Scenario.ms(ttlb.getValueAtPercentile(99)));
                f.put("goaway_connections", goAways);
                f.put("server_rss_peak_mb", Scenario.round(server.peakRssMb()));
                f.put("server_threads_peak", server.peakThreads());
                f.put("server_virtual_threads_peak", server.peakVirtualThreads());
                String note = errors.isEmpty() ? "" : "errors: " + errors + ". ";
                if (goAways > 0) {
                    note += "GOAWAY on " + goAways + " connection(s), error code "
                            + clients.stream().mapToLong(H2Client::goAwayError).max().orElse(-1) + ". ";
                }
                if (gauge.peak() != expectedOpen) {
                    note += "open together: " + gauge.peak() + " of " + expectedOpen + ". ";
                }
                return new Scenario.Measured(f, note.strip());
            } finally {
                clients.forEach(H2Client::close);
                H2Client.stop(group);
            }
        }
    }
}
