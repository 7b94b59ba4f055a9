package stress;

import base.Durations;
import model.Page;
import site.Combination;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@code shutdown} scenario, second part: pages that outlive the grace period. A server JVM of its own with a
 * 1 s grace and 250 ms per item, so that a page lasts 5 s; a few clients each GET /stocks, and once every page is
 * being rendered (the server's in-flight count, over JMX), SIGTERM. The first part ({@link Shutdown}) only sees
 * pages that finish within the grace; here none can. Every page must end cut, without its last chunk (a page that
 * ends complete, whatever its body, was not cut at the end of the grace), the server must exit 0 within the grace
 * + 2 s, and the only warning in its log must be the drain's line announcing the cut, naming all the pages.
 */
final class ShutdownCut {

    private static final Duration GRACE = Duration.ofSeconds(1);
    private static final Duration DELAY = Duration.ofMillis(250);

    static final String RULE = "Pages that outlive the grace (" + Durations.format(GRACE) + " grace, "
            + Durations.format(DELAY.multipliedBy(Page.STOCKS.items().size())) + " pages, SIGTERM with all in"
            + " flight): every one ends cut without its last chunk; exit 0 within the grace + 2 s; the log's only"
            + " warning is the drain's line announcing the cut of them all.";

    /** The second part's rule, on its figures (the overrun_ ones of the shutdown row). */
    static boolean passes(Scenario.Figures f) {
        long pages = f.count("overrun_pages");
        return f.count("overrun_in_flight") == pages && f.count("overrun_cut") == pages
                && f.count("overrun_exit_code") == 0
                && f.num("overrun_exit_after_s") <= f.num("overrun_grace_s") + 2 && f.yes("overrun_announced");
    }

    record Result(Map<String, Object> figures, String note) {
    }

    private record Ended(Raw.Response response, long endNanos) {
    }

    private ShutdownCut() {
    }

    static Result run(Combination c, StressSettings s, int pages) throws IOException, InterruptedException {
        Map<String, Object> f = new LinkedHashMap<>();
        try (StressServer server = StressServer.start(StressServer.config(c).withDelay(DELAY).withGrace(GRACE),
                s, "shutdown-cut")) {
            int port = server.port();
            List<CompletableFuture<Ended>> responses = new ArrayList<>();
            for (int i = 0; i < pages; i++) {
                CompletableFuture<Ended> ended = new CompletableFuture<>();
                Thread.ofVirtual().start(() -> ended.complete(page(port)));
                responses.add(ended);
            }
            int inFlight = awaitInFlight(server, pages);
            server.terminate();
            long t0 = System.nanoTime();
            int exit = server.awaitExit(GRACE.plusSeconds(10));
            double exitS = Scenario.round((System.nanoTime() - t0) / 1e9);
            long cut = 0;
            long complete = 0;
            long noResponse = 0;
            long other = 0;
            double lastEndS = 0;
            for (CompletableFuture<Ended> e : responses) {
                Ended ended;
                try {
                    ended = e.get(15, TimeUnit.SECONDS);   // each read is bounded by its socket timeout
                } catch (java.util.concurrent.ExecutionException | TimeoutException x) {
                    other++;
                    continue;
                }
                Raw.Response r = ended.response();
                lastEndS = Math.max(lastEndS, (ended.endNanos() - t0) / 1e9);
                if (r.status() == 200 && r.complete()) {
                    complete++;
                } else if (r.status() == 200) {
                    cut++;
                } else if (r.status() == 0) {
                    noResponse++;
                } else {
                    other++;
                }
            }
            List<String> warnings = server.warningLines();
            String announcement = "WARNING pssrbench: " + pages + " page(s) still in flight after the "
                    + Durations.format(GRACE) + " grace period; cutting them";
            boolean announced = warnings.size() == 1 && warnings.get(0).endsWith(announcement);
            f.put("overrun_pages", pages);
            f.put("overrun_page_s", DELAY.multipliedBy(Page.STOCKS.items().size()).toMillis() / 1000.0);
            f.put("overrun_grace_s", GRACE.toMillis() / 1000.0);
            f.put("overrun_in_flight", server.overJmx(inFlight));
            f.put("overrun_cut", cut);
            f.put("overrun_complete", complete);
            f.put("overrun_no_response", noResponse);
            f.put("overrun_other", other);
            f.put("overrun_last_end_s", Scenario.round(lastEndS));
            f.put("overrun_exit_code", exit);
            f.put("overrun_exit_after_s", exitS);
            f.put("overrun_warning_lines", warnings.size());
            f.put("overrun_announced", announced);
            String note = "";
            if (complete > 0) {
                note += complete + " page(s) ended complete. ";
            }
            if (inFlight >= 0 && inFlight != pages) {   // -1: not read, which the rule's note says
                note += "pages in flight at SIGTERM: " + inFlight + " of " + pages + ". ";
            }
            if (!announced) {
                note += "expected one warning, \"" + announcement + "\"; got " + warnings + ". ";
            }
            return new Result(f, note);
        }
    }

    /** One GET of /stocks on a connection of its own, read to its end or until the connection closes. */
    private static Ended page(int port) {
        return new Ended(Raw.exchange(port, Raw.get("/stocks", port), 15_000), System.nanoTime());
    }

    /**
     * Waits (up to 10 s) until the server renders {@code pages} pages; returns how many it renders then. Without JMX
     * (-1) it cannot tell: it gives the requests a second to arrive (a page lasts 5), so that the rest of the run
     * still says something, and returns -1, on which the rule fails as not read.
     */
    private static int awaitInFlight(StressServer server, int pages) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int now;
        while ((now = server.renders()[0]) < pages && System.nanoTime() < deadline) {
            if (now < 0) {
                Thread.sleep(1000);
                return now;
            }
            Thread.sleep(20);
        }
        return now;
    }
}
