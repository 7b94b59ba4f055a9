package servers;

import cli.Registry;
import model.Mode;
import model.Page;
import site.Combination;
import site.RawHttp;
import site.Server;
import site.Servers;
import site.Site;
import site.Tier;
import verify.Reference;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What clients other than browsers send, on a raw socket, to every server of the registry in every mode it has:
 * {@code Connection: close}, HTTP/1.0, HEAD, an unknown method, a request without Host, the 503 of a draining
 * server, and the static files. Each checks the status line, the framing and whether the socket closes.
 */
class HttpBehaviourTest {

    private static final Duration DELAY = Duration.ofMillis(1);
    private static final String HOST = "Host: 127.0.0.1\r\n";

    /** Every server × mode, with the first engine that has that mode (one diagonal of them in the quick tier). */
    static Stream<Arguments> serversAndModes() {
        List<Arguments> all = new ArrayList<>();
        for (Server server : Registry.SERVERS) {
            for (Mode mode : Registry.MODES) {
                Registry.ENGINES.stream().filter(mode::supports).findFirst()
                        .ifPresent(engine -> all.add(Arguments.of(server.id(), engine.id(), mode.id())));
            }
        }
        return Tier.cases(all, List.<java.util.function.Function<Arguments, ?>>of(a -> a.get()[0], a -> a.get()[2]))
                .stream();
    }

    private static Servers.Started start(String server, String engine, String mode, Duration delay) {
        return Servers.start(new Combination(Registry.server(server), Registry.engine(engine), Registry.mode(mode)),
                delay);
    }

    private static byte[] page(Page page, String engine) {
        return Reference.render(page, Registry.engine(engine)).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void connectionCloseEndsTheConnectionAfterTheResponse(String server, String engine, String mode)
            throws IOException {
        try (Servers.Started s = start(server, engine, mode, DELAY)) {
            for (String path : List.of("/stocks", "/", "/css/style.css", "/nowhere")) {
                try (Wire wire = new Wire(s.port())) {
                    Wire.Response r = wire.send("GET " + path + " HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n")
                            .read(false);
                    assertEquals(path.equals("/nowhere") ? 404 : 200, r.status(), path);
                    assertEquals("close", r.header("connection").toLowerCase(java.util.Locale.ROOT), path);
                    assertTrue(wire.closedWithin(2000), path + ": the socket stays open after Connection: close");
                }
            }
            try (Wire wire = new Wire(s.port())) {   // and the page is the whole page
                Wire.Response r = wire.send("GET /stocks HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n")
                        .read(false);
                assertArrayEquals(page(Page.STOCKS, engine), r.body());
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void http10GetsABodyItCanReadOrAClean505(String server, String engine, String mode) throws IOException {
        Duration delay = Duration.ofMillis(10);   // 200 ms for the page: plenty for the lower bound below
        try (Servers.Started s = start(server, engine, mode, delay); Wire wire = new Wire(s.port())) {
            long start = System.nanoTime();
            Wire.Response r = wire.send("GET /stocks HTTP/1.0\r\n\r\n").read(false);
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (!Registry.server(server).servesHttp10()) {
                assertEquals(505, r.status());
                assertTrue(wire.closedWithin(2000), "the connection must close after the 505");
                return;
            }
            assertEquals(200, r.status());
            assertNull(r.header("transfer-encoding"), "an HTTP/1.0 client cannot read chunked coding");
            assertArrayEquals(page(Page.STOCKS, engine), r.body());
            assertTrue(wire.closedWithin(2000));
            assertTrue(millis >= 20 * delay.toMillis(), "the page took " + millis + " ms: it cannot be complete"
                    + " before its 20 items exist");
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void http10StillStreams(String server, String engine, String mode) throws IOException {
        Duration delay = Duration.ofMillis(50);
        if (!Registry.server(server).servesHttp10()
                || !Registry.mode(mode).streaming(Registry.engine(engine)).progressive()) {
            return;   // refused (checked above), or a page that is never streamed (checked by verify)
        }
        try (Servers.Started s = start(server, engine, mode, delay);
             java.net.Socket socket = new java.net.Socket("127.0.0.1", s.port())) {
            long start = System.nanoTime();
            socket.getOutputStream().write("GET /stocks HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.setSoTimeout(10_000);
            java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[65536];
            while (!received.toString(StandardCharsets.UTF_8).contains("<table>")) {   // the page's head
                int n = socket.getInputStream().read(buffer);
                assertTrue(n > 0, "closed before the head of the page");
                received.write(buffer, 0, n);
            }
            long firstMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(firstMillis < 5 * delay.toMillis(), "the head came after " + firstMillis + " ms, not before"
                    + " the items: HTTP/1.0 responses must still stream");
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void headCarriesTheHeadersOfGetAndNoBody(String server, String engine, String mode) throws IOException {
        try (Servers.Started s = start(server, engine, mode, DELAY); Wire wire = new Wire(s.port())) {
            for (Page page : Page.values()) {
                Wire.Response head = wire.send("HEAD " + page.path() + " HTTP/1.1\r\n" + HOST + "\r\n").read(true);
                assertEquals(200, head.status());
                assertTrue(head.header("content-type").replace(" ", "").equalsIgnoreCase(Site.HTML.replace(" ", "")));
                String length = head.header("content-length");
                assertTrue(length == null || Integer.parseInt(length) == page(page, engine).length,
                        "HEAD says Content-Length " + length + ", GET sends " + page(page, engine).length + " bytes");
                // No body followed: the next response on the same connection is the GET's, whole.
                Wire.Response get = wire.send("GET " + page.path() + " HTTP/1.1\r\n" + HOST + "\r\n").read(false);
                assertEquals(200, get.status());
                assertArrayEquals(page(page, engine), get.body());
            }
            Wire.Response index = wire.send("HEAD / HTTP/1.1\r\n" + HOST + "\r\n").read(true);
            Wire.Response get = wire.send("GET / HTTP/1.1\r\n" + HOST + "\r\n").read(false);
            assertEquals(String.valueOf(get.body().length), index.header("content-length"));
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void theSameAnswersOnEveryServer(String server, String engine, String mode) throws IOException {
        try (Servers.Started s = start(server, engine, mode, DELAY)) {
            try (Wire wire = new Wire(s.port())) {
                Wire.Response r = wire.send("BREW /stocks HTTP/1.1\r\n" + HOST + "\r\n").read(false);
                assertEquals(405, r.status(), "an unknown method");
                assertEquals(Site.ALLOW, r.header("allow"));
                r = wire.send("POST /stocks HTTP/1.1\r\n" + HOST + "X-HTTP-Method-Override: GET\r\n"
                        + "Content-Length: 0\r\n\r\n").read(false);
                assertEquals(405, r.status(), "POST, whatever a header says it means");
            }
            try (Wire wire = new Wire(s.port())) {
                Wire.Response r = wire.send("GET /stocks HTTP/1.1\r\n\r\n").read(false);
                assertEquals(400, r.status(), "an HTTP/1.1 request without Host (RFC 9112 section 3.2)");
                assertTrue(wire.closedWithin(2000));
            }
        }
    }

    /**
     * A malformed method or request target gets 400 on every server, a well-formed method that is not GET or HEAD
     * 405 (methods are case-sensitive: {@code get} too, except on nima, whose Helidon folds case: see NimaServer),
     * and none of them logs anything above FINE: a client's bad request is not the server's news.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void malformedRequestLinesGet400AndNoLog(String server) throws IOException {
        Mode mode = Registry.MODES.get(0);
        String engine = Registry.ENGINES.stream().filter(mode::supports).findFirst().orElseThrow().id();
        List<String> logged;
        try (RawHttp.Logged log = new RawHttp.Logged(java.util.logging.Level.FINE);
             Servers.Started s = start(server, engine, mode.id(), DELAY)) {
            logged = log.records;
            List<String> wrong = new ArrayList<>();
            String[][] cases = {
                {"X<s> /stocks", "400"}, {"G(T /stocks", "400"},
                {"GET /\\", "400"}, {"GET /\0", "400"}, {"GET \\", "400"}, {"GET /\u007f", "400"},
                {"BREW /stocks", "405"}, {"get /stocks", server.equals("nima") ? "200" : "405"},
            };
            for (String[] c : cases) {
                for (int i = 0; i < 2; i++) {   // each time, not only the first
                    int status = RawHttp.status(s.port(), c[0] + " HTTP/1.1\r\n" + HOST + "\r\n");
                    if (status != Integer.parseInt(c[1])) {
                        wrong.add(c[0].replace("\0", "NUL").replace("\u007f", "DEL") + ": " + status);
                    }
                }
            }
            assertEquals(List.of(), wrong, "expected " + java.util.Arrays.deepToString(cases));
            assertEquals(200, RawHttp.status(s.port(), "GET / HTTP/1.1\r\n" + HOST + "\r\n"));
        }
        // A render of an earlier test's that its server's stop interrupted may still end while this one runs: it
        // logs at FINE (model.Render), so it is not counted here.
        synchronized (logged) {
            assertEquals(List.of(), List.copyOf(logged), "logged above FINE");
        }
    }

    static Stream<String> servers() {
        return Registry.SERVERS.stream().map(Server::id);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void aDrainingServerSays503CloseAndRetryAfter(String server, String engine, String mode) throws Exception {
        try (Servers.Started s = start(server, engine, mode, DELAY); Wire wire = new Wire(s.port())) {
            Wire.Response before = wire.send("GET /stocks HTTP/1.1\r\n" + HOST + "\r\n").read(false);
            assertEquals(200, before.status());
            // The page is complete on the wire; its handler may still be returning: the drain waits for that.
            assertEquals(0, s.site().drain(Duration.ofSeconds(2)));
            Wire.Response r = wire.send("GET /stocks HTTP/1.1\r\n" + HOST + "\r\n").read(false);
            assertEquals(503, r.status());
            assertEquals("close", r.header("connection").toLowerCase(java.util.Locale.ROOT));
            assertNotNull(r.header("retry-after"));
            assertTrue(Integer.parseInt(r.header("retry-after")) >= 1);
            assertTrue(wire.closedWithin(2000), "a keep-alive client must not be left to send more requests here");
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void theDrainCountsEachPageInFlightOnce(String server, String engine, String mode) throws Exception {
        int pages = 4;
        // The drain says, once, that it cuts the pages its grace did not see end: kept and checked, not printed.
        try (RawHttp.Logged logged = RawHttp.Logged.quietly(java.util.logging.Level.INFO);
             Servers.Started s = start(server, engine, mode, Duration.ofMillis(200))) {
            List<Wire> open = new ArrayList<>();
            try {
                for (int i = 0; i < pages; i++) {
                    Wire wire = new Wire(s.port()).send("GET /stocks HTTP/1.1\r\n" + HOST + "\r\n");
                    open.add(wire);
                }
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (s.site().inFlight() < pages && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertEquals(pages, s.site().drain(Duration.ofMillis(50)), pages + " pages in flight");
                assertTrue(logged.records.stream().anyMatch(r -> r.contains(pages + " page(s) still in flight")),
                        "the cut is logged: " + logged.records);
            } finally {
                for (Wire wire : open) {
                    wire.close();
                }
            }
        }
    }

    /**
     * The drain cuts the pages left when its grace period ends, before the server stops: each ends without its last
     * chunk (no page end; a buffered page, of which nothing was sent, gets a 500), well before it would have ended.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void theDrainCutsThePagesLeftWhenTheGraceEnds(String server, String engine, String mode) throws Exception {
        int pages = 2;
        try (RawHttp.Logged logged = RawHttp.Logged.quietly(java.util.logging.Level.INFO);   // as above
             Servers.Started s = start(server, engine, mode, Duration.ofMillis(200))) {   // a page lasts 4 s
            List<RawHttp.Exchange> open = new ArrayList<>();
            try {
                for (int i = 0; i < pages; i++) {
                    open.add(new RawHttp.Exchange(s.port(), "/stocks"));
                }
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (s.site().inFlight() < pages && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                long start = System.nanoTime();
                assertEquals(pages, s.site().drain(Duration.ofMillis(50)));
                for (RawHttp.Exchange page : open) {
                    String response = page.rest();
                    assertTrue(!response.contains("</html>"), "cut: " + response);
                }
                assertTrue(System.nanoTime() - start < 2_000_000_000L, "cut at once, not when the page ended");
                assertTrue(logged.records.stream().anyMatch(r -> r.contains(pages + " page(s) still in flight")),
                        "the cut is logged: " + logged.records);
            } finally {
                for (RawHttp.Exchange page : open) {
                    page.close();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("serversAndModes")
    void theLinkedFilesAreServedWithTypesAndCaching(String server, String engine, String mode) throws IOException {
        try (Servers.Started s = start(server, engine, mode, DELAY); Wire wire = new Wire(s.port())) {
            String[][] files = {
                {"/webjars/bootstrap/5.3.0/css/bootstrap.min.css", "text/css"},
                {"/css/style.css", "text/css"},
                {"/js/util.js", "text/javascript"},
                {"/images/favicon.ico", "image/x-icon"},
            };
            for (String[] file : files) {
                Wire.Response r = wire.send("GET " + file[0] + " HTTP/1.1\r\n" + HOST + "\r\n").read(false);
                assertEquals(200, r.status(), file[0]);
                assertTrue(r.header("content-type").startsWith(file[1]), file[0] + ": " + r.header("content-type"));
                assertTrue(r.header("cache-control").contains("max-age="), file[0]);
                assertEquals(String.valueOf(r.body().length), r.header("content-length"), file[0] + ": not streamed");
                assertTrue(r.body().length > 100, file[0]);
            }
            for (String path : List.of("/css/../data/stocks.json", "/css/missing.css", "/images/", "/js/x.class")) {
                Wire.Response r = wire.send("GET " + path + " HTTP/1.1\r\n" + HOST + "\r\n").read(false);
                assertEquals(404, r.status(), path);
            }
        }
    }
}
