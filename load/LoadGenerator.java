package load;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
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
 * verified page: anything else counts as an error, and the first few such responses are kept as received
 * ({@link WrongResponses}).
 *
 * <p>Written for this job (not a client library) because it needs the arrival time of individual body bytes and
 * must not become the bottleneck: one selector thread drives all of its connections without allocating per
 * request beyond the parser's state.
 *
 * <p>Over HTTP/2 ({@code h2c}, {@code h2}) the same plan runs on Netty's HTTP/2 codec instead ({@link H2Load}):
 * {@code streams} requests in flight on each connection, each stream timed and checked as an HTTP/1.1 response is.
 */
public final class LoadGenerator {

    /**
     * What to send, how, and what a correct response is. {@code warmup} is fixed unless {@code steady} is set: then
     * the warm-up lasts until the load is steady, at most {@code steady.max()}.
     */
    public record Plan(URI uri, int connections, int threads, double rate, Duration warmup, Duration duration,
                       long bodyLength, long bodyCrc, long firstItemEnd, Duration timeout, Steady steady,
                       http.Protocol protocol, int streams, java.security.cert.X509Certificate trust) {

        /** A plan with a fixed warm-up. */
        public Plan(URI uri, int connections, int threads, double rate, Duration warmup, Duration duration,
                    long bodyLength, long bodyCrc, long firstItemEnd, Duration timeout) {
            this(uri, connections, threads, rate, warmup, duration, bodyLength, bodyCrc, firstItemEnd, timeout, null);
        }

        /** A plan over HTTP/1.1 in clear text, one request at a time per connection. */
        public Plan(URI uri, int connections, int threads, double rate, Duration warmup, Duration duration,
                    long bodyLength, long bodyCrc, long firstItemEnd, Duration timeout, Steady steady) {
            this(uri, connections, threads, rate, warmup, duration, bodyLength, bodyCrc, firstItemEnd, timeout, steady,
                    http.Protocol.H1, 1, null);
        }

        /**
         * {@code protocol}: h1, h2c or h2 (HTTP/1.1 over TLS is not measured); {@code streams}: the requests in
         * flight per connection, more than one over HTTP/2 only; {@code trust}: over TLS, the one certificate to
         * trust (the server's that bench started), null in clear text.
         */
        public Plan {
            if (connections < 1 || threads < 1 || threads > connections) {
                throw new IllegalArgumentException("need 1 <= threads <= connections");
            }
            if (rate < 0) {
                throw new IllegalArgumentException("the rate must not be negative");
            }
            if (!http.Protocol.Command.BENCH.protocols().contains(protocol)) {
                throw new IllegalArgumentException("the load generator speaks "
                        + http.Protocol.ids(http.Protocol.Command.BENCH.protocols()) + ", not " + protocol.id());
            }
            if (streams < 1 || streams > 1 && !protocol.http2()) {
                throw new IllegalArgumentException("need 1 stream, or more over HTTP/2");
            }
            if (protocol.tls() != (trust != null)) {
                throw new IllegalArgumentException("a certificate to trust over TLS, none in clear text");
            }
        }

        /** Requests in flight at once: a stream slot each ({@code connections x streams}). */
        public int slots() {
            return connections * streams;
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
     * {@code warmupCounts}: the completed requests of each second of the warm-up (adaptive only);
     * {@code serverCloses}: connections the server closed after a complete response, warm-up included, which the
     * generator reopened (not errors; -1 when the driver does not tell); over HTTP/2 the connections it ended with
     * GOAWAY.
     */
    public record Result(long requests, long non2xx, long wrongBodies, long ioErrors, long timeouts,
                         double seconds, Histogram ttfb, Histogram firstItem, Histogram ttlb, long chunks,
                         long clientCpuNanos, double warmupSeconds, boolean steady, List<Long> warmupCounts,
                         long serverCloses, List<WrongResponses.Kept> kept) {

        /** A result that kept no wrong response and counts no closes (a driver that does not tell: Hyperfoil's). */
        public Result(long requests, long non2xx, long wrongBodies, long ioErrors, long timeouts, double seconds,
                      Histogram ttfb, Histogram firstItem, Histogram ttlb, long chunks, long clientCpuNanos,
                      double warmupSeconds, boolean steady, List<Long> warmupCounts) {
            this(requests, non2xx, wrongBodies, ioErrors, timeouts, seconds, ttfb, firstItem, ttlb, chunks,
                    clientCpuNanos, warmupSeconds, steady, warmupCounts, -1, List.of());
        }

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
        if (plan.protocol().client() == http.Protocol.Client.HTTP2) {
            return http2(plan, stop, measuring);
        }
        long start = System.nanoTime();
        LoadWorker.Window window = new LoadWorker.Window();
        if (plan.steady() == null) {
            window.measureFrom = start + plan.warmup().toNanos();
            window.end = window.measureFrom + plan.duration().toNanos();
        }
        LoadWorker.Job job = new LoadWorker.Job(plan.uri(), plan.connections(), plan.rate(), plan.bodyLength(),
                plan.bodyCrc(), plan.firstItemEnd(), plan.timeout());
        List<LoadWorker> workers = new ArrayList<>();
        for (int t = 0; t < plan.threads(); t++) {
            int from = t * plan.connections() / plan.threads();
            int to = (t + 1) * plan.connections() / plan.threads();
            workers.add(new LoadWorker(job, from, to, start, window, stop));
        }
        List<Thread> threads = new ArrayList<>();
        for (LoadWorker w : workers) {
            Thread thread = Thread.ofPlatform().name("pssr-load-" + threads.size()).daemon(true).unstarted(w);
            threads.add(thread);
            thread.start();
        }
        List<Long> counts = new ArrayList<>();
        boolean steady = warmUp(plan, start, window, counts, stop,
                () -> threads.stream().anyMatch(Thread::isAlive));
        measuring.run();
        for (Thread thread : threads) {
            thread.join();
        }
        List<Tally> tallies = new ArrayList<>();
        for (LoadWorker w : workers) {
            if (w.failure != null) {
                throw w.failure;
            }
            tallies.add(w.tally);
        }
        Tally all = Tally.sum(tallies);
        return result(all, plan.duration().toNanos() / 1e9, all.cpuNanos, (window.measureFrom - start) / 1e9, steady,
                List.copyOf(counts), window.wrong.kept());
    }

    /** The plan over HTTP/2, on {@link H2Load}: the same warm-up and window, its tallies as the result. */
    private static Result http2(Plan plan, BooleanSupplier stop, Runnable measuring)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        LoadWorker.Window window = new LoadWorker.Window();
        if (plan.steady() == null) {
            window.measureFrom = start + plan.warmup().toNanos();
            window.end = window.measureFrom + plan.duration().toNanos();
        }
        H2Job job = new H2Job(plan.uri(), plan.connections(), plan.threads(), plan.rate(), plan.timeout(),
                plan.bodyLength(), plan.bodyCrc(), plan.firstItemEnd(), plan.protocol().tls(), plan.streams(),
                plan.trust());
        List<Long> counts = new ArrayList<>();
        boolean[] steady = {true};
        H2Load.Totals t = H2Load.run(job, window, start, stop,
                running -> steady[0] = warmUp(plan, start, window, counts, stop, running), measuring);
        // chunks: DATA frames with payload, as HTTP chunks over HTTP/1.1; the server's closes: its GOAWAYs
        return result(t.all(), plan.duration().toNanos() / 1e9, t.cpuNanos(), (window.measureFrom - start) / 1e9,
                steady[0], List.copyOf(counts), window.wrong.kept());
    }

    /** The run's result from its summed tally and what the run itself knows. */
    private static Result result(Tally t, double seconds, long cpuNanos, double warmupSeconds, boolean steady,
                                 List<Long> warmupCounts, List<WrongResponses.Kept> kept) {
        return new Result(t.requests, t.non2xx, t.wrongBodies, t.ioErrors, t.timeouts, seconds, t.ttfb, t.firstItem,
                t.ttlb, t.chunks, cpuNanos, warmupSeconds, steady, warmupCounts, t.serverCloses, kept);
    }

    /**
     * Waits out the warm-up: until the fixed warm-up's end, or, adaptive, until the one-second windows are steady
     * or the cap has passed, then opens the measured window. Returns whether the load was steady.
     */
    private static boolean warmUp(Plan plan, long start, LoadWorker.Window window, List<Long> counts,
                                  BooleanSupplier stop, BooleanSupplier running) throws InterruptedException {
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
        while (!stop.getAsBoolean() && running.getAsBoolean()) {
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

}
