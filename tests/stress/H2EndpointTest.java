package stress;

import http.Tls;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the HTTP/2 scenarios connect over h2, against a TLS server of this test on loopback (the JDK's, which speaks no
 * HTTP/2: only the handshake and the first bytes are looked at): once ALPN chose h2, Netty's client sends HTTP/2's
 * preface and h2-malformed's raw socket carries its bytes as written; a server that chooses anything else is refused
 * in a sentence naming what it chose; a certificate other than the server's own is not trusted.
 */
class H2EndpointTest {

    private static final Tls SERVER = Tls.selfSigned("127.0.0.1");

    @Test
    void onceAlpnChoseH2TheRawSocketCarriesTheBytesAsWritten() throws Exception {
        try (TlsServer server = new TlsServer(SERVER, "h2", "http/1.1");
             Socket s = H2Endpoint.tls(server.port(), SERVER).socket(5000, "h2")) {
            assertEquals("h2", ((SSLSocket) s).getApplicationProtocol());
            s.getOutputStream().write(H2Malformed.PREFACE);
            s.getOutputStream().flush();
            assertArrayEquals(H2Malformed.PREFACE, server.next());
        }
    }

    @Test
    void onceAlpnChoseH2NettysClientSendsTheHttp2Preface() throws Exception {
        EventLoopGroup group = H2Client.loop();
        try (TlsServer server = new TlsServer(SERVER, "h2");
             H2Client client = H2Client.open(group, H2Endpoint.tls(server.port(), SERVER))) {
            assertArrayEquals(H2Malformed.PREFACE, server.next(), "the preface, flushed once the codec was added");
            assertFalse(client.lost(), "the connection stays up");
        } finally {
            H2Client.stop(group);
        }
    }

    @Test
    void aServerThatDoesNotChooseH2IsRefusedInASentenceNamingWhatItChose() throws Exception {
        EventLoopGroup group = H2Client.loop();
        try (TlsServer http1 = new TlsServer(SERVER, "http/1.1"); TlsServer none = new TlsServer(SERVER)) {
            IOException e = assertThrows(IOException.class,
                    () -> H2Client.open(group, H2Endpoint.tls(http1.port(), SERVER)).close());
            assertEquals("ALPN at 127.0.0.1:" + http1.port() + " chose http/1.1, not h2: the server does not offer"
                    + " HTTP/2 over TLS there.", e.getMessage());
            // A server that ignores ALPN: the JDK's own socket sees no protocol chosen.
            e = assertThrows(IOException.class, () -> H2Endpoint.tls(none.port(), SERVER).socket(5000, "h2").close());
            assertEquals("ALPN at 127.0.0.1:" + none.port() + " chose no protocol, not h2: the server does not offer"
                    + " HTTP/2 over TLS there.", e.getMessage());
            e = assertThrows(IOException.class,
                    () -> H2Client.open(group, H2Endpoint.tls(none.port(), SERVER)).close());
            assertTrue(e.getMessage().startsWith("ALPN at 127.0.0.1:" + none.port() + " chose no protocol, not h2"),
                    e.getMessage());
        } finally {
            H2Client.stop(group);
        }
    }

    @Test
    void onlyTheServersOwnCertificateIsTrusted() throws Exception {
        Tls other = Tls.selfSigned("127.0.0.1");
        EventLoopGroup group = H2Client.loop();
        try (TlsServer server = new TlsServer(SERVER, "h2")) {
            String failed = "the TLS handshake with 127.0.0.1:" + server.port() + " failed: ";
            IOException e = assertThrows(IOException.class,
                    () -> H2Endpoint.tls(server.port(), other).socket(5000, "h2").close());
            assertTrue(e.getMessage().startsWith(failed), e.getMessage());
            e = assertThrows(IOException.class, () -> H2Client.open(group, H2Endpoint.tls(server.port(), other))
                    .close());
            assertTrue(e.getMessage().startsWith(failed), e.getMessage());
        } finally {
            H2Client.stop(group);
        }
    }

    /**
     * A TLS server on loopback for one test: presents {@code tls}, offers {@code alpn} (none: it ignores ALPN), and
     * hands over the first 24 bytes (the length of HTTP/2's preface) each connection sends after its handshake.
     */
    private static final class TlsServer implements AutoCloseable {
        private final SSLServerSocket socket;
        private final BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();

        TlsServer(Tls tls, String... alpn) throws IOException {
            socket = (SSLServerSocket) tls.serverContext().getServerSocketFactory().createServerSocket(0, 50,
                    InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon(true).name("h2-endpoint-test-server").start(() -> {
                while (!socket.isClosed()) {
                    try {
                        SSLSocket s = (SSLSocket) socket.accept();
                        Thread.ofVirtual().start(() -> serve(s, alpn));
                    } catch (IOException e) {
                        return;   // closed by the test
                    }
                }
            });
        }

        private void serve(SSLSocket s, String[] alpn) {
            try (s) {
                s.setSoTimeout(10_000);
                if (alpn.length > 0) {
                    SSLParameters p = s.getSSLParameters();
                    p.setApplicationProtocols(alpn);
                    s.setSSLParameters(p);
                }
                s.startHandshake();
                InputStream in = s.getInputStream();
                received.add(in.readNBytes(H2Malformed.PREFACE.length));
                while (in.read() >= 0) {
                    // until the client closes
                }
            } catch (IOException e) {
                // a handshake the client refused, or its close
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        /** The first bytes of the next connection that sent any, within 10 s (null: none came). */
        byte[] next() throws InterruptedException {
            return received.poll(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
