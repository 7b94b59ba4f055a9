package client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP/2 connection ({@link H2Dial}) with Netty's HTTP/2 frame codec and multiplexer, for clients that make
 * requests one by one and wait for them (verify's h2c fetcher, stress's scenarios): each request a stream of its own,
 * timed by an {@link H2Stream}; the server's SETTINGS and GOAWAY kept. Streams beyond the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS wait in the codec until one ends, as a browser's requests wait. Pushed streams are
 * never asked for, and refused by closing them. (Bench's load generator keeps its own frame listener over the same
 * connections: a child channel and frame objects per stream are too dear at thousands of requests a second.)
 */
public final class H2Client implements AutoCloseable {

    /**
     * Netty's decoder logs every DATA frame that arrives for a stream this client has reset (at INFO, one line a
     * frame): stress's h2-resets makes hundreds, all expected (RFC 9113, 5.4.2: frames in flight still arrive), and
     * they would bury the scenarios' own lines. Held here: the logging framework keeps loggers only weakly.
     */
    private static final java.util.logging.Logger RESET_DATA_LOG = quiet(
            "io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder");

    private final CompletableFuture<Http2Settings> settings = new CompletableFuture<>();
    private final AtomicLong goAwayError = new AtomicLong(-1);
    private Channel channel;

    private H2Client() {
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    /** One event-loop thread: a client that checks a server must not take the server's CPU. */
    public static EventLoopGroup loop() {
        return new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    public static void stop(EventLoopGroup group) {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /**
     * A connection to {@code host:port} (over TLS when {@code tls} is not null: {@link H2Dial#open}), its preface sent
     * with {@code settings}; {@code connectionWindow} above HTTP/2's initial one is opened at once by a WINDOW_UPDATE.
     * The server's SETTINGS arrive in their own time.
     */
    public static H2Client open(EventLoopGroup group, String host, int port, SslContext tls, String where,
                                Http2Settings settings, int connectionWindow, int connectMillis, int readySeconds)
            throws IOException, InterruptedException {
        H2Client client = new H2Client();
        client.channel = H2Dial.open(group, host, port, connectMillis, readySeconds, tls, where,
                () -> new ChannelHandler[] {
                    Http2FrameCodecBuilder.forClient().initialSettings(settings)
                            .encoderEnforceMaxConcurrentStreams(true).build(),
                    new Http2MultiplexHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            ctx.close();
                        }
                    }),
                    client.new ConnectionFrames()});
        if (connectionWindow > H2Dial.DEFAULT_WINDOW) {
            // A WINDOW_UPDATE on stream 0: the frame codec takes one without a stream as the connection's.
            client.channel.writeAndFlush(new DefaultHttp2WindowUpdateFrame(connectionWindow - H2Dial.DEFAULT_WINDOW));
        }
        return client;
    }

    /**
     * The server's SETTINGS_MAX_CONCURRENT_STREAMS (-1: it sets none, no limit), once its SETTINGS arrived (within
     * 10 s, else an IOException).
     */
    public long maxConcurrentStreams() throws IOException, InterruptedException {
        try {
            Long max = settings.get(10, TimeUnit.SECONDS).maxConcurrentStreams();
            return max == null ? -1 : max;
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("no SETTINGS from the server within 10 s", e);
        }
    }

    /** Whether the server said GOAWAY on this connection, or closed it: it takes no new stream. */
    public boolean lost() {
        return goAwayError.get() >= 0 || !channel.isActive();
    }

    /** The error code of the server's GOAWAY, or -1 for none. */
    public long goAwayError() {
        return goAwayError.get();
    }

    /**
     * Sends the request {@code headers} (no body) on a stream of its own, timed from {@code start}; what comes back
     * goes to {@code listener}, which always hears of the end ({@link H2Stream.Listener#end}).
     */
    public void get(Http2Headers headers, long start, H2Stream.Listener listener) {
        H2Stream handler = new H2Stream(start, listener);
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
