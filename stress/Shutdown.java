package stress;

import core.Combination;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code shutdown} scenario: 64 keep-alive clients load the server with pages of about 0.4 s; 2 s in, SIGTERM.
 * Every response is classified: a complete page (200, terminator, the same body as every other), a page cut
 * without its last chunk, a complete page with a wrong body (a "complete" page that is not: must never happen),
 * 503, a connection closed before any response, or refused; the server must exit 0 within the grace period (plus
 * 2 s to stop) and log nothing at warning level.
 */
final class Shutdown {

    private static final int CLIENTS = 64;
    private static final Duration GRACE = Duration.ofSeconds(3);

    private Shutdown() {
    }

    static Outcome run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(c, s.folder(), "shutdown", "--delay=20ms",
                "--grace=" + GRACE.toSeconds() + "s")) {
            int port = server.port();
            Raw.Response reference = Raw.exchange(port, Raw.get("/stocks", port), 10_000);
            Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
            AtomicLong sigterm = new AtomicLong();
            long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();   // bound, whatever happens
            Thread[] clients = new Thread[CLIENTS];
            for (int i = 0; i < CLIENTS; i++) {
                clients[i] = Thread.ofVirtual().start(() -> load(port, reference, counts, sigterm, end));
            }
            Thread.sleep(2000);
            server.terminate();
            long t0 = System.nanoTime();
            sigterm.set(t0);
            int exit = server.awaitExit(GRACE.plusSeconds(10));
            double exitS = Scenarios.round((System.nanoTime() - t0) / 1e9);
            for (Thread t : clients) {
                t.join(Duration.ofSeconds(20));
            }
            Map<String, Object> f = new LinkedHashMap<>();
            for (String k : new String[] {"complete", "cut", "false_complete", "status_503", "closed_no_response",
                    "refused", "other"}) {
                f.put(k + "_before", counts.getOrDefault(k + "_before", new AtomicLong()).get());
                f.put(k + "_after", counts.getOrDefault(k + "_after", new AtomicLong()).get());
            }
            f.put("grace_s", GRACE.toSeconds());
            f.put("exit_code", exit);
            f.put("exit_after_s", exitS);
            long warnings = server.warnings();
            f.put("warning_lines", warnings);
            long falseComplete = (long) f.get("false_complete_before") + (long) f.get("false_complete_after");
            long other = (long) f.get("other_before") + (long) f.get("other_after");
            boolean pass = falseComplete == 0 && other == 0 && exit == 0 && warnings == 0
                    && exitS <= GRACE.toSeconds() + 2;
            return new Outcome("shutdown", c, f, "SIGTERM under load: no page ends complete unless it is; new"
                    + " requests get 503 or are refused; exit 0 within the " + GRACE.toSeconds() + " s grace + 2 s;"
                    + " no warning in the log", pass, "");
        }
    }

    /** One client: GET after GET on a keep-alive connection, reconnecting when it closes, until the server is gone. */
    private static void load(int port, Raw.Response reference, Map<String, AtomicLong> counts, AtomicLong sigterm,
                             long end) {
        Socket socket = null;
        try {
            while (System.nanoTime() < end) {
                long sent = System.nanoTime();
                if (socket == null) {
                    try {
                        socket = Raw.open(port, 10_000);
                    } catch (ConnectException e) {
                        count(counts, "refused", sent, sigterm);
                        if (sigterm.get() != 0) {
                            return;   // the server is gone
                        }
                        Thread.sleep(10);
                        continue;
                    }
                }
                try {
                    Raw.send(socket, Raw.get("/stocks", port));
                } catch (IOException e) {   // closed by the server meanwhile
                    count(counts, "closed_no_response", sent, sigterm);
                    socket.close();
                    socket = null;
                    continue;
                }
                Raw.Response r = Raw.read(socket);
                String kind;
                if (r.status() == 0) {
                    kind = "closed_no_response";
                } else if (r.status() == 503) {
                    kind = "status_503";
                } else if (r.status() == 200 && r.complete()) {
                    kind = r.bodyBytes() == reference.bodyBytes() && r.bodyCrc() == reference.bodyCrc()
                            ? "complete" : "false_complete";
                } else if (r.status() == 200) {
                    kind = "cut";
                } else {
                    kind = "other";
                }
                count(counts, kind, sent, sigterm);
                if (!r.complete() || r.status() == 503) {
                    socket.close();
                    socket = null;
                }
            }
        } catch (IOException e) {
            count(counts, "closed_no_response", System.nanoTime(), sigterm);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // done anyway
                }
            }
        }
    }

    private static void count(Map<String, AtomicLong> counts, String kind, long sent, AtomicLong sigterm) {
        long t = sigterm.get();
        String when = t != 0 && sent >= t ? "_after" : "_before";
        counts.computeIfAbsent(kind + when, k -> new AtomicLong()).incrementAndGet();
    }
}
