package bench;

import cli.Registry;
import harness.ServerProcess;
import http.Protocol;
import load.LoadGenerator;
import model.Page;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Site;
import tables.Row;
import verify.Reference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator over HTTP/2 against a real PssrBench server in this JVM (Reactor Netty, whose h2c and h2 pass
 * verify): counts, no errors, each request's times in order, the pages really multiplexed (2 connections x 8 streams
 * are 16 pages in flight at the server at once, which one request per connection could never be), the open loop, and
 * ALPN that does not choose h2 failing the point in one sentence.
 */
class H2LoadTest {

    /**
     * 5 ms per item: a Stocks page takes 100 ms or more, so that the streams of a connection overlap, and a window of
     * two seconds completes many even on a machine shared with other builds.
     */
    private static final Duration DELAY = Duration.ofMillis(5);
    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final Duration WINDOW = Duration.ofSeconds(2);

    private static Combination netty() {
        return Registry.combinations().stream().filter(c -> c.server().id().equals("netty")
                && c.engine().id().equals("htmlflow")).findFirst().orElseThrow();
    }

    /** A server of this JVM speaking {@code protocol}, its pages in flight counted by its site. */
    private record Running(Site site, Server.Listen listen, Server.Running running) implements AutoCloseable {
        static Running start(Combination c, Protocol protocol) {
            ServeConfig config = ServeConfig.of(c, DELAY).withProtocol(protocol);
            Site site = config.site();
            Server.Listen listen = config.listen();   // over TLS: a new certificate, which the client trusts alone
            return new Running(site, listen, c.server().start(listen, site));
        }

        URI stocks() {
            return URI.create(listen.protocol().scheme() + "://127.0.0.1:" + running.port() + Page.STOCKS.path());
        }

        @Override
        public void close() {
            running.close();
            site.close();
        }
    }

    private static LoadGenerator.Plan plan(Running r, Protocol protocol, int connections, int streams, double rate,
                                           Duration duration) {
        byte[] body = Reference.renderAll(List.of(netty().engine())).get(Page.STOCKS).get(netty().engine());
        CRC32C crc = new CRC32C();
        crc.update(body);
        return new LoadGenerator.Plan(r.stocks(), connections, 1, rate, WARMUP, duration, body.length,
                crc.getValue(), Page.STOCKS.itemEnds(body)[0], Duration.ofSeconds(5), null, protocol, streams,
                r.listen().tls() == null ? null : r.listen().tls().chain().get(0));
    }

    /** Runs the plan while counting the pages in flight at the server; returns the result and the peak. */
    private static Object[] runCounting(Running r, LoadGenerator.Plan plan) throws Exception {
        AtomicInteger peak = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = Thread.ofPlatform().daemon(true).start(() -> {
            while (sampling.get()) {
                peak.accumulateAndGet(r.site().inFlight(), Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            return new Object[] {LoadGenerator.run(plan), peak};
        } finally {
            sampling.set(false);
            sampler.join();
        }
    }

    private static void timesInOrder(LoadGenerator.Result r, String what) {
        assertEquals(r.requests(), r.ttlb().getTotalCount(), what + ": every request timed");
        for (double pct : new double[] {50, 99, 100}) {
            long ttfb = r.ttfb().getValueAtPercentile(pct);
            long first = r.firstItem().getValueAtPercentile(pct);
            long ttlb = r.ttlb().getValueAtPercentile(pct);
            assertTrue(ttfb <= first && first <= ttlb, what + " p" + pct + ": TTFB " + ttfb + " <= first item "
                    + first + " <= TTLB " + ttlb + " (microseconds)");
        }
    }

    @Test
    void h2cMultiplexesTheStreamsOfEachConnectionAndTimesEachRequest() throws Exception {
        try (Running r = Running.start(netty(), Protocol.H2C)) {
            Object[] run = runCounting(r, plan(r, Protocol.H2C, 2, 8, 0, WINDOW));
            LoadGenerator.Result result = (LoadGenerator.Result) run[0];
            assertEquals(0, result.errors(), "non-2xx " + result.non2xx() + ", wrong body " + result.wrongBodies()
                    + ", i/o " + result.ioErrors() + ", timeouts " + result.timeouts());
            assertTrue(result.requests() >= 16, result.requests() + " requests");
            timesInOrder(result, "h2c");
            assertTrue(result.chunksMean() > 1, "a page streams in several DATA frames: " + result.chunksMean());
            // 16 pages at once on 2 connections: one request per connection could never; a page's end may be
            // counted a moment after its stream's next request began, hence a little slack above.
            int peak = ((AtomicInteger) run[1]).get();
            assertTrue(peak >= 16 && peak <= 18, "2 connections x 8 streams: 16 pages in flight at once, not " + peak);
        }
    }

    @Test
    void h2OverTlsTrustsTheServersCertificateAndKeepsTheOpenLoopsSchedule() throws Exception {
        try (Running r = Running.start(netty(), Protocol.H2)) {
            LoadGenerator.Result result = LoadGenerator.run(plan(r, Protocol.H2, 2, 4, 10, WINDOW));
            assertEquals(0, result.errors(), "non-2xx " + result.non2xx() + ", wrong body " + result.wrongBodies()
                    + ", i/o " + result.ioErrors() + ", timeouts " + result.timeouts());
            // 10 requests a second over 2 s from 8 stream slots, each on its own schedule: 20 intended, a few of
            // them ending after the window.
            assertTrue(result.requests() >= 10 && result.requests() <= 25, result.requests() + " requests");
            timesInOrder(result, "h2");
        }
    }

    @Test
    void alpnThatDoesNotChooseH2FailsThePointInOneSentence() throws Exception {
        try (Running r = Running.start(netty(), Protocol.H1S)) {
            LoadGenerator.Plan h1s = plan(r, Protocol.H2, 1, 1, 0, WINDOW);
            IOException e = assertThrows(IOException.class, () -> LoadGenerator.run(h1s));
            // Whether the HTTP/1.1-only port answers ALPN with http/1.1 or not at all is its library's choice.
            assertTrue(e.getMessage().matches("ALPN at https://127\\.0\\.0\\.1:\\d+/stocks chose (http/1\\.1|no"
                    + " protocol), not h2: the server does not offer HTTP/2 over TLS there\\."), e.getMessage());
        }
    }

    /**
     * A point as bench measures it: the server in a JVM of its own over h2 with the certificate bench made for it, its
     * bytes checked over HTTP/1.1 on the same TLS port, the point measured over h2 trusting that certificate alone.
     */
    @Test
    @Tag("slow")   // the server in a JVM of its own: the full tier's, as the quick one is in-process
    void aPointOverH2TrustsTheCertificateBenchMadeForItsServer(@TempDir Path out) throws Exception {
        Combination c = netty();
        Path log = Files.createDirectories(out.resolve("logs")).resolve("server.log");
        Files.createDirectories(out.resolve("hgrm"));
        try (ServerProcess server = ServerProcess.start(ServeConfig.of(c, DELAY).withProtocol(Protocol.H2), List.of(),
                log)) {
            assertEquals("https", server.base().getScheme());
            var expected = Reference.renderAll(List.of(c.engine()));
            assertNull(CombinationCheck.checkBytes(server.base(), server.tls(), expected));
            PointMeasurement m = new PointMeasurement(WARMUP, null, WINDOW, 1, false, out);
            Point p = new Point(c, Page.STOCKS, 2, 0, Protocol.H2, 4);
            Row row = m.measure(server.base(), server, p, expected.get(Page.STOCKS).get(c.engine()), Double.NaN,
                    () -> false, p.name() + "-rep1");
            assertTrue(row.valid(), row.note());
            assertEquals(List.of("h2", 4), List.of(row.protocol(), row.streams()));
            assertTrue(Files.isRegularFile(out.resolve("hgrm/" + p.name() + "-rep1.first-item.hgrm")));
        }
    }

    @Test
    void morePlanThanTheProtocolAllowsIsRefused() {
        URI uri = URI.create("http://127.0.0.1:1/stocks");
        assertThrows(IllegalArgumentException.class, () -> new LoadGenerator.Plan(uri, 1, 1, 0, Duration.ZERO,
                Duration.ofSeconds(1), 1, 1, 1, Duration.ofSeconds(1), null, Protocol.H1, 2, null),
                "several streams over HTTP/1.1");
        assertThrows(IllegalArgumentException.class, () -> new LoadGenerator.Plan(uri, 1, 1, 0, Duration.ZERO,
                Duration.ofSeconds(1), 1, 1, 1, Duration.ofSeconds(1), null, Protocol.H2, 1, null),
                "TLS without a certificate to trust");
    }
}
