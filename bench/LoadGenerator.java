package bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * PssrBench's load generator: HTTP/1.1 keep-alive GETs over non-blocking sockets, many connections per thread, in
 * either load model:
 * <ul>
 *   <li><b>closed loop</b>: each connection sends its next request as soon as the previous response ended (the
 *   published benchmarks' model; gives the maximum throughput);</li>
 *   <li><b>open loop</b> at a fixed rate: each connection has its own schedule (rate / connections), and every
 *   latency is measured from the request's <em>intended</em> send time, so a stalled server cannot hide its stall
 *   by delaying the requests that should have been sent meanwhile (coordinated omission, as wrk2 corrects it).</li>
 * </ul>
 * For every request it records, in HdrHistogram (microseconds), the time to the first body byte, to the end of the
 * page's first item, and to the last byte, and it checks the status and the body (length and CRC32C) against the
 * verified page: anything else counts as an error.
 *
 * <p>Written for this job (not a client library) because it needs the arrival time of individual body bytes and
 * must not become the bottleneck: one selector thread drives all of its connections without allocating per
 * request beyond the parser's state.
 */
public final class LoadGenerator {

    /**
     * What to send, how, and what a correct response is. {@code warmup} is fixed unless {@code steady} is set: then
     * the warm-up lasts until the load is steady, at most {@code steady.max()}.
     */
    public record Plan(URI uri, int connections, int threads, double rate, Duration warmup, Duration duration,
                       long bodyLength, long bodyCrc, long firstItemEnd, Duration timeout, Steady steady) {

        /** A plan with a fixed warm-up. */
        public Plan(URI uri, int connections, int threads, double rate, Duration warmup, Duration duration,
                    long bodyLength, long bodyCrc, long firstItemEnd, Duration timeout) {
            this(uri, connections, threads, rate, warmup, duration, bodyLength, bodyCrc, firstItemEnd, timeout, null);
        }

        public Plan {
            if (connections < 1 || threads < 1 || threads > connections) {
                throw new IllegalArgumentException("need 1 <= threads <= connections");
            }
            if (rate < 0) {
                throw new IllegalArgumentException("the rate must not be negative");
            }
        }

        /** Open loop when a rate is set, closed loop otherwise. */
        public boolean openLoop() {
            return rate > 0;
        }
    }

    /**
     * An adaptive warm-up ({@code --warmup=auto}): one-second windows of completed requests until the mean of the
     * last {@code windows} of them is within {@code tolerance} of the mean of the {@code windows} before (and never
     * closer than {@link #SLACK_REQUESTS} requests a window is asked for, so that a slow point's whole-request steps
     * do not count as change), or {@code max} has passed. Blocks of windows, not single ones: on a 2-core machine
     * shared by server and client, single one-second windows of a server at steady state vary by 5 to 10%, so "five
     * windows in a row within 2%" never came (every warm-up ran to its 60 s cap); the mean of five varies by 2 to 3%.
     * In the open loop the completions follow the rate once the server keeps up, so there it says that the rate is
     * sustained, not that latencies have settled.
     */
    public record Steady(Duration max, int windows, double tolerance) {
        /** PssrBench's steady state: the mean of this many one-second windows ... */
        public static final int WINDOWS = 5;
        /** ... within this many % of the mean of as many before them. */
        public static final int TOLERANCE_PCT = 2;

        public static Steady of(Duration max) {
            return new Steady(max, WINDOWS, TOLERANCE_PCT / 100.0);
        }

        static final int SLACK_REQUESTS = 2;

        /** The shortest adaptive warm-up: two blocks of windows. */
        public Duration least() {
            return Duration.ofSeconds(2L * windows);
        }

        /** Whether the last two blocks of {@code windows} counts are steady. */
        boolean reached(List<Long> counts) {
            int n = counts.size();
            if (n < 2 * windows) {
                return false;
            }
            double before = counts.subList(n - 2 * windows, n - windows).stream().mapToLong(Long::longValue)
                    .average().orElse(0);
            double last = counts.subList(n - windows, n).stream().mapToLong(Long::longValue).average().orElse(0);
            return last > 0 && Math.abs(last - before) <= Math.max(tolerance * Math.max(last, before), SLACK_REQUESTS);
        }
    }

    /**
     * The measured window's numbers; histograms in microseconds. {@code warmupSeconds}: how long the warm-up
     * lasted; {@code steady}: whether an adaptive one reached steady state (true for a fixed one);
     * {@code warmupCounts}: the completed requests of each second of the warm-up (adaptive only).
     */
    public record Result(long requests, long non2xx, long wrongBodies, long ioErrors, long timeouts,
                         double seconds, Histogram ttfb, Histogram firstItem, Histogram ttlb, long chunks,
                         long clientCpuNanos, double warmupSeconds, boolean steady, List<Long> warmupCounts) {
        public long errors() {
            return non2xx + wrongBodies + ioErrors + timeouts;
        }

        public double requestsPerSecond() {
            return requests / seconds;
        }

        public double chunksMean() {
            return requests == 0 ? Double.NaN : (double) chunks / requests;
        }
    }

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(5);

    private LoadGenerator() {
    }

    /** Runs the warm-up, then the measured window, and returns the measured window's numbers. */
    public static Result run(Plan plan) throws IOException, InterruptedException {
        return run(plan, () -> false);
    }

    /** As {@link #run(Plan)}, but ends early (within 100 ms) once {@code stop} answers true. */
    public static Result run(Plan plan, BooleanSupplier stop) throws IOException, InterruptedException {
        return run(plan, stop, () -> { });
    }

    /**
     * As {@link #run(Plan, BooleanSupplier)}; {@code measuring} is called once, on this thread, when the measured
     * window starts (after a fixed warm-up, or when an adaptive one found the load steady).
     */
    public static Result run(Plan plan, BooleanSupplier stop, Runnable measuring)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Window window = new Window();
        if (plan.steady() == null) {
            window.measureFrom = start + plan.warmup().toNanos();
            window.end = window.measureFrom + plan.duration().toNanos();
        }
        List<Worker> workers = new ArrayList<>();
        for (int t = 0; t < plan.threads(); t++) {
            int from = t * plan.connections() / plan.threads();
            int to = (t + 1) * plan.connections() / plan.threads();
            workers.add(new Worker(plan, from, to, start, window, stop));
        }
        List<Thread> threads = new ArrayList<>();
        for (Worker w : workers) {
            Thread thread = Thread.ofPlatform().name("pssr-load-" + threads.size()).daemon(true).unstarted(w);
            threads.add(thread);
            thread.start();
        }
        List<Long> counts = new ArrayList<>();
        boolean steady = warmUp(plan, start, window, counts, stop, threads);
        measuring.run();
        for (Thread thread : threads) {
            thread.join();
        }
        Histogram ttfb = histogram();
        Histogram firstItem = histogram();
        Histogram ttlb = histogram();
        long requests = 0, non2xx = 0, wrong = 0, io = 0, timeouts = 0, chunks = 0, cpu = 0;
        for (Worker w : workers) {
            if (w.failure != null) {
                throw w.failure;
            }
            ttfb.add(w.ttfb);
            firstItem.add(w.firstItem);
            ttlb.add(w.ttlb);
            requests += w.requests;
            non2xx += w.non2xx;
            wrong += w.wrongBodies;
            io += w.ioErrors;
            timeouts += w.timeouts;
            chunks += w.chunks;
            cpu += w.cpuNanos;
        }
        return new Result(requests, non2xx, wrong, io, timeouts, plan.duration().toNanos() / 1e9, ttfb, firstItem,
                ttlb, chunks, cpu, (window.measureFrom - start) / 1e9, steady, List.copyOf(counts));
    }

    /**
     * Waits out the warm-up: until the fixed warm-up's end, or, adaptive, until the one-second windows are steady
     * or the cap has passed, then opens the measured window. Returns whether the load was steady.
     */
    private static boolean warmUp(Plan plan, long start, Window window, List<Long> counts, BooleanSupplier stop,
                                  List<Thread> threads) throws InterruptedException {
        Steady rule = plan.steady();
        if (rule == null) {
            long left = window.measureFrom - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
            return true;
        }
        long cap = start + rule.max().toNanos();
        long next = start;
        boolean steady = false;
        while (!stop.getAsBoolean() && threads.stream().anyMatch(Thread::isAlive)) {
            next += TimeUnit.SECONDS.toNanos(1);
            long now = System.nanoTime();
            if (next > now) {
                TimeUnit.NANOSECONDS.sleep(next - now);
            }
            counts.add(window.completed.sumThenReset());
            steady = rule.reached(counts);
            if (steady || next >= cap) {
                break;
            }
        }
        window.measureFrom = next;
        window.end = next + plan.duration().toNanos();
        return steady;
    }

    /**
     * When the measured window opens and closes, shared by the workers: set before they start for a fixed warm-up,
     * by {@link #warmUp} for an adaptive one (until then never). {@code completed} counts every completed response.
     */
    private static final class Window {
        volatile long measureFrom = Long.MAX_VALUE;
        volatile long end = Long.MAX_VALUE;
        final java.util.concurrent.atomic.LongAdder completed = new java.util.concurrent.atomic.LongAdder();
    }

    private static Histogram histogram() {
        return new Histogram(HIGHEST_MICROS, 3);
    }

    /** One selector thread and its connections. */
    private static final class Worker implements Runnable {
        private final Plan plan;
        private final Window window;
        private final Connection[] connections;
        private final Histogram ttfb = histogram();
        private final Histogram firstItem = histogram();
        private final Histogram ttlb = histogram();
        private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
        private final byte[] request;
        private long requests, non2xx, wrongBodies, ioErrors, timeouts, chunks, cpuNanos;
        private final BooleanSupplier stop;
        private IOException failure;

        Worker(Plan plan, int from, int to, long start, Window window, BooleanSupplier stop) {
            this.plan = plan;
            this.stop = stop;
            this.window = window;
            this.connections = new Connection[to - from];
            double period = plan.openLoop() ? plan.connections() * 1e9 / plan.rate() : 0;
            for (int i = 0; i < connections.length; i++) {
                // Spread the connections' schedules evenly over one period, as wrk2 does.
                long offset = plan.openLoop() ? (long) (period * (from + i) / plan.connections()) : 0;
                connections[i] = new Connection(start + offset, period, plan.firstItemEnd());
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
                                timeouts++;
                            }
                            reconnect(c, selector);
                        } else if (!c.inFlight && c.channel.isConnected()) {
                            if (!plan.openLoop() || now >= c.nextIntended) {
                                try {
                                    send(c, now);
                                } catch (IOException e) {
                                    if (c.intended >= window.measureFrom) {
                                        ioErrors++;
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
                                ioErrors++;
                            }
                            reconnect(c, selector);
                        }
                    }
                }
                cpuNanos = cpu.getCurrentThreadCpuTime() - Math.max(0, cpuAtMeasure);
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
                throw new IOException("connection closed by the server");
            }
            readBuffer.flip();
            if (!c.inFlight) {
                throw new IllegalStateException("bytes from the server with no request outstanding");
            }
            if (c.parser.feed(readBuffer, now)) {
                complete(c, now);
                if (readBuffer.hasRemaining()) {
                    throw new IllegalStateException("bytes after the end of a response");
                }
            }
        }

        private void complete(Connection c, long now) {
            c.inFlight = false;
            window.completed.increment();
            boolean measured = c.intended >= window.measureFrom && now <= window.end;
            c.advanceSchedule();
            if (!measured) {
                return;
            }
            requests++;
            ResponseParser p = c.parser;
            if (p.status() / 100 != 2) {
                non2xx++;
                return;
            }
            if (p.bodyBytes() != plan.bodyLength() || p.bodyCrc() != plan.bodyCrc()) {
                wrongBodies++;
                return;
            }
            chunks += p.chunks();
            ttfb.recordValue(micros(p.firstBodyByteNanos() - c.intended));
            firstItem.recordValue(micros(p.markNanos() - c.intended));
            ttlb.recordValue(micros(now - c.intended));
        }

        private static long micros(long nanos) {
            return Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000));
        }
    }

    /** One keep-alive connection and its schedule. */
    private static final class Connection {
        final ResponseParser parser;
        final double period;
        SocketChannel channel;
        boolean inFlight;
        long intended;
        long nextIntended;
        private double scheduled;

        Connection(long firstIntended, double period, long firstItemEnd) {
            this.parser = new ResponseParser(firstItemEnd);
            this.period = period;
            this.scheduled = firstIntended;
            this.nextIntended = firstIntended;
        }

        void advanceSchedule() {
            scheduled += period;
            nextIntended = (long) scheduled;
        }
    }
}
