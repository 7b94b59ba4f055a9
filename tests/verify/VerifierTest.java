package verify;

import cli.Registry;
import core.Combination;
import core.Engine;
import core.Page;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** verify must fail a server that is wrong: it is pointed at a plain JDK server that misbehaves on purpose. */
class VerifierTest {

    private static final Combination ANY = Registry.combinations().get(0);

    private static List<String> problemsWith(Function<byte[], byte[]> body, boolean progressive) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        var pages = Reference.renderAll(Registry.ENGINES);
        for (Page page : Page.values()) {
            byte[] bytes = body.apply(pages.get(page).get(Registry.ENGINES.get(0)));
            server.createContext(page.path(), exchange -> {
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
            Verifier.Result r = new Verifier(Registry.ENGINES, Duration.ofMillis(25), 5)
                    .verify(ANY, URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
            return r.allProblems();
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
