package servers;

import base.UsageException;
import cli.Registry;
import http.Protocol;
import model.Page;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Site;
import site.Tier;
import verify.Fetcher;
import verify.Fetchers;
import verify.Reference;
import verify.TimedFetch;
import verify.Verifier;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 and TLS on every server that declares them ({@link Server#protocols()}): over h2c by prior knowledge and
 * over h2 by ALPN, the whole of verify (bytes, reference page, progressive arrival, the protocol the response came
 * on, concurrency on one connection); then the other ways in on the same port, each answering the reference bytes on
 * the protocol it asked for: the HTTP/1.1 Upgrade to h2c, HTTP/1.1 over the h2 port's TLS, and curl, a client
 * outside the JVM (nghttp2's HTTP/2), by prior knowledge and over TLS. One engine and mode per server, a different
 * mode for each, to keep the suite's time small: {@code verify --protocol} checks the whole product.
 */
class Http2Test {

    private static final Duration DELAY = Duration.ofMillis(25);
    private static final List<String> MODES = List.of("virtual", "blocking", "reactive", "fragments");

    /** For each server that speaks HTTP/2, one combination (htmlflow runs in every mode), the modes spread. */
    private static List<Combination> cases() {
        List<Combination> cases = new ArrayList<>();
        for (Server s : Registry.SERVERS) {
            if (s.protocols().contains(Protocol.H2C)) {
                cases.add(new Combination(s, Registry.engine("htmlflow"),
                        Registry.mode(MODES.get(cases.size() % MODES.size()))));
            }
        }
        return cases;
    }

    /**
     * The cases of one of the two protocol tests ({@code half} 0: h2c, 1: h2): all of them in the full tier; in the
     * quick tier ({@link Tier#diagonal()}) every other one, the two tests between them still taking every server
     * that speaks HTTP/2 once (about 16 s of the quick tier's 3 minutes).
     */
    private static List<Combination> cases(int half) {
        List<Combination> all = cases();
        return Tier.diagonal()
                ? java.util.stream.IntStream.range(0, all.size()).filter(i -> i % 2 == half).mapToObj(all::get).toList()
                : all;
    }

    @Test
    void everyServerButTheJdksSpeaksEveryProtocol() {
        for (Server s : Registry.SERVERS) {
            assertEquals(s.id().equals("jdk") ? List.of(Protocol.H1) : Protocol.all(), s.protocols(), s.id());
        }
        assertEquals(4, cases().size());
    }

    @Test
    void h2cByPriorKnowledgeAndByUpgrade() throws Exception {
        for (Combination c : cases(0)) {
            ServeConfig config = ServeConfig.of(c, DELAY).withProtocol(Protocol.H2C);
            try (Running r = Running.start(config)) {
                URI base = URI.create("http://127.0.0.1:" + r.port() + "/");
                verifies(c, base, Fetchers.of(Protocol.H2C, null));
                answers(c, base, Fetchers.jdk(HttpClient.Version.HTTP_2, null), "Upgrade to h2c");
                answers(c, base, Fetchers.jdk(HttpClient.Version.HTTP_1_1, null), "HTTP/1.1 beside h2c");
                curl(c, base, "2", "--http2-prior-knowledge");
            }
        }
    }

    @Test
    void h2OverTlsByAlpnAndHttp11OverTheSameTlsPort() throws Exception {
        for (Combination c : cases(1)) {
            ServeConfig config = ServeConfig.of(c, DELAY).withProtocol(Protocol.H2);
            try (Running r = Running.start(config)) {
                URI base = URI.create("https://127.0.0.1:" + r.port() + "/");
                SSLContext trust = r.listen.tls().trustingContext();
                verifies(c, base, Fetchers.of(Protocol.H2, trust));
                answers(c, base, Fetchers.jdk(HttpClient.Version.HTTP_1_1, trust), "HTTP/1.1 over h2's TLS port");
                curl(c, base, "2", "--http2", "-k");
                curl(c, base, "1.1", "--http1.1", "-k");
            }
        }
    }

    @Test
    void theJdkServerRefusesHttp2InOneSentence() {
        Combination jdk = Registry.combinations().stream().filter(c -> c.server().id().equals("jdk")).findFirst()
                .orElseThrow();
        UsageException e = assertThrows(UsageException.class,
                () -> ServeConfig.of(jdk, DELAY).withProtocol(Protocol.H2C));
        assertEquals("--protocol=h2c is not available with server jdk, which speaks h1.", e.getMessage());
    }

    private static void verifies(Combination c, URI base, Fetcher client) {
        Verifier.Result result = new Verifier(Registry.ENGINES, DELAY, 5).verify(c, base, client);
        assertTrue(result.ok(), c + " over " + client.version() + ": " + result.allProblems());
    }

    /** Stocks through {@code client}: the engines' bytes, on the protocol the client asked for. */
    private static void answers(Combination c, URI base, Fetcher client, String how) throws Exception {
        try (client) {
            TimedFetch f = client.get(base.resolve(Page.STOCKS.path())).get(30, TimeUnit.SECONDS);
            assertEquals(200, f.status(), c + " " + how);
            assertEquals(client.version(), f.version(), c + " " + how);
            assertArrayEquals(expected(c), f.body(), c + " " + how);
        }
    }

    /** Stocks through curl with {@code flags}: the engines' bytes, and curl's %{http_version} is {@code version}. */
    private static void curl(Combination c, URI base, String version, String... flags) throws Exception {
        Path body = Files.createTempFile("pssrbench-curl", ".html");
        try {
            List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-o", body.toString(),
                    "-w", "%{http_version}"));
            command.addAll(List.of(flags));
            command.add(base.resolve(Page.STOCKS.path()).toString());
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(0, p.waitFor(), c + " curl " + String.join(" ", flags) + ": " + out);
            assertEquals(version, out, c + " curl " + String.join(" ", flags));
            assertArrayEquals(expected(c), Files.readAllBytes(body), c + " curl " + String.join(" ", flags));
        } finally {
            Files.deleteIfExists(body);
        }
    }

    private static byte[] expected(Combination c) {
        return Reference.renderAll(List.of(c.engine())).get(Page.STOCKS).get(c.engine());
    }

    /** A server of this JVM with the listener it was given (over TLS: its certificate). */
    private record Running(Site site, Server.Listen listen, Server.Running running) implements AutoCloseable {
        static Running start(ServeConfig config) {
            Site site = config.site();
            Server.Listen listen = config.listen();
            return new Running(site, listen, config.server().start(listen, site));
        }

        int port() {
            return running.port();
        }

        @Override
        public void close() {
            running.close();
            site.close();
        }
    }
}
