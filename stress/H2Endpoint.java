package stress;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Where an HTTP/2 scenario connects, and how: {@code h2c} (clear text, HTTP/2 by prior knowledge) or {@code h2}
 * (TLS, HTTP/2 chosen by ALPN), trusting exactly the certificate the scenario's server was started with (made for it
 * by {@link bench.ServerProcess}, as bench's HTTP/2 client trusts it), host names checked. Over TLS a connection on
 * which ALPN did not choose what was asked is refused in a sentence: a scenario would otherwise test HTTP/1.1 over
 * TLS, or nothing, and call it HTTP/2.
 */
final class H2Endpoint {

    static final String HOST = "127.0.0.1";
    /** How long a connection may take to be ready for HTTP/2: connect, and over TLS the handshake. */
    private static final int READY_SECONDS = 15;

    private final int port;
    /** Netty's client context for the well-formed traffic; null in clear text. */
    private final SslContext netty;
    /** The JDK's, for the raw bytes of h2-malformed and the page over HTTP/1.1; null in clear text. */
    private final SSLContext jdk;

    private H2Endpoint(int port, SslContext netty, SSLContext jdk) {
        this.port = port;
        this.netty = netty;
        this.jdk = jdk;
    }

    /** h2c at 127.0.0.1:{@code port}. */
    static H2Endpoint clear(int port) {
        return new H2Endpoint(port, null, null);
    }

    /** h2 at 127.0.0.1:{@code port}, trusting the certificate of {@code tls} (the chain's first) and no other. */
    static H2Endpoint tls(int port, core.Tls tls) throws IOException {
        // http/1.1 offered beside h2, as a browser offers it: a server without HTTP/2 over TLS then chooses it, and
        // the scenario fails in a sentence naming what was chosen rather than in a handshake the server cut.
        SslContext netty = SslContextBuilder.forClient().trustManager(tls.chain().get(0))
                .endpointIdentificationAlgorithm("HTTPS")
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
        return new H2Endpoint(port, netty, tls.trustingContext());
    }

    /** The scenario's server as it was started: over TLS when it was given a certificate, else in clear text. */
    static H2Endpoint of(StressServer server) throws IOException {
        return server.tls() == null ? clear(server.port()) : tls(server.port(), server.tls());
    }

    int port() {
        return port;
    }

    boolean tls() {
        return jdk != null;
    }

    /** A request's {@code :scheme}. */
    String scheme() {
        return tls() ? "https" : "http";
    }

    /** A request's {@code :authority}. */
    String authority() {
        return HOST + ":" + port;
    }

    /**
     * A Netty connection on {@code group} whose pipeline gets the handlers {@code http2} makes once HTTP/2 may start:
     * at once in clear text (the HTTP/2 codec then sends its preface when the connection is up); over TLS once the
     * handshake is done and ALPN chose h2 (the codec, added to a connection already up, writes its preface at once:
     * flushed here, as a server may wait for it before it sends its SETTINGS). Returns when the handlers are in
     * place, within 15 s; an IOException says why they are not.
     */
    Channel connect(EventLoopGroup group, Supplier<ChannelHandler[]> http2) throws IOException, InterruptedException {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (netty == null) {
                            ch.pipeline().addLast(http2.get());
                            ready.complete(null);
                            return;
                        }
                        SslHandler ssl = netty.newHandler(ch.alloc(), HOST, port);
                        ch.pipeline().addLast(ssl);
                        ssl.handshakeFuture().addListener(done -> {
                            String chosen = ssl.applicationProtocol();
                            if (!done.isSuccess()) {
                                ready.completeExceptionally(new IOException(handshakeFailed(done.cause())));
                            } else if (!ApplicationProtocolNames.HTTP_2.equals(chosen)) {
                                ready.completeExceptionally(new IOException(notChosen(chosen,
                                        ApplicationProtocolNames.HTTP_2)));
                            } else {
                                ch.pipeline().addLast(http2.get());
                                ch.flush();
                                ready.complete(null);
                            }
                        });
                    }
                });
        ChannelFuture connect = bootstrap.connect(HOST, port).awaitUninterruptibly();
        if (!connect.isSuccess()) {
            Throwable cause = connect.cause();
            throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        }
        Channel channel = connect.channel();
        try {
            ready.get(READY_SECONDS, TimeUnit.SECONDS);
            return channel;
        } catch (ExecutionException e) {
            channel.close();
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            channel.close();
            throw new IOException("no TLS handshake with " + authority() + " within " + READY_SECONDS + " s.");
        }
    }

    /**
     * A blocking socket, every read bounded by {@code timeoutMillis}: plain in clear text; over TLS handshaken, with
     * ALPN offering {@code protocol} alone ({@code h2}, {@code http/1.1}), which the server must have chosen (an
     * IOException says what it did instead). The JDK's own TLS (SSLParameters.setApplicationProtocols): h2-malformed
     * writes bytes no codec would, through it.
     */
    Socket socket(int timeoutMillis, String protocol) throws IOException {
        Socket plain = Raw.open(port, timeoutMillis);
        if (jdk == null) {
            return plain;
        }
        try {
            SSLSocket s = (SSLSocket) jdk.getSocketFactory().createSocket(plain, HOST, port, true);
            SSLParameters p = s.getSSLParameters();
            p.setApplicationProtocols(new String[] {protocol});
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
            try {
                s.startHandshake();
            } catch (IOException e) {
                throw new IOException(handshakeFailed(e), e);
            }
            String chosen = s.getApplicationProtocol();
            if (!protocol.equals(chosen)) {
                throw new IOException(notChosen(chosen, protocol));
            }
            return s;
        } catch (IOException e) {
            plain.close();   // the SSLSocket over it too
            throw e;
        }
    }

    /**
     * The page at {@code path} over HTTP/1.1 on the same port (over TLS in h2: ALPN http/1.1), 200 and complete: what
     * every stream's body is compared with (the servers offer HTTP/1.1 beside HTTP/2); an IOException saying what came
     * instead.
     */
    Raw.Response page(String path, int timeoutMillis) throws IOException {
        Raw.Response r;
        try (Socket s = socket(timeoutMillis, ApplicationProtocolNames.HTTP_1_1)) {
            Raw.send(s, Raw.get(path, port));
            r = Raw.read(s);
        }
        if (r.status() != 200 || !r.complete()) {
            throw new IOException("the page over HTTP/1.1" + (tls() ? " over TLS" : "") + " on the same port failed:"
                    + " status " + r.status() + ", " + (r.complete() ? "complete" : r.failure()));
        }
        return r;
    }

    private String handshakeFailed(Throwable why) {
        return "the TLS handshake with " + authority() + " failed: " + (why.getMessage() == null ? why
                : why.getMessage()) + ".";
    }

    private String notChosen(String chosen, String wanted) {
        return "ALPN at " + authority() + " chose " + (chosen == null || chosen.isEmpty() ? "no protocol" : chosen)
                + ", not " + wanted + ": the server does not offer " + (wanted.equals(ApplicationProtocolNames.HTTP_2)
                ? "HTTP/2" : wanted) + " over TLS there.";
    }
}
