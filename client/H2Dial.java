package client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * How every HTTP/2 connection of the project is made, with Netty (bench's load generator, verify's h2c fetcher,
 * stress's scenarios): {@code h2c} by prior knowledge (the HTTP/2 handlers in the pipeline from the start, the
 * connection begins with the preface, no Upgrade), or {@code h2} over TLS trusting exactly the certificate the server
 * was made with ({@link #trusting}), host names checked, HTTP/2 chosen by ALPN. Over TLS a connection on which ALPN
 * did not choose h2 is refused in a sentence ({@link Ready#refused}): the caller would otherwise measure HTTP/1.1
 * over TLS, or nothing, and call it HTTP/2. Also the windows the clients open, in one place.
 */
public final class H2Dial {

    /** HTTP/2's initial window (RFC 9113, 6.9.2): what a window is until a SETTINGS or WINDOW_UPDATE changes it. */
    public static final int DEFAULT_WINDOW = 65_535;
    /**
     * The windows of a client that receives pages as a browser does, deliberately Chromium's (6 MB per stream in its
     * SETTINGS, the connection's raised to 15 MB by a WINDOW_UPDATE): pages not held back by HTTP/2's initial
     * 65,535 bytes when many share a connection. Bench and verify open these; stress keeps the initial ones, holding
     * a server to what the protocol guarantees every client.
     */
    public static final int STREAM_WINDOW = 6 * 1024 * 1024;
    public static final int CONNECTION_WINDOW = 15 * 1024 * 1024;

    private H2Dial() {
    }

    /** The SETTINGS of a client with Chromium's stream window ({@link #STREAM_WINDOW}). */
    public static Http2Settings chromium() {
        return Http2Settings.defaultSettings().initialWindowSize(STREAM_WINDOW);
    }

    /** A client context that trusts {@code certificate} alone, host names checked, and offers h2 (and http/1.1). */
    public static SslContext trusting(X509Certificate certificate) throws IOException {
        // http/1.1 offered beside h2, as a browser offers it: a server without HTTP/2 over TLS then chooses it, and
        // the caller fails in a sentence naming what was chosen, rather than in a handshake the server cut.
        // Host names checked (Netty 4.2's default, said here rather than assumed).
        return SslContextBuilder.forClient().trustManager(certificate).endpointIdentificationAlgorithm("HTTPS")
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }

    /** What a connection does once HTTP/2 may start on it, or hears why it may not. */
    public interface Ready {
        /**
         * Adds the HTTP/2 handlers to {@code ch}'s pipeline: in clear text as the connection is made (the codec sends
         * its preface once it is up), over TLS once ALPN chose h2 (the codec, added to a connection already up, writes
         * its preface at once, flushed after this returns, as a server may wait for it before it sends its SETTINGS).
         */
        void http2(Channel ch);

        /**
         * The TLS handshake failed ({@code handshake}), or ALPN chose other than h2: said in {@code sentence};
         * {@code ch} is closed when this returns.
         */
        void refused(Channel ch, String sentence, boolean handshake);
    }

    /**
     * Connects to {@code host:port} on {@code group} (TCP_NODELAY), over TLS when {@code tls} is not null;
     * {@code first} (or null) goes first in the pipeline, before TLS; {@code where} names the server in sentences.
     */
    public static ChannelFuture connect(EventLoopGroup group, String host, int port, int connectMillis, SslContext tls,
                                        String where, ChannelHandler first, Ready ready) {
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (first != null) {
                            ch.pipeline().addLast(first);
                        }
                        if (tls == null) {
                            ready.http2(ch);
                            return;
                        }
                        SslHandler ssl = tls.newHandler(ch.alloc(), host, port);
                        ch.pipeline().addLast(ssl);
                        ssl.handshakeFuture().addListener(done -> {
                            String chosen = ssl.applicationProtocol();
                            if (!done.isSuccess()) {
                                ready.refused(ch, handshakeFailed(where, done.cause()), true);
                                ch.close();
                            } else if (!ApplicationProtocolNames.HTTP_2.equals(chosen)) {
                                ready.refused(ch, notChosen(where, chosen, ApplicationProtocolNames.HTTP_2), false);
                                ch.close();
                            } else {
                                ready.http2(ch);
                                ch.flush();
                            }
                        });
                    }
                });
        return bootstrap.connect(host, port);
    }

    /**
     * As {@link #connect}, waiting: returns once the handlers {@code http2} makes are in place, within
     * {@code readySeconds} of the connection (over TLS: the handshake); an IOException says why they are not.
     */
    public static Channel open(EventLoopGroup group, String host, int port, int connectMillis, int readySeconds,
                               SslContext tls, String where, Supplier<ChannelHandler[]> http2)
            throws IOException, InterruptedException {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        ChannelFuture connect = connect(group, host, port, connectMillis, tls, where, null, new Ready() {
            @Override
            public void http2(Channel ch) {
                ch.pipeline().addLast(http2.get());
                ready.complete(null);
            }

            @Override
            public void refused(Channel ch, String sentence, boolean handshake) {
                ready.completeExceptionally(new IOException(sentence));
            }
        }).awaitUninterruptibly();
        if (!connect.isSuccess()) {
            Throwable cause = connect.cause();
            throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        }
        Channel channel = connect.channel();
        try {
            ready.get(readySeconds, TimeUnit.SECONDS);
            return channel;
        } catch (ExecutionException e) {
            channel.close();
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            channel.close();
            throw new IOException("no TLS handshake with " + where + " within " + readySeconds + " s.");
        }
    }

    /** The sentence for a TLS handshake with {@code where} that failed. */
    public static String handshakeFailed(String where, Throwable why) {
        return "the TLS handshake with " + where + " failed: " + (why.getMessage() == null ? why : why.getMessage())
                + ".";
    }

    /** The sentence for ALPN at {@code where} choosing {@code chosen} (null or empty: none), not {@code wanted}. */
    public static String notChosen(String where, String chosen, String wanted) {
        return "ALPN at " + where + " chose " + (chosen == null || chosen.isEmpty() ? "no protocol" : chosen)
                + ", not " + wanted + ": the server does not offer " + (wanted.equals(ApplicationProtocolNames.HTTP_2)
                ? "HTTP/2" : wanted) + " over TLS there.";
    }
}
