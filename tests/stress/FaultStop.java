package stress;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;

/**
 * {@link FaultServer}'s stop on SIGTERM for the shutdown faults, as serve stops, so that only the fault fails the
 * shutdown scenario: the listener closed (new connections refused), a request after SIGTERM answered 503 (in
 * FaultServer), the pages in flight let finish for the grace period, then cut, without their last chunk, with one
 * warning naming them in serve's words; then exit 0. Each fault changes one step.
 */
final class FaultStop {

    private FaultStop() {
    }

    /**
     * On SIGTERM, stops {@code server} serving on {@code listener} within {@code grace}; the JVM then exits 0. The
     * stop's thread is not a daemon (a thread started from the signal's daemon thread would be one): once the
     * listener is closed the main thread ends, and a daemon stop would end with it, its pages cut, exit 0. A second
     * signal is ignored, as serve ignores it, so that the log holds one stop's lines.
     */
    static void onSigterm(FaultServer server, ServerSocket listener, Duration grace) {
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        harness.Signals.onTermination(() -> {
            if (once.compareAndSet(false, true)) {
                Thread.ofPlatform().daemon(false).name("fault-stop").start(() -> {
                    stop(server, listener, grace);
                    Runtime.getRuntime().halt(0);
                });
            }
        });
    }

    private static void stop(FaultServer server, ServerSocket listener, Duration grace) {
        server.stopping = true;
        if (server.has(FaultServer.Fault.WARNS_ON_STOP)) {
            log("stopping with " + server.paging.size() + " page(s) in flight");
        }
        if (!server.has(FaultServer.Fault.CUTS_NEW_CONNECTIONS)) {
            try {
                listener.close();
            } catch (IOException e) {
                // closed already
            }
        }
        long deadline = System.nanoTime() + grace.toNanos();
        while (server.inFlight.get() > 0 && System.nanoTime() < deadline) {
            sleep(10);
        }
        int left = server.inFlight.get();
        if (left > 0) {
            // serve's drain says it in these words (site's log), and the shutdown scenario reads them
            log(left + " page(s) still in flight after the " + base.Durations.format(grace)
                    + " grace period; cutting them");
            for (Socket s : server.paging) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closed already
                }
            }
        }
        System.err.flush();
    }

    /** A line at WARNING in the log (standard error), as serve's logger writes one. */
    private static void log(String message) {
        System.err.println(Instant.now() + " WARNING pssrbench: " + message);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
