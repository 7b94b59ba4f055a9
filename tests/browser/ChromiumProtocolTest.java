package browser;

import http.Protocol;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The protocol a page must come over, as Chromium names it (PerformanceNavigationTiming.nextHopProtocol), and the one
 * sentence a load gets when it came over another: a browser or server that fell back to HTTP/1.1 is not measured as
 * HTTP/2.
 */
class ChromiumProtocolTest {

    @Test
    void eachProtocolBrowserLoadsOverHasTheNameChromiumReports() {
        assertEquals("http/1.1", Chromium.nextHop(Protocol.H1));
        assertEquals("http/1.1", Chromium.nextHop(Protocol.H1S));
        assertEquals("h2", Chromium.nextHop(Protocol.H2));
        assertThrows(IllegalArgumentException.class, () -> Chromium.nextHop(Protocol.H2C),
                "Chromium does not speak h2c: it would load the port over HTTP/1.1");
        BrowserBench.PROTOCOLS.forEach(Chromium::nextHop);   // each that browser offers has a name (or this throws)
    }

    @Test
    void aPageThatCameOverAnotherProtocolDoesNotCount() {
        assertNull(Chromium.protocolProblem("h2", "h2"));
        assertEquals("the page came over http/1.1, not h2", Chromium.protocolProblem("http/1.1", "h2"));
        assertEquals("the page came over h2, not http/1.1", Chromium.protocolProblem("h2", "http/1.1"));
        assertEquals("the page came over a protocol the browser did not report, not h2",
                Chromium.protocolProblem("", "h2"));
    }
}
