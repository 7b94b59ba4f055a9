package stress;

import cli.Registry;
import http.Protocol;
import model.Page;
import site.Combination;
import site.RawHttp;
import site.ServeConfig;
import site.Servers;

import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over HTTP/2 a page that fails midway ends its own stream, and the connection goes on serving the others (the pass
 * rule of {@code h2-resets}, in the test JVM, on one h2c connection through the scenarios' own client): a page whose
 * data source fails after 3 items must end with the server's RST_STREAM, not a clean END_STREAM, and a stream the
 * client resets must leave a page beside it on the same connection whole. Javalin on both of its paths
 * (servers/JettyStreamReset.java): a page rendered on the handler's thread (virtual) and one answered later through
 * servlet async (reactive). Before the fix javalin closed the connection under a failed page, taking every stream on
 * it down.
 */
class H2StreamResetTest {

    private static final Duration DELAY = Duration.ofMillis(25);

    private static List<Combination> cases() {
        return List.of("virtual", "reactive").stream().map(mode -> new Combination(Registry.server("javalin"),
                Registry.engine("htmlflow"), Registry.mode(mode))).toList();
    }

    @Test
    void aPageThatFailsMidwayIsResetAloneAndTheConnectionGoesOn() throws Exception {
        for (Combination c : cases()) {
            ServeConfig config = ServeConfig.of(c, DELAY).withFailAfter(3).withProtocol(Protocol.H2C);
            // The injected failures are logged by the render, one line a page: kept here, not printed. Every other
            // logger's records are caught too: Jetty's and Javalin's must stay silent (an abort at the wrong moment
            // made Javalin log an IllegalStateException at SEVERE).
            try (RawHttp.Logged pages = RawHttp.Logged.quietly(Level.INFO);
                 RawHttp.Logged libraries = new RawHttp.Logged(Level.INFO);
                 Servers.Started s = Servers.start(config)) {
                EventLoopGroup group = H2Client.loop();
                try (H2Client client = H2Client.open(group, H2Endpoint.clear(s.port()))) {
                    CompletableFuture<H2Stream.Got> failing = client.get(Page.STOCKS.path(), false, null);
                    CompletableFuture<H2Stream.Got> beside = client.get("/", false, null);
                    H2Stream.Got failed = failing.get(30, TimeUnit.SECONDS);
                    H2Stream.Got index = beside.get(30, TimeUnit.SECONDS);
                    assertEquals(200, failed.status(), c + ": the head was sent before the failure");
                    assertTrue(failed.bodyBytes() > 0, c + ": the page's first part arrived");
                    assertTrue(String.valueOf(failed.failure()).startsWith("stream reset by the server"),
                            c + ": the failed page must end with RST_STREAM, got: " + failed.failure());
                    assertEquals(null, index.failure(), c + ": the index beside it");
                    assertEquals(200, index.status(), c + ": the index beside it");
                    H2Stream.Got after = client.fetch("/", 30);
                    assertEquals(null, after.failure(), c + ": a page on the same connection after the failure");
                    assertEquals(200, after.status(), c + ": a page on the same connection after the failure");
                    assertFalse(client.lost(), c + ": the connection is still open, with no GOAWAY ("
                            + client.goAwayError() + ")");
                } finally {
                    H2Client.stop(group);
                }
                awaitTrue(() -> s.site().inFlight() == 0, c + ": the failed render ends");
                assertEquals(1, pages.records.size(), c + ": one line for the failed page: " + pages.records);
                assertEquals(List.of(), List.copyOf(libraries.records), c + ": nothing from Jetty or Javalin");
            }
        }
    }

    @Test
    void aStreamTheClientResetsLeavesThePageBesideItWhole() throws Exception {
        for (Combination c : cases()) {
            ServeConfig config = ServeConfig.of(c, DELAY).withProtocol(Protocol.H2C);
            try (Servers.Started s = Servers.start(config)) {
                Raw.Response page = H2Endpoint.clear(s.port()).page(Page.STOCKS.path(), 30_000);   // over HTTP/1.1
                EventLoopGroup group = H2Client.loop();
                try (H2Client client = H2Client.open(group, H2Endpoint.clear(s.port()))) {
                    CompletableFuture<H2Stream.Got> reset = client.get(Page.STOCKS.path(), true, null);
                    CompletableFuture<H2Stream.Got> whole = client.get(Page.STOCKS.path(), false, null);
                    H2Stream.Got r = reset.get(30, TimeUnit.SECONDS);
                    assertTrue(r.reset(), c + ": reset by the client after its first DATA: " + r.failure());
                    H2Stream.Got w = whole.get(30, TimeUnit.SECONDS);
                    assertTrue(w.page(page.bodyBytes(), page.bodyCrc()), c + ": the page beside the reset one: "
                            + w.problem(page.bodyBytes(), page.bodyCrc()));
                    H2Stream.Got after = client.fetch(Page.STOCKS.path(), 30);
                    assertTrue(after.page(page.bodyBytes(), page.bodyCrc()), c + ": a page on the same connection"
                            + " afterwards: " + after.problem(page.bodyBytes(), page.bodyCrc()));
                    assertFalse(client.lost(), c + ": the connection is still open, with no GOAWAY ("
                            + client.goAwayError() + ")");
                } finally {
                    H2Client.stop(group);
                }
                awaitTrue(() -> s.site().inFlight() == 0, c + ": the reset page's render stops");
            }
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what);
            }
            Thread.sleep(20);
        }
    }
}
