package load;

import model.Page;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load generator against local servers whose timing is known. */
class LoadGeneratorTest {

    private static final String HEAD = "<html><body><h1>head</h1>";
    private static final String ITEM = "<p>item</p>";
    private static final String TAIL = "</body></html>";
    private static final byte[] BODY = (HEAD + ITEM + TAIL).getBytes(StandardCharsets.UTF_8);

    /** A keep-alive HTTP/1.1 server, one virtual thread per connection, answering every GET with {@code page}. */
    private static final class TimedServer implements AutoCloseable {
        interface Page {
            void write(OutputStream out, int request) throws Exception;
        }

        final ServerSocket socket;
        final AtomicInteger requests = new AtomicInteger();
        final AtomicBoolean open = new AtomicBoolean(true);

        TimedServer(Page page) throws IOException {
            socket = new ServerSocket(0, 128, InetAddress.getByName("127.0.0.1"));
            Thread.ofVirtual().start(() -> {
                while (open.get()) {
                    try {
                        Socket s = socket.accept();
                        s.setTcpNoDelay(true);
                        Thread.ofVirtual().start(() -> serve(s, page));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket s, Page page) {
            try (s) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                OutputStream out = s.getOutputStream();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.isEmpty()) {
                        page.write(out, requests.incrementAndGet());
                    }
                }
            } catch (Exception e) {
                // the client closed the connection
            }
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/page");
        }

        @Override
        public void close() throws IOException {
            open.set(false);
            socket.close();
        }
    }

    private static void chunk(OutputStream out, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static void headers(OutputStream out) throws IOException {
        out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
    }

    private static void end(OutputStream out) throws IOException {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static long crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return c.getValue();
    }

    private static LoadGenerator.Plan plan(URI uri, int connections, double rate, Duration duration) {
        return new LoadGenerator.Plan(uri, connections, 1, rate, Duration.ofMillis(300), duration, BODY.length,
                crc(BODY), (HEAD + ITEM).length(), Duration.ofSeconds(5));
    }

    @Test
    void timeToFirstByteFirstItemAndLastByteOfAPageThatWaits50msBeforeItsItem() throws Exception {
        try (TimedServer server = new TimedServer((out, n) -> {
            headers(out);
            chunk(out, HEAD);
            Thread.sleep(50);
            chunk(out, ITEM);
            chunk(out, TAIL);
            end(out);
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server.uri(), 2, 0, Duration.ofSeconds(2)));
            assertEquals(0, r.errors());
            assertTrue(r.requests() > 20 && r.requests() < 90, "about 2 connections x 2 s / 50 ms: " + r.requests());
            long ttfb = r.ttfb().getValueAtPercentile(50);
            long item = r.firstItem().getValueAtPercentile(50);
            long ttlb = r.ttlb().getValueAtPercentile(50);
            assertTrue(ttfb < 20_000, "the head comes at once: " + ttfb + " us");
            assertTrue(item >= 50_000 && item < 80_000, "the item after 50 ms: " + item + " us");
            assertTrue(ttlb >= 50_000 && ttlb < 80_000, "the page after 50 ms: " + ttlb + " us");
            assertEquals(3.0, r.chunksMean(), 1e-9);   // head, item, tail (the terminating 0-chunk carries no data)
        }
    }

    @Test
    void aWrongBodyOrStatusIsAnError() throws Exception {
        try (TimedServer server = new TimedServer((out, n) -> {
            headers(out);
            chunk(out, n % 2 == 0 ? HEAD + ITEM + TAIL : HEAD + "<p>other</p>" + TAIL);
            end(out);
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server.uri(), 1, 0, Duration.ofMillis(500)));
            assertTrue(r.wrongBodies() > 0 && r.wrongBodies() >= r.requests() / 2 - 1, r.toString());
            // the first few kept as received: headers, chunk framing and the wrong body
            assertEquals(WrongResponses.KEPT, r.kept().size(), r.toString());
            for (WrongResponses.Kept k : r.kept()) {
                assertEquals("wrong body", k.why());
                assertTrue(k.whole());
                String raw = new String(k.response(), StandardCharsets.UTF_8);
                assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked"
                        + "\r\n\r\n") && raw.endsWith("\r\n0\r\n\r\n"), raw);
                assertEquals(HEAD + "<p>other</p>" + TAIL,
                        new String(ResponseParser.decode(k.response()), StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Bytes that are no response (a chunk size that is no number, as a torn write gives) are an i/o error of that
     * request, and kept; the connection is opened again and the load goes on.
     */
    @Test
    void aMalformedResponseIsAnIoErrorAndKept() throws Exception {
        try (TimedServer server = new TimedServer((out, n) -> {
            headers(out);
            if (n % 2 == 0) {
                chunk(out, HEAD + ITEM + TAIL);
            } else {
                out.write("<p>\r\n".getBytes(StandardCharsets.US_ASCII));   // no chunk size
            }
            end(out);
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server.uri(), 1, 0, Duration.ofMillis(500)));
            assertTrue(r.ioErrors() > 1 && r.requests() > 1, r.toString());
            assertEquals(0, r.wrongBodies(), r.toString());
            assertFalse(r.kept().isEmpty(), r.toString());
            WrongResponses.Kept k = r.kept().get(0);
            assertTrue(k.why().startsWith("malformed: ") && k.why().contains("<p>"), k.why());
            assertTrue(new String(k.response(), StandardCharsets.UTF_8).endsWith("chunked\r\n\r\n<p>\r\n"),
                    new String(k.response(), StandardCharsets.UTF_8));
        }
    }

    /**
     * Tomcat (the study's Spring MVC app) says {@code Connection: close} on every 100th response of a connection and
     * closes it (its maxKeepAliveRequests); here every 5th response. A client must reopen, as wrk does: no error.
     */
    @Test
    void aConnectionTheServerClosesAfterAResponseIsReopenedAndNoError() throws Exception {
        try (TimedServer server = new TimedServer((out, n) -> {
            boolean last = n % 5 == 0;
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n"
                    + (last ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
            chunk(out, HEAD + ITEM + TAIL);
            end(out);
            if (last) {
                throw new IOException("closing the connection, as the response said");
            }
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server.uri(), 2, 0, Duration.ofMillis(700)));
            assertEquals(0, r.errors(), r.toString());
            assertTrue(r.requests() > 20, r.toString());
            assertTrue(r.serverCloses() >= r.requests() / 5 - 2, "every 5th response closed: " + r);
        }
    }

    /**
     * One 500 ms stall on the only connection, at 100 requests/s. A closed loop sends nothing while it waits, so
     * only one request sees the stall; the open loop measures from the intended send times, so the ~50 requests
     * that should have been sent during the stall all show it.
     */
    @Test
    void theOpenLoopCountsTheStallForEveryRequestItDelayed() throws Exception {
        AtomicBoolean stalled = new AtomicBoolean();
        TimedServer.Page page = (out, n) -> {
            if (n > 80 && stalled.compareAndSet(false, true)) {
                Thread.sleep(500);
            }
            headers(out);
            chunk(out, HEAD + ITEM + TAIL);
            end(out);
        };
        try (TimedServer server = new TimedServer(page)) {
            LoadGenerator.Result open = LoadGenerator.run(plan(server.uri(), 1, 100, Duration.ofSeconds(2)));
            assertTrue(stalled.get());
            assertEquals(0, open.errors());
            assertTrue(open.ttlb().getMaxValue() >= 450_000, "max " + open.ttlb().getMaxValue());
            long delayed = open.ttlb().getCountBetweenValues(100_000, Long.MAX_VALUE / 2);
            assertTrue(delayed >= 25, delayed + " requests over 100 ms");
            assertEquals(100, open.requestsPerSecond(), 15);
        }
        stalled.set(false);
        try (TimedServer server = new TimedServer(page)) {
            LoadGenerator.Result closed = LoadGenerator.run(plan(server.uri(), 1, 0, Duration.ofSeconds(2)));
            long delayed = closed.ttlb().getCountBetweenValues(100_000, Long.MAX_VALUE / 2);
            assertTrue(delayed <= 1, "a closed loop hides the stall behind one request: " + delayed);
        }
    }

    /** A page that takes {@code millis} and nothing else, at a steady pace: a closed loop's throughput is flat. */
    private static void page(OutputStream out, long millis) throws Exception {
        headers(out);
        chunk(out, HEAD);
        Thread.sleep(millis);
        chunk(out, ITEM);
        chunk(out, TAIL);
        end(out);
    }

    private static LoadGenerator.Plan auto(URI uri, Duration max) {
        return new LoadGenerator.Plan(uri, 4, 1, 0, Duration.ZERO, Duration.ofMillis(500), BODY.length, crc(BODY),
                (HEAD + ITEM).length(), Duration.ofSeconds(5), LoadGenerator.Steady.of(max));
    }

    /**
     * --warmup=auto against a steady server: the measured window opens once two blocks of 5 one-second windows
     * agree, the trace of the warm-up is kept, and the window is measured as a fixed one would be.
     */
    @Test
    @Tag("slow")   // at least 10 one-second windows, by the rule under test: the full tier's
    void anAdaptiveWarmupEndsWhenTheLoadIsSteady() throws Exception {
        try (TimedServer server = new TimedServer((out, n) -> page(out, 10))) {
            java.util.concurrent.atomic.AtomicLong opened = new java.util.concurrent.atomic.AtomicLong();
            long start = System.nanoTime();
            LoadGenerator.Result r = LoadGenerator.run(auto(server.uri(), Duration.ofSeconds(20)), () -> false,
                    () -> opened.set(System.nanoTime()));
            assertTrue(r.steady(), r.warmupCounts().toString());
            assertTrue(r.warmupCounts().size() >= 10 && r.warmupCounts().size() < 25, r.warmupCounts().toString());
            assertEquals(r.warmupCounts().size(), r.warmupSeconds(), 0.001, "whole one-second windows");
            assertEquals(r.warmupSeconds(), (opened.get() - start) / 1e9, 0.3, "told when the window opened");
            assertTrue(r.requests() > 50, "4 connections at about 10 ms a page for 0.5 s: " + r.requests());
            assertEquals(0, r.errors());
        }
    }

    /** A load that never settles (each second twice or half as slow as the one before) ends at the cap, unsteady. */
    @Test
    @Tag("slow")   // 11 one-second windows, the cap under test: the full tier's
    void anAdaptiveWarmupStopsAtItsCapWhenTheLoadNeverSettles() throws Exception {
        long start = System.nanoTime();
        try (TimedServer server = new TimedServer((out, n) ->
                page(out, ((System.nanoTime() - start) / 1_000_000_000L) % 2 == 0 ? 5 : 20))) {
            LoadGenerator.Result r = LoadGenerator.run(auto(server.uri(), Duration.ofSeconds(11)), () -> false);
            assertFalse(r.steady(), r.warmupCounts().toString());
            assertEquals(11, r.warmupCounts().size(), r.warmupCounts().toString());
            assertEquals(11.0, r.warmupSeconds(), 0.001);
        }
    }

    /**
     * The rule itself: the last five windows' mean within 2% of the five before, or within 2 requests where a
     * window holds few; single windows may vary as much as they do at steady state on a small shared machine.
     */
    @Test
    void theSteadyRule() {
        LoadGenerator.Steady rule = LoadGenerator.Steady.of(Duration.ofSeconds(60));
        assertFalse(rule.reached(List.of(100L, 100L, 100L, 100L, 100L, 100L, 100L, 100L, 100L)), "nine: too few");
        assertTrue(rule.reached(List.of(10L, 9000L, 8200L, 8800L, 7900L, 8600L, 8100L, 9100L, 8400L, 8700L, 8300L)),
                "single windows 10% apart, the two means (8500, 8520) within 0.3%");
        assertFalse(rule.reached(List.of(7000L, 7100L, 7200L, 7300L, 7400L, 7500L, 7600L, 7700L, 7800L, 7900L)),
                "still rising: 7700 after 7200, 7%");
        assertFalse(rule.reached(List.of(1000L, 1000L, 1000L, 1000L, 1000L, 1030L, 1030L, 1030L, 1030L, 1030L)),
                "3% apart");
        assertTrue(rule.reached(List.of(44L, 46L, 44L, 46L, 44L, 46L, 47L, 46L, 47L, 46L)),
                "a mean 2 requests apart at 45 a second");
        assertFalse(rule.reached(java.util.Collections.nCopies(10, 0L)), "nothing completes: not steady");
        assertEquals(Duration.ofSeconds(10), rule.least());
    }
}
