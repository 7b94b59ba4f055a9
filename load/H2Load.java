package load;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import client.H2Dial;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutor;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The load generator over HTTP/2 ({@code h2c} by prior knowledge, {@code h2} over TLS chosen by ALPN): the same
 * plan, load models and measurements as {@link LoadWorker}'s HTTP/1.1, with {@code streams} requests in flight on each
 * connection. Per request (stream): time to the first DATA byte, to the body's first-item offset and to END_STREAM,
 * in the same histograms; the status and the body (length and CRC32C) checked as over HTTP/1.1. In the open loop every
 * stream slot (connections x streams) has its own schedule and its latencies count from each request's intended send
 * time (coordinated omission corrected, as per connection over HTTP/1.1).
 *
 * <p>Netty's HTTP/2 codec (already here for verify's h2c client and Reactor Netty) rather than a hand-written one:
 * HTTP/2's framing, HPACK and flow control are far more than HTTP/1.1's parser; rather than {@code h2load}, whose time
 * to first byte is per connection, not per request; wrk and wrk2 speak no HTTP/2. Of Netty's two APIs, the frame
 * listener ({@link io.netty.handler.codec.http2.Http2ConnectionHandler} with an
 * {@link io.netty.handler.codec.http2.Http2FrameListener}), not {@code Http2FrameCodec} with
 * {@code Http2MultiplexHandler} as verify's client uses: the multiplex handler makes a child channel with its own
 * pipeline for every stream and an object for every frame, which a generator making thousands of requests a second on
 * one or two threads would pay per request; the listener gets each DATA frame's payload as a slice of the bytes read,
 * on the connection's event loop, and a stream is a slot of a fixed array ({@link H2Connection}).
 *
 * <p>Threads: a Netty event loop per {@code --load-threads} (NIO, as the HTTP/1.1 generator's selectors), each with
 * its share of the connections and its own histograms, added up when the run ends.
 */
public final class H2Load {

    private H2Load() {
    }

    /** What provenance records of the HTTP/2 client: the library, its API, the windows and the TLS provider. */
    public static String describe() {
        // Netty's version is under "libraries" (the jar's own record of it is lost in the shaded jar).
        return "Netty's HTTP/2 codec (Http2ConnectionHandler + Http2FrameListener), NIO event loops = --load-threads;"
                + " windows: " + H2Dial.STREAM_WINDOW + " bytes per stream (SETTINGS_INITIAL_WINDOW_SIZE), "
                + H2Dial.CONNECTION_WINDOW + " per connection (WINDOW_UPDATE), Chromium's; max frame size 16384 (the default); push off;"
                + " over TLS: " + SslContext.defaultClientProvider() + " provider, ALPN offers h2 and http/1.1 and"
                + " must choose h2, trusting exactly the certificate of the server bench started";
    }

    /** The warm-up as the load generator waits it out, while {@code running}: whether the load was steady. */
    interface WarmUp {
        boolean await(BooleanSupplier running) throws InterruptedException;
    }

    /** A run's result: every loop's tally added up, and the loops' CPU over the measured window (-1: unknown). */
    record Totals(Tally all, long cpuNanos) {
    }

    /**
     * Runs the warm-up ({@code warmUp}, which opens {@code window}), then the measured window; a point that cannot be
     * measured over HTTP/2 throws, said why. {@code start}: when the run began, the open loop's schedules' origin.
     */
    static Totals run(H2Job job, LoadWorker.Window window, long start, BooleanSupplier stop, WarmUp warmUp,
                      Runnable measuring) throws IOException, InterruptedException {
        H2Job.Shared shared = new H2Job.Shared(job, window, job.trust() == null ? null : H2Dial.trusting(job.trust()),
                new AtomicReference<>(), new AtomicBoolean());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(job.threads(), NioIoHandler.newFactory());
        try {
            List<EventLoop> loops = new ArrayList<>();
            for (EventExecutor e : group) {
                loops.add((EventLoop) e);
            }
            List<Tally> tallies = new ArrayList<>();
            long[] threads = new long[loops.size()];
            for (int i = 0; i < loops.size(); i++) {
                tallies.add(new Tally());
                threads[i] = loops.get(i).submit(() -> Thread.currentThread().threadId()).get();
            }
            List<H2Connection> connections = new ArrayList<>();
            for (int i = 0; i < job.connections(); i++) {
                H2Connection c = new H2Connection(shared, loops.get(i % loops.size()), tallies.get(i % loops.size()),
                        i, start);
                connections.add(c);
                c.start();
            }
            warmUp.await(() -> shared.failure().get() == null);
            if (shared.failure().get() != null) {   // failed in the warm-up: no measured window begins
                throw new IOException(shared.failure().get());
            }
            long cpuFrom = cpu(threads);
            measuring.run();
            while (!stop.getAsBoolean() && shared.failure().get() == null) {
                long left = window.end - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
            long cpuTo = cpu(threads);
            // Each connection marked closed before its loop shuts down: a loop that shuts down closes its channels
            // first, and their streams in flight would count as failed. Then the loops end before their tallies are
            // read: the termination orders their writes before the reads.
            connections.stream().map(H2Connection::stop).toList()
                    .forEach(f -> f.awaitUninterruptibly(2, TimeUnit.SECONDS));
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            if (shared.failure().get() != null) {
                throw new IOException(shared.failure().get());
            }
            return new Totals(Tally.sum(tallies), cpuFrom < 0 || cpuTo < 0 ? -1 : cpuTo - cpuFrom);
        } catch (ExecutionException e) {
            throw new IOException("an event loop of the HTTP/2 client failed: " + e.getCause(), e.getCause());
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    /** The event loops' CPU time so far, in nanoseconds (-1 where the JVM does not measure it). */
    private static long cpu(long[] threads) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long id : threads) {
            long t = mx.getThreadCpuTime(id);
            if (t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }
}
