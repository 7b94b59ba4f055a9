package servers;

import cli.Registry;
import site.Combination;
import site.RawHttp;
import site.Server;
import site.Servers;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Server.Running#stopAccepting} on every server, as {@code serve} calls it at SIGTERM: with a page in flight
 * on one connection and another connection idle between two requests, a new connection is refused, the idle one
 * still gets its next response, and the page completes. A server that declares it cannot
 * ({@link Server#stopsAcceptingAlone}) says so by throwing.
 */
class StopAcceptingTest {

    static Stream<String> servers() {
        return Registry.SERVERS.stream().map(Server::id);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void newConnectionsAreRefusedWhileTheOpenOnesGoOn(String server) throws Exception {
        Combination c = new Combination(Registry.server(server), Registry.ENGINES.get(0), Registry.MODES.get(0));
        try (Servers.Started s = Servers.start(c, Duration.ofMillis(50));   // a page: 20 items x 50 ms
             Wire idle = new Wire(s.port());
             RawHttp.Exchange page = new RawHttp.Exchange(s.port(), "/stocks")) {
            assertEquals(200, idle.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").read(false).status());
            assertTrue(page.firstBytes().startsWith("HTTP/1.1 200"), server);
            if (!c.server().stopsAcceptingAlone()) {
                assertThrows(UnsupportedOperationException.class, s.running()::stopAccepting, server);
                return;
            }
            int port = s.port();   // Jetty forgets it once the listener is closed
            s.running().stopAccepting();
            assertThrows(ConnectException.class, () -> connect(port), server + ": a new connection is refused");
            assertEquals(200, idle.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").read(false).status(),
                    server + ": the idle connection still serves its next request");
            String rest = page.rest();
            assertTrue(rest.endsWith("</html>\r\n0\r\n\r\n"), server + ": the page in flight completes, got ..."
                    + rest.substring(Math.max(0, rest.length() - 80)));
            s.running().stopAccepting();   // idempotent
        }
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }
}
