package bench;

import cli.Registry;
import harness.Kernel;
import model.Page;
import site.Combination;
import tables.Row;
import verify.Reference;

import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A point's listen_drops: what the kernel's counter gives, and where bench leaves the column empty. */
class PointMeasurementTest {

    @Test
    void listenDropsAreTheCountersDifferenceWhereItIsKnown() {
        assertEquals(3L, PointMeasurement.listenDrops(10, 13, true));
        assertEquals(0L, PointMeasurement.listenDrops(10, 10, true), "none dropped is a count, not unknown");
        assertNull(PointMeasurement.listenDrops(-1, -1, true), "no /proc/net/netstat");
        assertNull(PointMeasurement.listenDrops(10, -1, true), "unreadable at the end: not a negative count");
        assertNull(PointMeasurement.listenDrops(10, 5, true), "a counter that went back is not this point's");
        assertNull(PointMeasurement.listenDrops(10, 13, false), "another machine's kernel is not this one");
    }

    @Test
    void aServerOnThisMachineIsOneAtALoopbackOrLocalAddress() throws Exception {
        assertTrue(PointMeasurement.onThisMachine(URI.create("http://127.0.0.1:8080/")));
        assertTrue(PointMeasurement.onThisMachine(URI.create("http://localhost/")));
        assertTrue(PointMeasurement.onThisMachine(URI.create("http://[::1]:8080/")));
        // TEST-NET-1 (RFC 5737): documentation only, never a host's address.
        assertFalse(PointMeasurement.onThisMachine(URI.create("http://192.0.2.1:8080/")));
        for (NetworkInterface n : NetworkInterface.networkInterfaces().toList()) {
            for (InetAddress a : n.inetAddresses().filter(a -> a instanceof java.net.Inet4Address).toList()) {
                assertTrue(PointMeasurement.onThisMachine(URI.create("http://" + a.getHostAddress() + ":80/")),
                        a + " of " + n.getName());
            }
        }
    }

    /**
     * A point measured against a server started elsewhere on this machine (as --target): its row has listen_drops
     * as a count, and the histograms are written.
     */
    @Test
    void aMeasuredPointHasItsListenDrops(@TempDir Path out) throws Exception {
        assumeTrue(Kernel.listenDrops() >= 0, "no /proc/net/netstat TcpExt ListenDrops here");
        Combination c = Registry.combinations().get(0);
        byte[] body = Reference.renderAll(List.of(c.engine())).get(Page.STOCKS).get(c.engine());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        try {
            Files.createDirectories(out.resolve("hgrm"));
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            PointMeasurement m = new PointMeasurement(Duration.ofMillis(100), null, Duration.ofMillis(300), 1, false,
                    out);
            Point p = new Point(c, Page.STOCKS, 2, 0);
            Row row = m.measure(base, null, p, body, Double.NaN, () -> false, p.name() + "-rep1");
            assertTrue(row.valid(), row.note());
            assertNotNull(row.listenDrops(), "the server is on this machine and /proc is readable");
            assertTrue(row.listenDrops() >= 0, row.listenDrops().toString());
            assertTrue(Files.isRegularFile(out.resolve("hgrm/" + p.name() + "-rep1.ttlb.hgrm")));
            assertNull(row.foreignCpu(), "a server started elsewhere: its CPU is not told from the machine's");
            assertNotNull(row.stealPct(), "/proc/stat is readable");
        } finally {
            server.stop(0);
        }
    }
}
