package site;

import cli.Registry;
import model.Page;

import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --threads} bounds how many pages the blocking mode renders at once, on every server: the platform pool it
 * renders on (the server's handler pool where it runs handlers on one, else the site's render pool) has exactly that
 * many threads. What bench's {@code --threads} axis measures rests on it.
 */
class PoolSizeTest {

    /** Presentations' 10 items at 20 ms: a page takes 0.2 s, rendering, whatever the pool. */
    private static final Duration DELAY = Duration.ofMillis(20);
    private static final int THREADS = 4;
    private static final int REQUESTS = 2 * THREADS;

    /**
     * Twice as many requests at once as the pool has threads: the first {@link #THREADS} pages end after about one
     * page time, the others wait for a free thread and end after about two. A pool that ignored --threads (200)
     * would end all of them after one; one with fewer threads (Jetty's pool of --threads, which also runs its
     * acceptors and selectors) fewer than {@link #THREADS} after one, one with more (Jetty's reserved threads) more.
     */
    @Test
    void theBlockingModeRendersAtMostThreadsPagesAtOnceOnEveryServer() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long page = DELAY.toNanos() * Page.byId("presentations").items().size();
        for (Server server : Registry.SERVERS) {
            Combination c = new Combination(server, Registry.engine("jstachio"), Registry.mode("blocking"));
            try (Servers.Started s = Servers.start(ServeConfig.of(c, DELAY).withThreads(THREADS))) {
                HttpRequest get = HttpRequest.newBuilder(s.uri("/presentations")).build();
                client.send(get, HttpResponse.BodyHandlers.discarding());   // the engine and the pool warmed once
                long start = System.nanoTime();
                List<CompletableFuture<Long>> ends = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++) {
                    ends.add(client.sendAsync(get, HttpResponse.BodyHandlers.ofByteArray())
                            .thenApply(r -> {
                                assertEquals(200, r.statusCode(), server.id());
                                return System.nanoTime() - start;
                            }));
                }
                long[] took = ends.stream().mapToLong(CompletableFuture::join).sorted().toArray();
                String seen = server.id() + ": pages ended after " + Arrays.toString(Arrays.stream(took)
                        .map(t -> t / 1_000_000).toArray()) + " ms, a page taking " + page / 1_000_000 + " ms";
                // The second wave waited for the first: it ended two page times after the start at the earliest.
                // And the first wave was THREADS pages: its last ended well before the second wave's first (a
                // relative test, which a machine slowed down by its neighbours passes as well).
                assertTrue(took[THREADS] >= page * 19 / 10, "fewer than " + THREADS + " pages waited; " + seen);
                assertTrue(took[THREADS] - took[THREADS - 1] >= page / 2, "not " + THREADS + " pages at once; "
                        + seen);
            }
        }
        client.shutdownNow();
    }
}
