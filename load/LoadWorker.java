package load;

import org.HdrHistogram.Histogram;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One selector thread of {@link LoadGenerator} and its connections: it sends the requests of its share of the
 * connections on their schedules, parses the responses as their bytes arrive, and records each request's times
 * into its own histograms, which {@link LoadGenerator#run} adds up when the run ends.
 */
public final class LoadWorker implements Runnable {

    static final long HIGHEST_MICROS = Tally.HIGHEST_MICROS;

    private final Job plan;
    private final Window window;
    private final Connection[] connections;
    // Read by LoadGenerator.run once this worker's thread has ended (Thread.join orders the reads after the writes).
    final Tally tally = new Tally();
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final byte[] request;
    private final BooleanSupplier stop;
    IOException failure;

    LoadWorker(Job plan, int from, int to, long start, Window window, BooleanSupplier stop) {
        this.plan = plan;
        this.stop = stop;
        this.window = window;
        this.connections = new Connection[to - from];
        double period = plan.openLoop() ? plan.connections() * 1e9 / plan.rate() : 0;
        for (int i = 0; i < connections.length; i++) {
            // Spread the connections' schedules evenly over one period, as wrk2 does.
            long offset = plan.openLoop() ? (long) (period * (from + i) / plan.connections()) : 0;
            connections[i] = new Connection(start + offset, period, plan.firstItemEnd(),
                    WrongResponses.keepLimit(plan.bodyLength()));
        }
        String path = plan.uri().getRawPath() + (plan.uri().getRawQuery() == null ? "" : "?" + plan.uri().getRawQuery());
        this.request = ("GET " + path + " HTTP/1.1\r\nHost: " + plan.uri().getHost() + ":" + plan.uri().getPort()
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void run() {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long cpuAtMeasure = -1;
        try (Selector selector = Selector.open()) {
            for (Connection c : connections) {
                connect(c, selector);
            }
            long timeoutNanos = plan.timeout().toNanos();
            while (true) {
                long now = System.nanoTime();
                long measureFrom = window.measureFrom;
                long end = window.end;
                if (cpuAtMeasure < 0 && now >= measureFrom) {
                    cpuAtMeasure = cpu.getCurrentThreadCpuTime();
                }
                if (now >= end || stop.getAsBoolean()) {
                    break;
                }
                long wait = Math.min(end - now, TimeUnit.MILLISECONDS.toNanos(100));
                for (Connection c : connections) {
                    if (c.inFlight && now - c.intended > timeoutNanos) {
                        if (c.intended >= measureFrom) {
                            tally.timeouts++;
                            window.wrong.offer("no end after " + plan.timeout().toSeconds() + " s", c.parser);
                        }
                        reconnect(c, selector);
                    } else if (!c.inFlight && c.channel.isConnected()) {
                        if (!plan.openLoop() || now >= c.nextIntended) {
                            try {
                                send(c, now);
                            } catch (IOException e) {
                                if (c.intended >= window.measureFrom) {
                                    tally.ioErrors++;
                                }
                                reconnect(c, selector);
                            }
                        } else {
                            wait = Math.min(wait, c.nextIntended - now);
                        }
                    }
                }
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    Connection c = (Connection) key.attachment();
                    try {
                        if (key.isConnectable() && c.channel.finishConnect()) {
                            key.interestOps(SelectionKey.OP_READ);
                        } else if (key.isReadable()) {
                            read(c, selector);
                        }
                    } catch (IOException | IllegalStateException e) {
                        if (c.intended >= window.measureFrom && c.intended < window.end) {
                            tally.ioErrors++;
                        }
                        reconnect(c, selector);
                    }
                }
            }
            tally.cpuNanos = cpu.getCurrentThreadCpuTime() - Math.max(0, cpuAtMeasure);
            for (Connection c : connections) {
                c.channel.close();
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    private void connect(Connection c, Selector selector) throws IOException {
        c.channel = SocketChannel.open();
        c.channel.configureBlocking(false);
        c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.inFlight = false;
        c.parser.reset();
        if (c.channel.connect(new InetSocketAddress(plan.uri().getHost(), plan.uri().getPort()))) {
            c.channel.register(selector, SelectionKey.OP_READ, c);
        } else {
            c.channel.register(selector, SelectionKey.OP_CONNECT, c);
        }
    }

    private void reconnect(Connection c, Selector selector) throws IOException {
        c.channel.close();
        if (c.inFlight) {
            c.advanceSchedule();   // the failed request is counted; its slot is not retried
        }
        connect(c, selector);
    }

    private void send(Connection c, long now) throws IOException {
        c.intended = plan.openLoop() ? c.nextIntended : now;
        c.inFlight = true;
        c.parser.reset();
        ByteBuffer out = ByteBuffer.wrap(request);
        while (out.hasRemaining()) {   // a ~60-byte request fits an empty socket buffer at once
            if (c.channel.write(out) == 0) {
                Thread.onSpinWait();
            }
        }
    }

    private void read(Connection c, Selector selector) throws IOException {
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        long now = System.nanoTime();
        if (n < 0) {
            if (!c.inFlight) {   // closed between requests (an idle or keep-alive limit): HTTP/1.1 allows it
                reopen(c, selector);
                return;
            }
            throw new IOException("connection closed by the server");
        }
        readBuffer.flip();
        if (!c.inFlight) {
            throw new IllegalStateException("bytes from the server with no request outstanding");
        }
        boolean done;
        try {
            done = c.parser.feed(readBuffer, now);
        } catch (IllegalStateException e) {   // bytes that are no response, counted as an i/o error by run
            if (c.intended >= window.measureFrom && c.intended < window.end) {
                window.wrong.offer("malformed: " + e.getMessage(), c.parser);
            }
            throw e;
        }
        if (done) {
            boolean closes = c.parser.closes();
            complete(c, now);
            if (readBuffer.hasRemaining()) {
                throw new IllegalStateException("bytes after the end of a response");
            }
            if (closes) {
                // The response said Connection: close (Tomcat does on every 100th response by default): a client
                // must not send on it again (RFC 9112, 9.6). Reopen, as wrk does; not an error. The next request's
                // latency includes the new connection in the open loop, whose schedule does not wait for it.
                reopen(c, selector);
            }
        }
    }

    /** The server closed the connection after a complete response (Connection: close, or an idle close). */
    private void reopen(Connection c, Selector selector) throws IOException {
        tally.serverCloses++;
        c.channel.close();
        connect(c, selector);
    }

    private void complete(Connection c, long now) {
        c.inFlight = false;
        window.completed.increment();
        boolean measured = c.intended >= window.measureFrom && now <= window.end;
        c.advanceSchedule();
        if (!measured) {
            return;
        }
        tally.response(c, c.intended, now, plan.bodyLength(), plan.bodyCrc(), window.wrong);
    }

    /**
     * What a worker needs of {@link LoadGenerator.Plan}, so that this file does not depend on the one that starts
     * it: where to send, the load model, and what a correct response is.
     */
    record Job(URI uri, int connections, double rate, long bodyLength, long bodyCrc, long firstItemEnd,
               Duration timeout) {
        boolean openLoop() {
            return rate > 0;
        }
    }

    /**
     * When the measured window opens and closes, shared by the workers: set before they start for a fixed warm-up,
     * by {@link LoadGenerator}'s warm-up for an adaptive one (until then never). {@code completed} counts every
     * completed response; {@code wrong} keeps the first wrong ones of the measured window.
     */
    static final class Window {
        volatile long measureFrom = Long.MAX_VALUE;
        volatile long end = Long.MAX_VALUE;
        final java.util.concurrent.atomic.LongAdder completed = new java.util.concurrent.atomic.LongAdder();
        final WrongResponses wrong = new WrongResponses();
    }

    public static Histogram histogram() {
        return Tally.histogram();
    }

    /** One keep-alive connection and its schedule; its response is its parser's. */
    static final class Connection implements Tally.Response {
        final ResponseParser parser;
        final double period;
        SocketChannel channel;
        boolean inFlight;
        long intended;
        long nextIntended;
        private double scheduled;

        /** {@code keepLimit}: the bytes of a response its parser keeps, so that a wrong one can be written out. */
        Connection(long firstIntended, double period, long firstItemEnd, int keepLimit) {
            this.parser = new ResponseParser(firstItemEnd, false, keepLimit);
            this.period = period;
            this.scheduled = firstIntended;
            this.nextIntended = firstIntended;
        }

        void advanceSchedule() {
            scheduled += period;
            nextIntended = (long) scheduled;
        }

        @Override
        public int status() {
            return parser.status();
        }

        @Override
        public long bodyBytes() {
            return parser.bodyBytes();
        }

        @Override
        public long bodyCrc() {
            return parser.bodyCrc();
        }

        @Override
        public long chunks() {
            return parser.chunks();
        }

        @Override
        public long firstBodyByteNanos() {
            return parser.firstBodyByteNanos();
        }

        @Override
        public long markNanos() {
            return parser.markNanos();
        }

        @Override
        public WrongResponses.Kept keep(String why) {
            return new WrongResponses.Kept(why, parser.kept(), parser.keptWhole(), -1);
        }
    }
}
