package modes;

import model.DataSource;
import model.Page;
import site.Combination;
import site.RawHttp;
import site.ServeConfig;
import site.Servers;

import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import static modes.MatrixTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MatrixTest's combinations when things go wrong: clients that hang up mid-page, a data source that fails mid-page.
 * A class of its own so that surefire can run it in one test JVM while MatrixTest's verifications run in the other
 * (pom.xml: two forks); each test here reads what its whole JVM holds (threads, the data source's subscriptions,
 * the pssrbench logger), and the classes of one fork run one after another, so nothing else runs beside it there.
 */
class MatrixFailuresTest {

    private static final int HANG_UPS = 100;

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes.MatrixTest#combinations")
    @ResourceLock(value = MatrixTest.JVM, mode = ResourceAccessMode.READ_WRITE)
    void clientsThatHangUpMidPageLeakNothing(Combination c) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // 1 ms per item: a page of 10 or 20 items still outlives the client, which hangs up within a millisecond of
        // the head; and a page sent whole (buffered, or an engine that collects its loop) can only be hung up on
        // once complete, so each of its requests waits for every item: at 2 ms that was 8 s a combination.
        try (Servers.Started server = Servers.start(c, Duration.ofMillis(1))) {
            for (int i = 0; i < 8; i++) {   // warm-up: lazily started event loops, carriers and timers
                for (Page page : Page.values()) {
                    RawHttp.readUntilClosed(server.port(), page.path());
                }
            }
            awaitTrue(() -> server.site().inFlight() == 0, "warm-up pages finish");
            int baseline = threads.getThreadCount();
            // 100 hang-ups: a leak per request leaves 100 of it behind, where the checks allow none; 200 cost CI's
            // unit tests about 30 s more over the 62 combinations.
            for (int i = 0; i < HANG_UPS; i++) {
                RawHttp.hangUpAfterFirstBytes(server.port(), Page.values()[i % 2].path());
            }
            awaitTrue(() -> server.site().inFlight() == 0, "every abandoned render stops");
            awaitTrue(() -> DataSource.activeSubscriptions() == 0, "every data-source subscription is disposed");
            awaitTrue(() -> threads.getThreadCount() <= baseline, "thread count back to " + baseline + " (now "
                    + threads.getThreadCount() + ")");
            String after = RawHttp.readUntilClosed(server.port(), "/stocks");
            assertTrue(after.startsWith("HTTP/1.1 200") && after.endsWith(c.mode().wholePage() ? "</html>"
                    : "\r\n0\r\n\r\n"), "still serving: " + after.substring(Math.max(0, after.length() - 80)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes.MatrixTest#combinations")
    @ResourceLock(value = MatrixTest.JVM, mode = ResourceAccessMode.READ_WRITE)
    void aDataSourceErrorMidPageAbortsTheResponseAndTheServerGoesOn(Combination c) throws Exception {
        ServeConfig config = ServeConfig.of(c, Duration.ofMillis(2)).withFailAfter(3);
        // The injected failure is logged once per page, as a real one would be: kept and checked here, not printed.
        try (RawHttp.Logged logged = RawHttp.Logged.quietly(Level.INFO);
             Servers.Started server = Servers.start(config)) {
            for (Page page : Page.values()) {
                String cut = RawHttp.readUntilClosed(server.port(), page.path());
                if (c.mode().wholePage()) {   // nothing was sent yet: a real error status instead of a cut page
                    assertTrue(cut.startsWith("HTTP/1.1 500"), cut);
                    assertFalse(cut.contains("</h1>"), "no part of the page");
                    continue;
                }
                if (c.mode().streaming(c.engine()).progressive()) {
                    assertTrue(cut.startsWith("HTTP/1.1 200"), cut);
                    assertTrue(cut.contains("</h1>"), "the head was sent");
                }   // else (an engine that collects its loop) nothing was written: a cut response or an error
                assertFalse(cut.endsWith("0\r\n\r\n"), "an aborted page must not end like a complete one");
                assertFalse(cut.contains("</html>"), "the tail must never be rendered");
            }
            awaitTrue(() -> server.site().inFlight() == 0, "failed renders end");
            String index = RawHttp.readUntilClosed(server.port(), "/");
            assertTrue(index.startsWith("HTTP/1.1 200"), "still serving: " + index);
            List<String> warnings = List.copyOf(logged.records);
            assertEquals(Page.values().length, warnings.size(), "one warning per failed page: " + warnings);
            for (String w : warnings) {
                assertTrue(w.startsWith("WARNING") && w.contains("injected data-source failure"), w);
            }
        }
    }
}
