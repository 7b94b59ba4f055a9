package stress;

import harness.Kernel;
import http.Protocol;
import load.ResponseParser;
import model.Page;
import site.Combination;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * N connections, each one GET of a page, all opened as fast as one selector thread can (the page lasts long enough
 * that they are all open together), each response read to its end and checked: status 200, a complete chunked
 * body, and the same body (length and CRC32C) as every other. Bounded by {@code timeout}. The {@code streams}
 * scenario runs it with {@code --connections} connections on pages of 20 items at {@code --streams-delay} each.
 */
final class Streams {

    static final Scenario SCENARIO = new Scenario("streams", Set.of(Protocol.H1),
            List.of("--connections", "--streams-delay"), Streams::measure, new Scenario.Rule(
                    f -> "every page 200, complete and identical; all " + f.count("connections") + " open together",
                    f -> f.count("completed") == f.count("connections") && f.count("errors") == 0
                            && f.count("distinct_bodies") == 1 && f.count("open_peak") == f.count("connections")));

    /** What the client saw; times in microseconds. */
    record Result(int connections, int completed, int errors, int openPeak, int distinctBodies, double wallSeconds,
                  Histogram connect, Histogram ttfb, Histogram ttlb, Map<String, Integer> errorKinds) {
    }

    private static final class Conn {
        final long started = System.nanoTime();
        long connected;
        long firstByte = -1;
        final ResponseParser parser = new ResponseParser(0);
        ByteBuffer request;
    }

    private Streams() {
    }

    static Scenario.Measured measure(Combination c, StressSettings s) throws IOException, InterruptedException {
        return measure(c, s, STALL);
    }

    /** How long past its page time a page may take before it counts as one that never ends. */
    static final Duration STALL = Duration.ofSeconds(90);

    /** As {@link #measure(Combination, StressSettings)}, with {@code stall} in place of {@link #STALL} (tests). */
    static Scenario.Measured measure(Combination c, StressSettings s, Duration stall)
            throws IOException, InterruptedException {
        int n = s.streams();
        long[] limits = Kernel.fileLimits();
        String note = "";
        if (limits[0] >= 0 && limits[0] < n + 200L) {   // the JVM raises its soft limit to the hard one at start
            int lowered = (int) Math.max(1, limits[0] - 200);
            note = "file limit " + limits[0] + " (hard " + limits[1] + ") is below " + n
                    + " connections + 200: lowered to " + lowered + "; raise the hard limit (ulimit -Hn) to run "
                    + n + ". ";
            n = lowered;
        }
        Duration pageTime = s.streamsDelay().multipliedBy(Page.STOCKS.items().size());
        try (StressServer server = StressServer.start(StressServer.config(c).withDelay(s.streamsDelay()),
                s, "streams")) {
            Raw.pageWorks(server.port(), "/stocks");
            server.resetPeaks();
            long drops = Kernel.listenDrops();
            Result r = run(server.port(), "/stocks", n, pageTime.plus(stall));
            long dropped = drops < 0 ? -1 : Kernel.listenDrops() - drops;
            Thread.sleep(200);   // one more sample of the server after the last page
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("connections", n);
            f.put("completed", r.completed());
            f.put("errors", r.errors());
            f.put("open_peak", r.openPeak());
            f.put("distinct_bodies", r.distinctBodies());
            f.put("page_s", pageTime.toMillis() / 1000.0);
            f.put("wall_s", Scenario.round(r.wallSeconds()));
            f.put("connect_p99_ms", Scenario.ms(r.connect().getValueAtPercentile(99)));
            f.put("ttfb_p50_ms", Scenario.ms(r.ttfb().getValueAtPercentile(50)));
            f.put("ttfb_p99_ms", Scenario.ms(r.ttfb().getValueAtPercentile(99)));
            f.put("ttlb_p50_ms", Scenario.ms(r.ttlb().getValueAtPercentile(50)));
            f.put("ttlb_p99_ms", Scenario.ms(r.ttlb().getValueAtPercentile(99)));
            f.put("server_rss_peak_mb", Scenario.round(server.peakRssMb()));
            f.put("server_threads_peak", server.peakThreads());
            f.put("server_virtual_threads_peak", server.peakVirtualThreads());
            f.put("listen_drops", dropped);
            if (!r.errorKinds().isEmpty()) {
                note += "errors: " + r.errorKinds() + ". ";
            }
            if (r.distinctBodies() > 1) {
                note += r.distinctBodies() + " different bodies. ";
            }
            return new Scenario.Measured(f, note.strip());
        }
    }

    static Result run(int port, String path, int n, Duration timeout) throws IOException {
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        Histogram connect = new Histogram(3);
        Histogram ttfb = new Histogram(3);
        Histogram ttlb = new Histogram(3);
        Map<String, Integer> errors = new HashMap<>();
        Map<Long, Integer> bodies = new HashMap<>();
        ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
        int completed = 0;
        int open = 0;
        int openPeak = 0;
        int done = 0;
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        try (Selector selector = Selector.open()) {
            int opened = 0;
            while (done < n && System.nanoTime() < deadline) {
                // open up to 200 more per turn, so that responses are read while the rest connect
                for (int k = 0; k < 200 && opened < n; k++, opened++) {
                    Conn c = new Conn();
                    c.request = ByteBuffer.wrap(request);
                    try {
                        SocketChannel ch = SocketChannel.open();
                        ch.configureBlocking(false);
                        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        ch.connect(new InetSocketAddress("127.0.0.1", port));
                        ch.register(selector, SelectionKey.OP_CONNECT, c);
                        open++;
                        openPeak = Math.max(openPeak, open);
                    } catch (IOException e) {
                        errors.merge("open: " + e.getMessage(), 1, Integer::sum);
                        done++;
                    }
                }
                selector.select(opened < n ? 1 : 100);
                for (SelectionKey key : selector.selectedKeys()) {
                    Conn c = (Conn) key.attachment();
                    SocketChannel ch = (SocketChannel) key.channel();
                    String failure = null;
                    boolean finished = false;
                    try {
                        if (key.isConnectable()) {
                            ch.finishConnect();
                            c.connected = System.nanoTime();
                            connect.recordValue(Math.max(0, (c.connected - c.started) / 1000));
                            ch.write(c.request);
                            key.interestOps(SelectionKey.OP_READ);
                        } else if (key.isReadable()) {
                            in.clear();
                            int read = ch.read(in);
                            long now = System.nanoTime();
                            if (read < 0) {
                                failure = "closed before the end of the page";
                            } else {
                                in.flip();
                                if (c.firstByte < 0) {
                                    c.firstByte = now;
                                    ttfb.recordValue((now - c.started) / 1000);
                                }
                                if (c.parser.feed(in, now)) {
                                    finished = true;
                                    if (c.parser.status() != 200) {
                                        failure = "status " + c.parser.status();
                                    } else {
                                        ttlb.recordValue((now - c.started) / 1000);
                                        bodies.merge(c.parser.bodyBytes() * 31 + c.parser.bodyCrc(), 1,
                                                Integer::sum);
                                        completed++;
                                    }
                                }
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                    }
                    if (failure != null || finished) {
                        if (failure != null) {
                            errors.merge(failure, 1, Integer::sum);
                        }
                        key.cancel();
                        ch.close();
                        open--;
                        done++;
                    }
                }
                selector.selectedKeys().clear();
            }
            selector.selectNow();   // drops the keys cancelled in the last turn
            for (SelectionKey key : selector.keys()) {   // still open at the deadline
                errors.merge("not finished within " + timeout.toSeconds() + " s", 1, Integer::sum);
                key.channel().close();
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        int errorCount = errors.values().stream().mapToInt(Integer::intValue).sum();
        return new Result(n, completed, errorCount, openPeak, bodies.size(), wall, connect, ttfb, ttlb, errors);
    }
}
