package stress;

import http.Tls;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The attacking connection against a server that stops reading, where its writes block. */
class H2AttackerTest {

    private static final Tls SERVER = Tls.selfSigned("127.0.0.1");

    /**
     * Over TLS, a write blocked on a server that stopped reading holds the SSLSocket's lock, and the SSLSocket's own
     * close waits for that lock to send close_notify: the attacker hung for minutes on nima's h2-hpack-bomb over h2
     * (2026-11-28) until the TCP socket under it was what its watchdog closes. Here a TLS server that answers the
     * preface, then reads nothing: the flood ends within its time and the watchdog's, and says the server stopped
     * reading.
     */
    @Test
    void aFloodOverTlsThatTheServerStopsReadingEndsInTime() throws Exception {
        try (SSLServerSocket listening = (SSLServerSocket) SERVER.serverContext().getServerSocketFactory()
                .createServerSocket()) {
            // What the flood can write before it blocks is the attacker's send buffer (up to 4 MB here) and this
            // receive buffer (128 KB by default): a 1 s flood on a loaded machine wrote 3.3 MB and never blocked
            // (CI, 2026-11-28). A small buffer and a 3 s flood block however slowly the attacker writes.
            listening.setReceiveBufferSize(4096);
            listening.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            Thread server = Thread.ofPlatform().daemon(true).name("h2-attacker-test-server").start(() -> {
                try (SSLSocket s = (SSLSocket) listening.accept()) {
                    SSLParameters p = s.getSSLParameters();
                    p.setApplicationProtocols(new String[] {"h2"});
                    s.setSSLParameters(p);
                    s.startHandshake();
                    OutputStream out = s.getOutputStream();
                    out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});   // an empty SETTINGS: the server's preface
                    out.flush();
                    Thread.sleep(60_000);   // and nothing read from here on; the test's end interrupts it
                } catch (Exception e) {
                    // the test is over
                }
            });
            try {
                H2Attacker.Result r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> H2Attacker.run(
                        H2Endpoint.tls(listening.getLocalPort(), SERVER), H2Attacks.PING_FLOOD,
                        Duration.ofSeconds(3)));
                assertEquals("stopped reading", r.cut(), r.toString());
            } finally {
                server.interrupt();
            }
        }
    }
}
