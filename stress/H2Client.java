package stress;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP/2 connection (h2c by prior knowledge, or h2 over TLS: {@link H2Endpoint}), with Netty's HTTP/2 frame codec
 * and multiplexer: the well-formed traffic of the HTTP/2 scenarios. Each GET is a stream of its own, its body counted
 * and checksummed (CRC32C, as bench's parser does over HTTP/1.1) as its DATA frames arrive. The windows are HTTP/2's
 * initial 65,535 bytes, which the multiplexer's streams hand back as they read: a stress scenario holds the server to
 * what the protocol guarantees every client, not to a browser's larger windows (verify uses those). Streams beyond the
 * server's SETTINGS_MAX_CONCURRENT_STREAMS wait in the codec until one ends, as a browser's requests wait.
 */
final class H2Client implements AutoCloseable {

    /**
     * Netty's decoder logs every DATA frame that arrives for a stream this client has reset (at INFO, one line a
     * frame): h2-resets makes hundreds, all expected (RFC 9113, 5.4.2: frames in flight still arrive), and they
     * would bury the scenarios' own lines. Held here: the logging framework keeps loggers only weakly.
     */
    private static final java.util.logging.Logger RESET_DATA_LOG = quiet(
            "io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder");

    private final H2Endpoint endpoint;
    private final CompletableFuture<Http2Settings> settings = new CompletableFuture<>();
    private final AtomicLong goAwayError = new AtomicLong(-1);
    private Channel channel;

    private H2Client(H2Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    /** One event-loop thread for a scenario's connections: the client must not take the server's CPU. */
    static EventLoopGroup loop() {
        return new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    static void stop(EventLoopGroup group) {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /**
     * A connection to {@code endpoint}, its preface sent (over TLS: once ALPN chose h2, else an IOException saying
     * what it chose); the server's SETTINGS arrive in their own time.
     */
    static H2Client open(EventLoopGroup group, H2Endpoint endpoint) throws IOException, InterruptedException {
        H2Client client = new H2Client(endpoint);
        client.channel = endpoint.connect(group, () -> new ChannelHandler[] {
            Http2FrameCodecBuilder.forClient().initialSettings(Http2Settings.defaultSettings())
                    .encoderEnforceMaxConcurrentStreams(true).build(),
            // Streams the server opens (push): none is asked for; refused by closing them.
            new Http2MultiplexHandler(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelActive(ChannelHandlerContext ctx) {
                    ctx.close();
                }
            }),
            client.new ConnectionFrames()});
        return client;
    }

    /**
     * The server's SETTINGS_MAX_CONCURRENT_STREAMS (-1: it sets none, no limit), once its SETTINGS arrived (within
     * 10 s, else an IOException).
     */
    long maxConcurrentStreams() throws IOException, InterruptedException {
        try {
            Long max = settings.get(10, TimeUnit.SECONDS).maxConcurrentStreams();
            return max == null ? -1 : max;
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("no SETTINGS from the server within 10 s", e);
        }
    }

    /** Whether the server said GOAWAY on this connection, or closed it. */
    boolean lost() {
        return goAwayError.get() >= 0 || !channel.isActive();
    }

    /** The error code of the server's GOAWAY, or -1 for none. */
    long goAwayError() {
        return goAwayError.get();
    }

    /**
     * GET {@code path} on a stream of its own; with {@code resetAfterFirstData}, this client resets the stream
     * (RST_STREAM, CANCEL) as soon as its first DATA frame arrives. {@code gauge} (or null) counts the stream from
     * its HEADERS' departure to its end. Never completes exceptionally: a failure is in the {@link H2Stream.Got}.
     */
    CompletableFuture<H2Stream.Got> get(String path, boolean resetAfterFirstData, H2Stream.Gauge gauge) {
        CompletableFuture<H2Stream.Got> result = new CompletableFuture<>();
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme(endpoint.scheme()).path(path)
                .authority(endpoint.authority());
        H2Stream handler = new H2Stream(result, resetAfterFirstData, gauge);
        new Http2StreamChannelBootstrap(channel).handler(handler).open().addListener(opened -> {
            if (!opened.isSuccess()) {
                handler.fail("no HTTP/2 stream: " + opened.cause());
                return;
            }
            Http2StreamChannel stream = (Http2StreamChannel) opened.getNow();
            stream.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true)).addListener(written -> {
                if (written.isSuccess()) {
                    handler.sent();
                } else {
                    handler.fail("request not sent: " + written.cause());
                    stream.close();
                }
            });
        });
        return result;
    }

    /** GET {@code path}, waiting up to {@code timeoutSeconds}; a timeout is a failed {@link H2Stream.Got}. */
    H2Stream.Got fetch(String path, int timeoutSeconds) throws InterruptedException {
        try {
            return get(path, false, null).get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return new H2Stream.Got(0, 0, 0, "not finished within " + timeoutSeconds + " s", -1, -1, false);
        }
    }

    /** A normal page on a new connection: 200 and equal to the page of {@code length} bytes and CRC32C {@code crc}. */
    static boolean pageWorks(EventLoopGroup group, H2Endpoint endpoint, String path, long length, long crc)
            throws InterruptedException {
        try (H2Client client = open(group, endpoint)) {
            return client.fetch(path, 30).page(length, crc);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    /** The connection's own frames: the server's SETTINGS and GOAWAY (the multiplexer passes them on). */
    private final class ConnectionFrames extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2SettingsFrame frame) {
                    settings.complete(frame.settings());
                } else if (msg instanceof Http2GoAwayFrame frame) {
                    goAwayError.compareAndSet(-1, frame.errorCode());
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // the codec has answered a connection error with its GOAWAY and closes the connection: streams fail
        }
    }
}
