package modes;

import cli.Registry;
import model.Engine;
import model.Mode;
import model.Page;
import site.Combination;
import site.Logs;
import site.Server;
import site.Servers;
import site.Tier;
import verify.TimedFetch;
import verify.Verifier;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Combinations from the registry, served for real on loopback: every engine × mode pair and every server × mode
 * pair (a pairwise cover), not the whole product. An engine only writes to the render's Writer and a server only
 * carries chunks, so what can go wrong between them is covered by those pairs, while the product (hundreds of
 * combinations) would take most of CI's time; {@code pssrbench verify} checks the whole product.
 *
 * <p>The verifications run two at a time (JUnit's parallel execution, enabled for surefire in pom.xml with a
 * parallelism of 2; every other test keeps running alone): each spends nearly all its time waiting for the data
 * source's 25 ms items, each on a server of its own on its own port, and a stall that delays one response's items
 * is measured again before it fails (Verifier.verifyPage). The tests that read what this whole JVM holds (its
 * thread count, the data source's subscriptions, the pssrbench logger: {@link MatrixFailuresTest}'s) take the
 * {@link #JVM} lock exclusively and so never run beside a verification. Measured on the shared 2-core machine (load average 5-11 from other work): the class took 253.5 and
 * 255.7 s one at a time, 168.3 s two at a time (149.4 s with JUnit's pool alone, which ran four at once); the
 * verifications whose first measurement missed a timing rule and whose second passed were 2 of 53 one at a time,
 * 4 two at a time, 5 four at a time, none failed.
 */
class MatrixTest {

    /** What this JVM holds as a whole: its threads, the data source's subscriptions, the pssrbench logger. */
    static final String JVM = "modes.MatrixTest.jvm";

    /**
     * Two verifications at a time, whatever the size of JUnit's pool (which adds threads while one waits for a lock:
     * four ran at once without this).
     */
    private static final java.util.concurrent.Semaphore VERIFYING = new java.util.concurrent.Semaphore(2);

    private static Verifier verifier;

    @BeforeAll
    static void setUp() {
        Logs.configure();
        // Verify's own thresholds at a smaller delay and concurrency, to keep the suite short.
        verifier = new Verifier(Registry.ENGINES, Duration.ofMillis(25), 20);
    }

    /**
     * The pairwise cover, or one diagonal of it in the quick tier ({@link Tier}); only one mode's cases with
     * {@code -Dpssrbench.matrix.mode=ID} (for work on one mode, without serving the whole cover).
     */
    static List<Combination> combinations() {
        String only = System.getProperty("pssrbench.matrix.mode", "");
        return Tier.cases(pairwise(Registry.combinations(), Registry.SERVERS, Registry.MODES),
                List.<Function<Combination, ?>>of(Combination::engine, Combination::mode, Combination::server))
                .stream().filter(c -> only.isEmpty() || c.mode().id().equals(only)).toList();
    }

    /**
     * Each engine × mode pair on a server that rotates with the engine and the mode, then each server × mode pair
     * that this left out, with the mode's first engine.
     */
    static List<Combination> pairwise(List<Combination> all, List<Server> servers, List<Mode> modes) {
        java.util.Set<Combination> chosen = new java.util.LinkedHashSet<>();
        for (int m = 0; m < modes.size(); m++) {
            Mode mode = modes.get(m);
            List<Engine> engines = all.stream().filter(c -> c.mode() == mode).map(Combination::engine).distinct()
                    .toList();
            for (int e = 0; e < engines.size(); e++) {
                chosen.add(new Combination(servers.get((e + m) % servers.size()), engines.get(e), mode));
            }
            for (Server s : servers) {
                if (chosen.stream().noneMatch(c -> c.server() == s && c.mode() == mode) && !engines.isEmpty()) {
                    chosen.add(new Combination(s, engines.get(0), mode));
                }
            }
        }
        return List.copyOf(chosen);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("combinations")
    @Execution(ExecutionMode.CONCURRENT)
    @ResourceLock(value = JVM, mode = ResourceAccessMode.READ)
    void servesBothPagesIdenticalToTheReferenceProgressivelyUnderConcurrency(Combination c)
            throws InterruptedException {
        Verifier.Result result;
        VERIFYING.acquire();
        try {
            result = verifier.verify(c);
        } finally {
            VERIFYING.release();
        }
        assertTrue(result.ok(), () -> String.join("\n", result.allProblems()));
        assertEquals(Page.values().length, result.pages().size());
    }

    @Test
    void routesAndMethodsBehaveTheSameOnEveryServer() throws Exception {
        HttpClient client = TimedFetch.client();
        for (Server s : Registry.SERVERS) {
            Combination c = Registry.combinations().stream().filter(x -> x.server() == s).findFirst().orElseThrow();
            try (Servers.Started server = Servers.start(c, Duration.ZERO)) {
                var index = TimedFetch.get(client, server.uri("/")).get(10, TimeUnit.SECONDS);
                assertEquals(200, index.status(), s.id());
                String html = new String(index.body(), java.nio.charset.StandardCharsets.UTF_8);
                for (Page page : Page.values()) {
                    assertTrue(html.contains("href=\"" + page.path() + "\""), s.id() + " index links " + page.path());
                }
                assertEquals(404, TimedFetch.get(client, server.uri("/nope")).get(10, TimeUnit.SECONDS).status());
                for (String method : List.of("POST", "PUT", "DELETE")) {
                    var response = client.send(java.net.http.HttpRequest.newBuilder(server.uri("/stocks"))
                            .method(method, java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding());
                    assertEquals(405, response.statusCode(), s.id() + " " + method);
                    assertEquals("GET, HEAD", response.headers().firstValue("allow").orElse(""), s.id());
                }
                var head = client.send(java.net.http.HttpRequest.newBuilder(server.uri("/stocks"))
                        .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, head.statusCode(), s.id());
                assertEquals(0, head.body().length, s.id());
                assertTrue(head.headers().firstValue("content-type").orElse("").startsWith("text/html"), s.id());
            }
        }
        client.shutdownNow();
    }

    static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what);
            }
            Thread.sleep(20);
        }
    }
}
