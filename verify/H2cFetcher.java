package verify;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.util.ReferenceCountUtil;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/2 in clear text by prior knowledge (the connection starts with the HTTP/2 preface, no Upgrade), with
 * Netty's HTTP/2 frame codec, which the project has through Reactor Netty: the JDK's HttpClient cannot do it. All
 * requests share one connection, each on a stream of its own, as a browser's requests of a page do; every DATA frame
 * is timed as it is read, as {@link TimedFetch} times each piece of a body. Windows as Chromium's (6 MB per stream,
 * 15 MB for the connection), not HTTP/2's initial 65,535 bytes: verify checks pages as browsers receive them; what
 * small windows do to pages sharing a connection is for the HTTP/2 stress scenarios (docs/http2.md has what was
 * seen with Helidon). Streams beyond the server's limit wait in the codec until one ends.
 */
final class H2cFetcher implements Fetcher {

    private static final int DEFAULT_WINDOW = 65_535;
    private static final int STREAM_WINDOW = 6 * 1024 * 1024;
    private static final int CONNECTION_WINDOW = 15 * 1024 * 1024;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private Channel connection;   // opened at the first request, to that request's host and port; guarded by this

    @Override
    public String version() {
        return TimedFetch.HTTP_2;
    }

    @Override
    public CompletableFuture<TimedFetch> get(URI uri) {
        CompletableFuture<TimedFetch> result = new CompletableFuture<>();
        long start = System.nanoTime();
        Channel parent;
        try {
            parent = connection(uri);
        } catch (IOException e) {
            result.completeExceptionally(e);
            return result;
        }
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("http").path(path)
                .authority(uri.getRawAuthority()).add("accept-encoding", TimedFetch.ACCEPT_ENCODING);
        new Http2StreamChannelBootstrap(parent).handler(new Stream(start, result)).open().addListener(opened -> {
            if (!opened.isSuccess()) {
                result.completeExceptionally(new IOException("no HTTP/2 stream: " + opened.cause(), opened.cause()));
                return;
            }
            Http2StreamChannel stream = (Http2StreamChannel) opened.getNow();
            stream.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true)).addListener(written -> {
                if (!written.isSuccess()) {
                    result.completeExceptionally(new IOException("request not sent: " + written.cause(),
                            written.cause()));
                }
            });
        });
        return result;
    }

    private synchronized Channel connection(URI uri) throws IOException {
        // A connection the server has said GOAWAY on takes no new stream: the next request opens another.
        if (connection != null && connection.isActive()
                && !connection.pipeline().get(Http2FrameCodec.class).connection().goAwayReceived()) {
            return connection;
        }
        if (connection != null) {
            connection.close();
        }
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) TimedFetch.CONNECT_TIMEOUT.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient()
                                        .initialSettings(Http2Settings.defaultSettings()
                                                .initialWindowSize(STREAM_WINDOW))
                                        .encoderEnforceMaxConcurrentStreams(true).build(),
                                // Streams the server opens (push): none is asked for; refused by closing them.
                                new Http2MultiplexHandler(new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelActive(ChannelHandlerContext ctx) {
                                        ctx.close();
                                    }
                                }));
                    }
                });
        int port = uri.getPort() >= 0 ? uri.getPort() : 80;
        var connect = bootstrap.connect(uri.getHost(), port).awaitUninterruptibly();
        if (!connect.isSuccess()) {
            Throwable cause = connect.cause();
            throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        }
        connection = connect.channel();
        // A WINDOW_UPDATE on stream 0: the frame codec takes one without a stream as the connection's.
        connection.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - DEFAULT_WINDOW));
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** One request's stream: its headers, then each DATA frame timed as it is read, until the end of the stream. */
    private static final class Stream extends ChannelInboundHandlerAdapter {
        private final long start;
        private final CompletableFuture<TimedFetch> result;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final List<Long> arrivals = new ArrayList<>();
        private final List<Integer> ends = new ArrayList<>();
        private final Map<String, List<String>> fields = new LinkedHashMap<>();
        private int status = -1;
        private long headersAt;

        Stream(long start, CompletableFuture<TimedFetch> result) {
            this.start = start;
            this.result = result;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long now = System.nanoTime() - start;
            try {
                boolean end = false;
                if (msg instanceof Http2HeadersFrame frame) {
                    if (status < 0) {
                        headersAt = now;
                        CharSequence code = frame.headers().status();
                        status = code == null ? 0 : Integer.parseInt(code.toString());
                    }
                    frame.headers().forEach(h -> {
                        String name = h.getKey().toString().toLowerCase(Locale.ROOT);
                        if (!name.startsWith(":")) {
                            fields.computeIfAbsent(name, n -> new ArrayList<>()).add(h.getValue().toString());
                        }
                    });
                    end = frame.isEndStream();
                } else if (msg instanceof Http2DataFrame frame) {
                    int n = frame.content().readableBytes();
                    if (n > 0) {
                        byte[] bytes = new byte[n];
                        frame.content().readBytes(bytes);
                        body.writeBytes(bytes);
                        arrivals.add(now);
                        ends.add(body.size());
                    }
                    end = frame.isEndStream();
                } else if (msg instanceof Http2ResetFrame reset) {
                    result.completeExceptionally(new IOException("stream reset by the server (error code "
                            + reset.errorCode() + ")"));
                    ctx.close();
                    return;
                }
                if (end) {
                    result.complete(new TimedFetch(status, HttpHeaders.of(fields, (a, b) -> true),
                            body.toByteArray(), headersAt, List.copyOf(arrivals), List.copyOf(ends),
                            TimedFetch.HTTP_2));
                    ctx.close();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            result.completeExceptionally(new IOException("the HTTP/2 stream closed before its end"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            result.completeExceptionally(cause instanceof IOException ? cause : new IOException(cause.toString(), cause));
            ctx.close();
        }
    }
}
