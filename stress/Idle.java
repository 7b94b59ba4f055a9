package stress;

import http.Protocol;
import site.Combination;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code idle} scenario: idle connections (nothing sent), half-sent requests (a request line and a header, never
 * the blank line that ends the head) and trickling ones (slowloris: a head a byte every half second, each byte well
 * within the timeout of the last, so that it would take several timeouts to finish), all to be closed by the server
 * within its idle timeout plus the sweep's period; a normal page every second meanwhile.
 */
final class Idle {

    /** Between two bytes of a trickling head. */
    static final long TRICKLE_GAP_MS = 500;

    static final Scenario SCENARIO = new Scenario("idle", Set.of(Protocol.H1),
            List.of("--idle", "--half-sent", "--trickling", "--idle-timeout"), Idle::run, new Scenario.Rule(
                    f -> "every idle, half-sent and trickling (a byte every " + TRICKLE_GAP_MS + " ms) connection"
                            + " closed by the server within the idle timeout + " + beyondTimeoutMs(f) / 1000.0
                            + " s; every normal page meanwhile 200 and complete",
                    f -> f.count("idle_closed") == f.count("idle")
                            && f.count("half_sent_closed") == f.count("half_sent")
                            && f.count("trickling_closed") == f.count("trickling")
                            && f.num("trickling_close_max_s") * 1000 <= timeoutMs(f) + beyondTimeoutMs(f)
                            && f.count("normal_pages_ok") == f.count("normal_pages")));

    /** How long past the idle timeout a connection may stay open: the servers' sweeps, max(2 s, a fifth of it). */
    static long beyondTimeoutMs(long timeoutMs) {
        return Math.max(2000, timeoutMs / 5);
    }

    private static long timeoutMs(Scenario.Figures f) {
        return Math.round(f.num("idle_timeout_s") * 1000);
    }

    private static long beyondTimeoutMs(Scenario.Figures f) {
        return beyondTimeoutMs(timeoutMs(f));
    }

    private enum Kind { IDLE, HALF_SENT, TRICKLING }

    /** One client connection: what it does, when it was opened and, for a trickling one, its head. */
    private static final class Client {
        final Kind kind;
        final long opened = System.nanoTime();
        final ByteBuffer head;

        Client(Kind kind, ByteBuffer head) {
            this.kind = kind;
            this.head = head;
        }
    }

    private Idle() {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        long timeoutMs = s.idleTimeout().toMillis();
        long allowMs = timeoutMs + beyondTimeoutMs(timeoutMs);
        try (StressServer server = StressServer.start(StressServer.config(c).withLimits(
                new http.ConnectionLimits(http.ConnectionLimits.DEFAULT_BACKLOG, s.idleTimeout())), s, "idle");
             Selector selector = Selector.open()) {
            int port = server.port();
            String request = "GET /stocks HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n";
            byte[] half = request.getBytes(StandardCharsets.US_ASCII);
            // Long enough that trickling it outlasts the allowance: a server that waits for the end fails.
            byte[] trickled = (request + "X-Trickle: " + "a".repeat((int) (allowMs / TRICKLE_GAP_MS) + 10)
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            int n = s.idle() + s.halfSent() + s.trickling();
            List<SelectionKey> trickling = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                Kind kind = i < s.idle() ? Kind.IDLE : i < s.idle() + s.halfSent() ? Kind.HALF_SENT : Kind.TRICKLING;
                Client client = new Client(kind, kind == Kind.TRICKLING ? ByteBuffer.wrap(trickled) : null);
                if (kind == Kind.HALF_SENT) {
                    ch.write(ByteBuffer.wrap(half));
                }
                ch.configureBlocking(false);
                SelectionKey key = ch.register(selector, SelectionKey.OP_READ, client);
                if (kind == Kind.TRICKLING) {
                    trickling.add(key);
                    trickle(key);   // the first byte now
                }
            }
            long opened = System.nanoTime();
            int[] closed = new int[Kind.values().length];
            long trickleCloseMaxNanos = 0;
            long lastClose = 0;
            int pages = 0;
            int pagesOk = 0;
            long pageMaxMs = 0;
            long nextPage = System.nanoTime();
            long nextByte = System.nanoTime() + TRICKLE_GAP_MS * 1_000_000;
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            while (!selector.keys().isEmpty() && System.nanoTime() - opened < allowMs * 1_000_000) {
                selector.select(Math.max(1, Math.min(100, (nextByte - System.nanoTime()) / 1_000_000)));
                List<SelectionKey> gone = new ArrayList<>();
                for (SelectionKey key : selector.selectedKeys()) {
                    buffer.clear();
                    int read;
                    try {
                        read = ((SocketChannel) key.channel()).read(buffer);
                    } catch (IOException e) {
                        read = -1;   // reset
                    }
                    if (read < 0) {
                        gone.add(key);
                    }
                    // a 408 or the like before the close is fine: the close is what counts
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() >= nextByte) {
                    nextByte += TRICKLE_GAP_MS * 1_000_000;
                    for (SelectionKey key : trickling) {
                        if (key.isValid() && !trickle(key)) {
                            gone.add(key);   // a failed write: the server closed it (and may have reset it)
                        }
                    }
                }
                for (SelectionKey key : gone) {
                    if (!key.isValid()) {
                        continue;   // counted already (read and write both saw the close)
                    }
                    Client client = (Client) key.attachment();
                    closed[client.kind.ordinal()]++;
                    lastClose = System.nanoTime();
                    if (client.kind == Kind.TRICKLING) {
                        trickleCloseMaxNanos = Math.max(trickleCloseMaxNanos, lastClose - client.opened);
                    }
                    key.cancel();
                    key.channel().close();
                }
                if (System.nanoTime() >= nextPage) {
                    long t = System.nanoTime();
                    pages++;
                    if (Raw.pageWorks(port, "/stocks")) {
                        pagesOk++;
                    }
                    pageMaxMs = Math.max(pageMaxMs, (System.nanoTime() - t) / 1_000_000);
                    nextPage = t + 1_000_000_000L;
                }
            }
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
            int idleClosed = closed[Kind.IDLE.ordinal()];
            int halfClosed = closed[Kind.HALF_SENT.ordinal()];
            int trickleClosed = closed[Kind.TRICKLING.ordinal()];
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("idle", s.idle());
            f.put("half_sent", s.halfSent());
            f.put("trickling", s.trickling());
            f.put("idle_timeout_s", timeoutMs / 1000.0);
            f.put("open_s", Scenario.round((opened - start) / 1e9));
            f.put("idle_closed", idleClosed);
            f.put("half_sent_closed", halfClosed);
            f.put("trickling_closed", trickleClosed);
            f.put("trickling_close_max_s", Scenario.round(trickleCloseMaxNanos / 1e9));
            f.put("last_close_s", lastClose == 0 ? -1 : Scenario.round((lastClose - start) / 1e9));
            f.put("normal_pages", pages);
            f.put("normal_pages_ok", pagesOk);
            f.put("normal_page_max_ms", pageMaxMs);
            f.put("server_rss_peak_mb", Scenario.round(server.peakRssMb()));
            f.put("server_threads_peak", server.peakThreads());
            f.put("warning_lines", server.warnings());
            boolean trickleInTime = trickleCloseMaxNanos <= allowMs * 1_000_000;
            String note = (s.idle() - idleClosed) + " idle, " + (s.halfSent() - halfClosed) + " half-sent and "
                    + (s.trickling() - trickleClosed) + " trickling still open after " + allowMs / 1000.0 + " s"
                    + (trickleInTime ? "" : "; a trickling one closed only " + Scenario.round(
                    trickleCloseMaxNanos / 1e9) + " s after it opened")
                    + (pagesOk == pages ? "" : "; " + (pages - pagesOk) + " of " + pages + " normal pages failed");
            return new Scenario.Measured(f, "", note);
        }
    }

    /** Writes the next byte of a trickling client's head; false when the write failed (closed by the server). */
    private static boolean trickle(SelectionKey key) {
        Client client = (Client) key.attachment();
        if (!client.head.hasRemaining()) {
            return true;   // the whole head went out: the server waited for all of it (the close check fails)
        }
        ByteBuffer one = client.head.slice(client.head.position(), 1);
        try {
            if (((SocketChannel) key.channel()).write(one) == 1) {
                client.head.position(client.head.position() + 1);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
