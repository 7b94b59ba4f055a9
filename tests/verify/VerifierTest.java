package verify;

import cli.Registry;
import http.Protocol;
import model.Engine;
import model.Page;
import site.Combination;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** verify must fail a server that is wrong: it is pointed at a plain JDK server that misbehaves on purpose. */
class VerifierTest {

    private static final Combination ANY = Registry.combinations().get(0);

    private static List<String> problemsWith(Function<byte[], byte[]> body, boolean progressive) throws Exception {
        return resultWith(body, n -> progressive).allProblems();
    }

    /** {@code progressiveAt}: whether the page's n-th request (from 1, the warm-up's) is answered progressively. */
    private static Verifier.Result resultWith(Function<byte[], byte[]> body, IntPredicate progressiveAt)
            throws Exception {
        return resultWith(body, progressiveAt, Fetchers.of(Protocol.H1, null));
    }

    /** The same through {@code client}. */
    private static Verifier.Result resultWith(Function<byte[], byte[]> body, IntPredicate progressiveAt,
                                              Fetcher client) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        var pages = Reference.renderAll(Registry.ENGINES);
        for (Page page : Page.values()) {
            byte[] bytes = body.apply(pages.get(page).get(Registry.ENGINES.get(0)));
            AtomicInteger requests = new AtomicInteger();
            server.createContext(page.path(), exchange -> {
                boolean progressive = progressiveAt.test(requests.incrementAndGet());
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    if (!progressive) {
                        sleep(300);
                        out.write(bytes);
                        return;
                    }
                    int from = 0;   // as a progressive server does: the head, then each item after its delay
                    for (int end : page.itemEnds(bytes)) {
                        out.write(bytes, from, end - from);
                        out.flush();
                        from = end;
                        sleep(25);
                    }
                    out.write(bytes, from, bytes.length - from);
                }
            });
        }
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        try {
            return new Verifier(Registry.ENGINES, Duration.ofMillis(25), 5)
                    .verify(ANY, URI.create("http://127.0.0.1:" + server.getAddress().getPort()), client);
        } finally {
            server.stop(0);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aServerThatSendsTheRightPageProgressivelyPasses() throws Exception {
        List<String> problems = problemsWith(b -> b, true);
        assertTrue(problems.isEmpty(), problems::toString);
    }

    /**
     * A client asked for HTTP/2 that silently got HTTP/1.1 (the JDK's client offers the h2c Upgrade, which this
     * HTTP/1.1-only server ignores) fails the protocol check, not passes as HTTP/2.
     */
    @Test
    void aResponseOnAnotherProtocolThanAskedFails() throws Exception {
        Verifier.Result r = resultWith(b -> b, n -> true, Fetchers.jdk(java.net.http.HttpClient.Version.HTTP_2, null));
        assertFalse(r.ok());
        for (Verifier.PageResult page : r.pages()) {
            assertTrue(page.checks().contains(Check.fail(Check.Name.PROTOCOL,
                    "the response came on HTTP/1.1, not HTTP/2")), page.checks().toString());
        }
    }

    /** Each check made has a verdict: a passing server passes every one of them, by name. */
    @Test
    void aPassingServerHasAPassVerdictForEveryCheckMade() throws Exception {
        Verifier.Result r = resultWith(b -> b, n -> true);
        assertEquals(Check.Status.PASS, r.status(), r.toString());
        assertTrue(r.checks().contains(Check.pass(Check.Name.ENGINES)), r.checks().toString());
        for (Verifier.PageResult page : r.pages()) {
            assertEquals(List.of(Check.Name.FETCH, Check.Name.PROTOCOL, Check.Name.STATUS, Check.Name.CONTENT_TYPE, Check.Name.ENCODING,
                    Check.Name.BODY, Check.Name.REFERENCE, Check.Name.PROGRESSIVE, Check.Name.LOOKAHEAD,
                    Check.Name.CONCURRENCY), page.checks().stream().map(Check::name).toList(), page.toString());
            assertTrue(page.checks().stream().allMatch(c -> c.status() == Check.Status.PASS), page.toString());
        }
    }

    /** A page late once and then on time (a stall of a busy machine) passes with a warning that says so. */
    @Test
    void aTimingFailureThatASecondMeasurementClearsIsAWarning() throws Exception {
        Verifier.Result r = resultWith(b -> b, n -> n != 2);   // the first measured request comes in one piece
        assertEquals(Check.Status.WARN, r.status(), r.toString());
        assertTrue(r.ok(), r.toString());
        assertEquals(List.of(), r.allProblems());
        assertTrue(r.warnings().stream().allMatch(w -> w.contains("not progressive") && w.endsWith("(the first"
                + " measurement; the second passed)")) && !r.warnings().isEmpty(), r.warnings().toString());
        for (Verifier.PageResult page : r.pages()) {
            assertTrue(page.checks().stream().filter(c -> c.status() == Check.Status.WARN)
                    .allMatch(c -> c.name() == Check.Name.PROGRESSIVE), page.toString());
        }
    }

    @Test
    void aPageSentInOnePieceEveryTimeFailsItsTimingChecks() throws Exception {
        Verifier.Result r = resultWith(b -> b, n -> false);
        assertEquals(Check.Status.FAIL, r.status());
        List<Check> failed = r.pages().stream().flatMap(p -> p.checks().stream())
                .filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(!failed.isEmpty() && failed.stream().allMatch(c -> c.name().timing()), failed.toString());
        assertEquals(List.of(), r.warnings(), "measured twice, failed twice: no warning");
    }

    @Test
    void aPageSentInOnePieceAtTheEndIsNotProgressive() throws Exception {
        List<String> problems = problemsWith(b -> b, false);
        assertTrue(problems.stream().anyMatch(p -> p.contains("not progressive: first byte")), problems::toString);
        assertTrue(problems.stream().anyMatch(p -> p.contains("pieces")), problems::toString);
    }

    @Test
    void otherBytesAreCaughtEvenWhenTheMarkupIsEquivalent() throws Exception {
        List<String> problems = problemsWith(b -> new String(b, StandardCharsets.UTF_8)
                .replace("</h1>", "</h1>\n").getBytes(StandardCharsets.UTF_8), true);
        assertTrue(problems.stream().anyMatch(p -> p.contains("body differs from the engines' rendering")),
                problems::toString);
        assertFalse(problems.stream().anyMatch(p -> p.contains("reference")), "still equal to the reference");
    }
}
