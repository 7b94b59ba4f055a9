package stress;

import bench.ResponseParser;
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
import java.util.Map;

/**
 * N connections, each one GET of a page, all opened as fast as one selector thread can (the page lasts long enough
 * that they are all open together), each response read to its end and checked: status 200, a complete chunked
 * body, and the same body (length and CRC32C) as every other. Bounded by {@code timeout}.
 */
final class Streams {

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
