package stress;

import http.Protocol;
import site.Combination;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code h2-slow-reader} scenario, {@code slow-readers} over HTTP/2 (h2c or h2, as {@code --protocol} says): normal
 * traffic (16 streams in a closed loop over 4 connections, 1 s of warm-up, then {@code --slow-readers-window} measured)
 * alone, then again while {@code --slow-readers} (100) clients each open 20 streams of /stocks with a 4 KB stream
 * window and never send a WINDOW_UPDATE: every stream's window and the connection's 65,535 bytes run out, and the
 * server holds the rest of those pages. The same bounded rule as {@code slow-readers}: the normal traffic's TTLB p99
 * within 2x (+ 5 ms) of its run alone, no error, the server's peak RSS within 100 MB of its peak alone (heap fixed, as
 * there), a normal page afterwards; and no slow connection got more than its windows allow.
 */
final class H2SlowReader {

    private static final int CONNECTIONS = 4;
    private static final int STREAMS_PER_CONNECTION = 4;
    private static final int SLOW_STREAMS = 20;
    private static final int SLOW_STREAM_WINDOW = 4096;
    /** HTTP/2's initial connection window, which a client can only raise by WINDOW_UPDATE (never sent here). */
    private static final int CONNECTION_WINDOW = 65_535;

    static final Scenario SCENARIO = new Scenario("h2-slow-reader", Set.of(Protocol.H2C, Protocol.H2),
            List.of("--slow-readers", "--slow-readers-window"), H2SlowReader::run, new Scenario.Rule(
                    f -> "the others served beside them, their p99 within 2x (+5 ms) of a run without slow readers, no"
                            + " error, server peak RSS within " + SlowReaders.RSS_SLACK_MB + " MB of it, a normal page"
                            + " afterwards; no slow"
                            + " connection sent more than its windows (" + CONNECTION_WINDOW + " bytes, "
                            + SLOW_STREAM_WINDOW + " a stream)",
                    f -> f.count("errors") == 0 && f.count("requests_alone") > 0 && SlowReaders.othersUnharmed(f)
                            && f.yes("normal_page_after") && f.count("slow_max_connection_bytes") <= CONNECTION_WINDOW
                            && f.count("slow_max_stream_bytes") <= SLOW_STREAM_WINDOW && f.count("slow_errors") == 0));

    private H2SlowReader() {
    }

    /** The normal traffic of one window: requests measured, errors, and their TTLB in microseconds. */
    private record Traffic(long requests, long errors, Histogram ttlb) {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c).withProtocol(s.http2()), s,
                "h2-slow-reader", SlowReaders.FIXED_HEAP)) {
            H2Endpoint endpoint = H2Endpoint.of(server);
            Raw.Response page = endpoint.page("/stocks", 10_000);
            EventLoopGroup group = H2Client.loop();
            EventLoopGroup slowGroup = H2Client.loop();
            List<Slow> slow = new ArrayList<>();
            try {
                server.resetPeaks();
                Traffic alone = traffic(group, endpoint, s.slowReadersWindow(), page);
                double rssAlone = server.peakRssMb();
                long threadsAlone = server.peakThreads();
                server.resetPeaks();
                for (int i = 0; i < s.slowReaders(); i++) {
                    slow.add(Slow.open(slowGroup, endpoint));
                }
                Traffic withSlow = traffic(group, endpoint, s.slowReadersWindow(), page);
                double rssSlow = server.peakRssMb();
                long threadsSlow = server.peakThreads();
                long slowBytes = slow.stream().mapToLong(k -> k.bytes.get()).sum();
                long maxConnection = slow.stream().mapToLong(k -> k.bytes.get()).max().orElse(0);
                long maxStream = slow.stream().mapToLong(k -> k.maxStream.get()).max().orElse(0);
                long exhausted = slow.stream().filter(k -> k.bytes.get() >= CONNECTION_WINDOW).count();
                long closedByServer = slow.stream().filter(k -> k.goAway || !k.channel.isActive()).count();
                List<String> slowErrors = slow.stream().map(k -> k.error).filter(e -> e != null).distinct().toList();
                boolean withinWindows = maxConnection <= CONNECTION_WINDOW && maxStream <= SLOW_STREAM_WINDOW
                        && slowErrors.isEmpty();
                double p99Alone = alone.ttlb().getValueAtPercentile(99) / 1000.0;
                double p99Slow = withSlow.ttlb().getValueAtPercentile(99) / 1000.0;
                boolean alive = H2Client.pageWorks(group, endpoint, "/stocks", page.bodyBytes(), page.bodyCrc());
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("protocol", s.http2().id());
                f.put("slow_readers", s.slowReaders());
                f.put("slow_streams", s.slowReaders() * SLOW_STREAMS);
                f.put("slow_read_kb", slowBytes / 1024);
                f.put("slow_windows_exhausted", exhausted);
                f.put("slow_closed_by_server", closedByServer);
                f.put("slow_max_connection_bytes", maxConnection);
                f.put("slow_max_stream_bytes", maxStream);
                f.put("requests_alone", alone.requests());
                f.put("requests_with_slow", withSlow.requests());
                f.put("errors", alone.errors() + withSlow.errors());
                f.put("ttlb_p99_alone_ms", Scenario.round(p99Alone));
                f.put("ttlb_p99_with_slow_ms", Scenario.round(p99Slow));
                f.put("server_rss_peak_alone_mb", Scenario.round(rssAlone));
                f.put("server_rss_peak_with_slow_mb", Scenario.round(rssSlow));
                f.put("server_threads_peak_alone", threadsAlone);
                f.put("server_threads_peak_with_slow", threadsSlow);
                f.put("slow_errors", slowErrors.size());
                f.put("normal_page_after", alive);
                f.put("warning_lines", server.warnings());
                String note = (withinWindows ? "" : "beyond the windows: " + maxConnection + " bytes on a connection, "
                        + maxStream + " on a stream" + (slowErrors.isEmpty() ? "" : ", " + slowErrors) + ". ")
                        + (alone.errors() + withSlow.errors() == 0 ? "" : "normal traffic: " + alone.errors()
                        + " error(s) alone, " + withSlow.errors() + " beside the slow readers. ")
                        + (alive ? "" : "no normal page afterwards. ");
                return new Scenario.Measured(f, note.strip());
            } finally {
                slow.forEach(k -> k.channel.close());
                H2Client.stop(slowGroup);
                H2Client.stop(group);
            }
        }
    }

    /**
     * {@link #CONNECTIONS} h2c connections with {@link #STREAMS_PER_CONNECTION} streams each in a closed loop (a
     * stream ends, the next starts), 1 s of warm-up then {@code window} measured: the TTLB of every page started in
     * the window, and as errors every stream that did not bring back the page whole.
     */
    private static Traffic traffic(EventLoopGroup group, H2Endpoint endpoint, Duration window, Raw.Response page)
            throws IOException, InterruptedException {
        List<H2Client> clients = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(H2Client.open(group, endpoint));
            }
            long measureFrom = System.nanoTime() + SlowReaders.WARMUP.toNanos();
            long end = measureFrom + window.toNanos();
            List<Thread> workers = new ArrayList<>();
            List<Histogram> histograms = new ArrayList<>();
            AtomicLong requests = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            for (H2Client client : clients) {
                for (int i = 0; i < STREAMS_PER_CONNECTION; i++) {
                    Histogram ttlb = new Histogram(3);
                    histograms.add(ttlb);
                    workers.add(Thread.ofVirtual().start(() -> {
                        try {
                            while (System.nanoTime() < end) {
                                long started = System.nanoTime();
                                H2Stream.Got g = client.fetch("/stocks", 10);
                                if (started < measureFrom) {
                                    continue;
                                }
                                requests.incrementAndGet();
                                if (g.page(page.bodyBytes(), page.bodyCrc())) {
                                    ttlb.recordValue(g.ttlbNanos() / 1000);
                                } else {
                                    errors.incrementAndGet();
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
                }
            }
            for (Thread t : workers) {
                t.join();
            }
            Histogram all = new Histogram(3);
            histograms.forEach(all::add);
            return new Traffic(requests.get(), errors.get(), all);
        } finally {
            clients.forEach(H2Client::close);
        }
    }

    /**
     * A slow reader: an HTTP/2 connection (h2c or h2) whose {@link #SLOW_STREAMS} GETs are sent at once with a stream
     * window of {@link #SLOW_STREAM_WINDOW} bytes. It reads every frame that comes but never hands a byte back to flow
     * control (the frame codec sends a WINDOW_UPDATE only for bytes a handler consumes, and this one consumes none), so
     * the server may send no more than the windows and must hold the rest.
     */
    private static final class Slow extends Http2ChannelDuplexHandler {
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong maxStream = new AtomicLong();
        private final Map<Integer, Long> perStream = new HashMap<>();
        private final H2Endpoint endpoint;
        private boolean requested;
        volatile boolean goAway;
        volatile String error;
        Channel channel;

        private Slow(H2Endpoint endpoint) {
            this.endpoint = endpoint;
        }

        static Slow open(EventLoopGroup group, H2Endpoint endpoint) throws IOException, InterruptedException {
            Slow slow = new Slow(endpoint);
            slow.channel = endpoint.connect(group, () -> new ChannelHandler[] {Http2FrameCodecBuilder.forClient()
                    .initialSettings(Http2Settings.defaultSettings().initialWindowSize(SLOW_STREAM_WINDOW)).build(),
                slow});
            return slow;
        }

        @Override
        protected void handlerAdded0(ChannelHandlerContext ctx) {
            if (ctx.channel().isActive()) {   // over TLS: added once ALPN chose h2, to a connection already up
                request(ctx);
            }
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            // In clear text: the codec before this handler has sent the preface and its SETTINGS by now.
            request(ctx);
            super.channelActive(ctx);
        }

        private void request(ChannelHandlerContext ctx) {
            if (requested) {
                return;
            }
            requested = true;
            for (int i = 0; i < SLOW_STREAMS; i++) {
                Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme(endpoint.scheme())
                        .path("/stocks").authority(endpoint.authority());
                ctx.write(new DefaultHttp2HeadersFrame(headers, true).stream(newStream()));
            }
            ctx.flush();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2DataFrame frame) {
                    int n = frame.initialFlowControlledBytes();   // padding counts against the windows too
                    bytes.addAndGet(n);
                    long onStream = perStream.merge(frame.stream().id(), (long) n, Long::sum);
                    maxStream.accumulateAndGet(onStream, Math::max);
                } else if (msg instanceof Http2GoAwayFrame) {
                    goAway = true;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // the codec's own verdict on what the server sent (a window overrun is a FLOW_CONTROL_ERROR)
            if (error == null) {
                error = cause.getClass().getSimpleName() + ": " + cause.getMessage();
            }
        }
    }
}
