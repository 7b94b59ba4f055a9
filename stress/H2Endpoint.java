package stress;

import client.H2Dial;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.util.function.Supplier;

/**
 * Where an HTTP/2 scenario connects, and how: {@code h2c} (clear text, HTTP/2 by prior knowledge) or {@code h2}
 * (TLS, HTTP/2 chosen by ALPN), trusting exactly the certificate the scenario's server was started with (made for it
 * by {@link harness.ServerProcess}), as every HTTP/2 connection is made ({@link H2Dial}). Beside it, what is
 * stress's own: raw sockets through the JDK's TLS, with the same checks and sentences, for the bytes no codec would
 * write (h2-malformed) and the page over HTTP/1.1 on the same port.
 */
final class H2Endpoint {

    static final String HOST = "127.0.0.1";
    /** How long a connection may take to be ready for HTTP/2: connect, and over TLS the handshake. */
    static final int READY_SECONDS = 15;
    static final int CONNECT_MILLIS = 10_000;

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
    static H2Endpoint tls(int port, http.Tls tls) throws IOException {
        SslContext netty = H2Dial.trusting(tls.chain().get(0));
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
        return H2Dial.open(group, HOST, port, CONNECT_MILLIS, READY_SECONDS, netty, authority(), http2);
    }

    /** Netty's client context over TLS (null in clear text), for {@link client.H2Client}. */
    SslContext netty() {
        return netty;
    }

    /**
     * A blocking socket, every read bounded by {@code timeoutMillis}: plain in clear text; over TLS handshaken, with
     * ALPN offering {@code protocol} alone ({@code h2}, {@code http/1.1}), which the server must have chosen (an
     * IOException says what it did instead). The JDK's own TLS (SSLParameters.setApplicationProtocols): h2-malformed
     * writes bytes no codec would, through it.
     */
    Socket socket(int timeoutMillis, String protocol) throws IOException {
        return dial(timeoutMillis, protocol).socket();
    }

    /**
     * {@link #socket}, and the TCP socket under it (the same one in clear text). Closing the TCP socket never waits:
     * an SSLSocket's own close first sends close_notify, which waits for the socket's lock, held by a write that
     * blocks because the server stopped reading (seen: h2-hpack-bomb over h2 on nima hung stress for minutes).
     */
    record Dialed(Socket socket, Socket tcp) {
    }

    Dialed dial(int timeoutMillis, String protocol) throws IOException {
        Socket plain = Raw.open(port, timeoutMillis);
        if (jdk == null) {
            return new Dialed(plain, plain);
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
                throw new IOException(H2Dial.handshakeFailed(authority(), e), e);
            }
            String chosen = s.getApplicationProtocol();
            if (!protocol.equals(chosen)) {
                throw new IOException(H2Dial.notChosen(authority(), chosen, protocol));
            }
            return new Dialed(s, plain);
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
}
