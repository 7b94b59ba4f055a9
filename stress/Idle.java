package stress;

import core.Combination;
import core.Durations;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code idle} scenario: idle connections (nothing sent) and half-sent requests (a request line and a header,
 * never the blank line that ends the head), all to be closed by the server within its idle timeout plus the
 * sweep's period; a normal page every second meanwhile.
 */
final class Idle {

    private Idle() {
    }

    static Outcome run(Combination c, StressSettings s) throws IOException, InterruptedException {
        long timeoutMs = s.idleTimeout().toMillis();
        long allowMs = timeoutMs + Math.max(2000, timeoutMs / 5);
        try (StressServer server = StressServer.start(c, s.folder(), "idle", "--delay=1ms",
                "--idle-timeout=" + Durations.format(s.idleTimeout()));
             Selector selector = Selector.open()) {
            int port = server.port();
            byte[] half = ("GET /stocks HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
            int n = s.idle() + s.halfSent();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                boolean isHalf = i >= s.idle();
                if (isHalf) {
                    ch.write(ByteBuffer.wrap(half));
                }
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ, isHalf);
            }
            long opened = System.nanoTime();
            int idleClosed = 0;
            int halfClosed = 0;
            long lastClose = 0;
            int pages = 0;
            int pagesOk = 0;
            long pageMaxMs = 0;
            long nextPage = System.nanoTime();
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            while (!selector.keys().isEmpty() && System.nanoTime() - opened < allowMs * 1_000_000) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    buffer.clear();
                    int read;
                    try {
                        read = ((SocketChannel) key.channel()).read(buffer);
                    } catch (IOException e) {
                        read = -1;   // reset
                    }
                    if (read < 0) {
                        if ((Boolean) key.attachment()) {
                            halfClosed++;
                        } else {
                            idleClosed++;
                        }
                        lastClose = System.nanoTime();
                        key.cancel();
                        key.channel().close();
                    }
                }
                selector.selectedKeys().clear();
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
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("idle", s.idle());
            f.put("half_sent", s.halfSent());
            f.put("idle_timeout_s", timeoutMs / 1000.0);
            f.put("open_s", Scenarios.round((opened - start) / 1e9));
            f.put("idle_closed", idleClosed);
            f.put("half_sent_closed", halfClosed);
            f.put("last_close_s", lastClose == 0 ? -1 : Scenarios.round((lastClose - start) / 1e9));
            f.put("normal_pages", pages);
            f.put("normal_pages_ok", pagesOk);
            f.put("normal_page_max_ms", pageMaxMs);
            f.put("server_rss_peak_mb", Scenarios.round(server.peakRssMb()));
            f.put("server_threads_peak", server.peakThreads());
            f.put("warning_lines", server.warnings());
            boolean pass = idleClosed == s.idle() && halfClosed == s.halfSent() && pagesOk == pages;
            return new Outcome("idle", c, f, "every idle and half-sent connection closed by the server within the"
                    + " idle timeout + " + (allowMs - timeoutMs) / 1000.0 + " s; every normal page meanwhile 200 and"
                    + " complete", pass, pass ? "" : (s.idle() - idleClosed) + " idle and " + (s.halfSent()
                    - halfClosed) + " half-sent still open after " + allowMs / 1000.0 + " s");
        }
    }
}
