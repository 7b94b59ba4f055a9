package cli;

import http.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * browser --protocol: a list of what Chromium can load pages over (h2c is not: Chromium speaks HTTP/2 only over TLS),
 * each refused in one sentence before a browser is looked for; a server that does not speak one is left out of it.
 */
class BrowserProtocolTest {

    /** {@code args} exit 2 with one sentence holding {@code expected} (BrowserLighthouseTest's refusals too). */
    static void refused(String expected, String... args) {
        CliTest.Run r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one sentence: " + r.err());
        assertTrue(r.err().startsWith("pssrbench: ") && r.err().contains(expected), r.err());
    }

    @Test
    void whatChromiumCannotLoadOverOrNoSelectedServerSpeaksIsRefused() {
        refused("--protocol takes h1, h1s or h2 for browser: Chromium does not speak HTTP/2 in clear text (h2c).",
                "browser", "--protocol=h1,h2c");
        refused("--protocol must be one of h1, h1s, h2c, h2, not h3.", "browser", "--protocol=h3");
        refused("--protocol=h2 is not available with server jdk, which speaks h1; the servers that speak it: ",
                "browser", "--server=jdk", "--engine=jstachio", "--protocol=h1,h2");
        refused("a --target is loaded over its own http:// URL: leave out --protocol.", "browser",
                "--target=http://127.0.0.1:9/", "--protocol=h2");
    }

    @Test
    void aServerThatDoesNotSpeakAProtocolIsLeftOutOfIt() {
        List<site.Combination> chosen = Registry.select(List.of("jdk", "nima"), List.of("jstachio"),
                List.of("virtual"));
        assertEquals(List.of("jdk left out over h2, which it does not speak"),
                BrowserCommand.speaking(chosen, List.of(Protocol.H1, Protocol.H2)));
        assertEquals(List.of(), BrowserCommand.speaking(chosen, List.of(Protocol.H1)));
        assertEquals(List.of(Protocol.H2, Protocol.H1), BrowserCommand.parseProtocols(List.of("h2", "h1", "h2")),
                "in the order asked, once each");
    }
}
