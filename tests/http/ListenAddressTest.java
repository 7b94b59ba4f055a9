package http;

import base.UsageException;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve's --host: the URLs it prints, the line saying the server is reachable from elsewhere, shorthands refused. */
class ListenAddressTest {

    @Test
    void urlsAreWellFormedForIpv6() {
        assertEquals("http://127.0.0.1:8080/", ListenAddress.url("127.0.0.1", 8080));
        assertEquals("http://[::1]:8080/", ListenAddress.url("::1", 8080));
        assertEquals("http://[::]:41389/", ListenAddress.url("::", 41389));
        assertEquals("http://[::1]:8080/", ListenAddress.url("[::1]", 8080));
        assertEquals("http://localhost:8080/", ListenAddress.url("localhost", 8080));
    }

    @Test
    void anythingButLoopbackIsSaidToBeReachableFromOtherMachines() {
        assertNull(ListenAddress.exposure("127.0.0.1"));
        assertNull(ListenAddress.exposure("::1"));
        assertNull(ListenAddress.exposure("localhost"));
        for (String every : new String[] {"0.0.0.0", "::"}) {
            String line = ListenAddress.exposure(every);
            assertTrue(line.startsWith("pssrbench: listening on every interface (" + every + ")"), line);
            assertTrue(line.endsWith("the server is reachable from other machines."), line);
            assertEquals(1, line.lines().count());
        }
        assertTrue(ListenAddress.exposure("192.0.2.1").contains("reachable from other machines"));
    }

    @Test
    void numericShorthandsAreRefused() {
        for (String host : new String[] {"0", "127.1", "2130706433", "0.0"}) {
            UsageException e = assertThrows(UsageException.class, () -> ListenAddress.check(host, 0));
            assertTrue(e.getMessage().contains("write it in full"), e.getMessage());
        }
        ListenAddress.check("127.0.0.1", 0);   // in full: fine
    }
}
