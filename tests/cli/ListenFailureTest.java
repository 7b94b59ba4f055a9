package cli;

import site.Server;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every server fails to listen the same way: one sentence that names the cause, no stack trace; exit 1 for a port
 * in use (the same command works later), exit 2 for an address that cannot work (bad input).
 */
class ListenFailureTest {

    static Stream<String> servers() {
        return Registry.SERVERS.stream().map(Server::id);
    }

    private static void oneSentence(CliTest.Run r, int code, String fragment, String server) {
        assertEquals(code, r.code(), server + ": " + r.err());
        assertEquals(1, r.err().lines().count(), server + ": " + r.err());
        assertTrue(r.err().startsWith("pssrbench: ") && r.err().contains(fragment), server + ": " + r.err());
        assertEquals("", r.out(), server);
    }

    @ParameterizedTest
    @MethodSource("servers")
    void aPortInUseExits1(String server) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            oneSentence(CliTest.run("--server=" + server, "--port=" + taken.getLocalPort()), 1, "already in use",
                    server);
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void aHostThatDoesNotResolveExits2(String server) {
        for (String port : new String[] {"0", "18089"}) {
            oneSentence(CliTest.run("--server=" + server, "--host=no-such-host.invalid", "--port=" + port), 2,
                    "does not resolve", server);
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void anAddressOfAnotherMachineExits2(String server) {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine; nothing is sent to it.
        for (String port : new String[] {"0", "18089"}) {
            oneSentence(CliTest.run("--server=" + server, "--host=192.0.2.1", "--port=" + port), 2,
                    "not an address of this machine", server);
        }
    }
}
