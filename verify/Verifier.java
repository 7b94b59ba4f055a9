package verify;

import core.Engine;
import core.Combination;
import core.Durations;
import core.Page;
import core.ServeConfig;
import core.Server;
import core.Site;
import core.Streaming;
import core.UsageException;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * TechEmpower-style verification, run before anything is measured: each combination is started on an ephemeral
 * loopback port with a large per-item delay, and both pages are fetched with a real HTTP/1.1 client and checked
 * for status and headers, byte identity with every engine's rendering, equality with the reference page,
 * well-formed HTML, progressive arrival, and identical bodies under concurrency.
 */
public final class Verifier {

    /** The in-memory renderings every served page must equal, computed (and cross-checked) once. */
    private final Map<Page, byte[]> expected = new java.util.LinkedHashMap<>();
    private final List<String> engineProblems = new ArrayList<>();
    /**
     * The smallest per-item delay at which progressive arrival can be told from noise. The tightest rule below is
     * the lag's: an item may arrive half a delay after it exists. Under 10 ms that is under 5 ms, which the
     * scheduling of a busy small machine alone exceeds; and the first-byte rule (a quarter of the items' time: 2.5
     * delays for the 10-item page) would allow 2.5 ms at 1 ms, inside the 1.6 to 4.3 ms first bytes that verify
     * measured on a 2-core machine (README).
     */
    public static final Duration MIN_DELAY = Duration.ofMillis(10);

    private final Duration delay;
    private final int concurrency;
    private final boolean progressive;

    /**
     * For servers started here, at a delay chosen to show streaming: at least {@link #MIN_DELAY}. {@code engines}:
     * every engine of the build, which must all render the same bytes (the served pages are compared with them).
     */
    public Verifier(List<Engine> engines, Duration delay, int concurrency) {
        this(engines, delay, concurrency, true);
        if (delay.compareTo(MIN_DELAY) < 0) {
            throw new UsageException("verify needs a --delay of at least " + Durations.format(MIN_DELAY)
                    + " to tell progressive pages apart.");
        }
    }

    /**
     * For a server that runs at its own {@code delay}: under {@link #MIN_DELAY} progressive arrival is not checked
     * (see {@link #checksProgressive()}), everything else is.
     */
    public static Verifier ofRunning(List<Engine> engines, Duration delay, int concurrency) {
        return new Verifier(engines, delay, concurrency, delay.compareTo(MIN_DELAY) >= 0);
    }

    private Verifier(List<Engine> engines, Duration delay, int concurrency, boolean progressive) {
        if (concurrency < 1) {
            throw new UsageException("--concurrency must be at least 1.");
        }
        this.delay = delay;
        this.concurrency = concurrency;
        this.progressive = progressive;
        Reference.renderAll(engines).forEach((page, byEngine) -> {
            var first = byEngine.entrySet().iterator().next();
            expected.put(page, first.getValue());
            byEngine.forEach((engine, bytes) -> {
                if (!Arrays.equals(bytes, first.getValue())) {
                    engineProblems.add(page.id() + ": engine " + engine.id() + " renders other bytes than "
                            + first.getKey().id() + " " + Reference.firstDifference(first.getValue(), bytes));
                }
            });
            Reference.check(page, new String(first.getValue(), java.nio.charset.StandardCharsets.UTF_8))
                    .forEach(p -> engineProblems.add(page.id() + ": " + p));
        });
        engineProblems.addAll(Reference.fragmentProblems(engines));
    }

    /** Whether progressive arrival is checked: only at a delay of at least {@link #MIN_DELAY}. */
    public boolean checksProgressive() {
        return progressive;
    }

    /** Why progressive arrival is not checked, in one sentence (for a verifier that does not check it). */
    public String whyNotProgressive() {
        return Durations.format(delay) + " per item, less than the " + Durations.format(MIN_DELAY) + " at which"
                + " streaming can be told from noise: progressive arrival is not checked, everything else is (start"
                + " the server with --delay=50ms to check it too).";
    }

    /** The verdict on one page of one combination. */
    /**
     * {@code lagMs}: the median over items of (when the item's markup had fully arrived) minus (when the item was
     * emitted, estimated from the head's arrival and the source's measured period): about 0 when each item goes
     * out as soon as it is rendered, one delay for an engine that reads one item ahead.
     */
    public record PageResult(Page page, double ttfbMs, double totalMs, int chunks, double lagMs,
                             List<String> problems) {
    }

    /** The verdict on one combination; {@link #ok()} only if every page passed. */
    public record Result(Combination combination, List<PageResult> pages, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty() && pages.stream().allMatch(p -> p.problems().isEmpty());
        }

        public List<String> allProblems() {
            List<String> all = new ArrayList<>(problems);
            pages.forEach(p -> p.problems().forEach(x -> all.add(p.page().id() + ": " + x)));
            return all;
        }
    }

    /** Starts the combination in this JVM on an ephemeral port, verifies it, stops it. */
    public Result verify(Combination combination) {
        ServeConfig config = ServeConfig.of(combination, delay);
        Site site = config.site();
        Server.Running running;
        try {
            running = combination.server().start(config.listen(), site);
        } catch (RuntimeException e) {
            site.close();
            return new Result(combination, List.of(), List.of("cannot start: " + e.getMessage()));
        }
        try {
            return verify(combination, URI.create(core.ListenAddress.url(config.host(), running.port())));
        } finally {
            running.close();
            site.close();
        }
    }

    /** Verifies a server that is already running at {@code base} (for example {@code http://127.0.0.1:8080}). */
    public Result verify(Combination combination, URI base) {
        List<String> problems = new ArrayList<>(engineProblems);
        List<PageResult> pages = new ArrayList<>();
        HttpClient client = TimedFetch.client();
        try {
            for (Page page : Page.values()) {
                pages.add(verifyPage(client, base.resolve(page.path()), page, combination));
            }
        } finally {
            client.shutdownNow();
        }
        return new Result(combination, pages, problems);
    }

    private PageResult verifyPage(HttpClient client, URI uri, Page page, Combination combination) {
        return verifyPage(client, uri, page, combination, true);
    }

    /**
     * {@code retry}: when the only problems are timing ones, measure once more. A stall of a busy machine (a
     * collection, another process) can delay one response's items by more than the rules allow; a combination that
     * really streams otherwise than it declares fails every measurement the same way.
     */
    private PageResult verifyPage(HttpClient client, URI uri, Page page, Combination combination, boolean retry) {
        List<String> problems = new ArrayList<>();
        byte[] want = expected.get(page);
        int items = page.items().size();
        double itemsMs = items * delay.toNanos() / 1e6;
        TimedFetch fetch;
        try {
            await(TimedFetch.get(client, uri), itemsMs);   // warm-up: class loading and JIT are not under test
            fetch = await(TimedFetch.get(client, uri), itemsMs);
        } catch (Exception e) {
            problems.add("GET " + uri.getPath() + " failed: " + describe(e));
            return new PageResult(page, Double.NaN, Double.NaN, 0, Double.NaN, problems);
        }
        checkResponse(fetch, want, problems);
        if (problems.isEmpty()) {
            Reference.check(page, new String(fetch.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .forEach(problems::add);
        }
        double ttfbMs = fetch.ttfbNanos() / 1e6;
        double totalMs = fetch.totalNanos() / 1e6;
        double spreadMs = (fetch.totalNanos() - fetch.ttfbNanos()) / 1e6;
        if (!progressive) {
            problems.addAll(concurrent(client, uri, want, itemsMs));
            return new PageResult(page, ttfbMs, totalMs, fetch.chunks(), Double.NaN, problems);
        }
        Streaming declared = combination.mode().streaming(combination.engine());
        if (declared.afterData()) {
            // Declared not to stream (the buffered mode, or an engine that collects its loop): checked as such,
            // so that a page sent after its data is never reported as progressive, nor failed for not being so.
            checkAfterData(fetch, combination, want, itemsMs, problems);
            if (retry && timingOnly(problems)) {
                return verifyPage(client, uri, page, combination, false);
            }
            problems.addAll(concurrent(client, uri, want, itemsMs));
            return new PageResult(page, ttfbMs, totalMs, fetch.chunks(), Double.NaN, problems);
        }
        // Progressive: the head must come before a quarter of the items could have been produced, and the body
        // must come in several pieces spread over at least half the time the items take.
        if (ttfbMs > itemsMs / 4) {
            problems.add(String.format(Locale.ROOT, "not progressive: first byte after %.1f ms, later than a"
                    + " quarter of the %.0f ms the %d items take", ttfbMs, itemsMs, items));
        }
        if (fetch.chunks() < items / 2) {
            problems.add("not progressive: the body arrived in " + fetch.chunks() + " pieces for " + items + " items");
        }
        if (spreadMs < itemsMs / 2) {
            problems.add(String.format(Locale.ROOT, "not progressive: the body arrived within %.1f ms, less than half"
                    + " of the %.0f ms the items take", spreadMs, itemsMs));
        }
        double lagMs = Double.NaN;
        if (problems.isEmpty()) {
            lagMs = medianLagMs(fetch, page.itemEnds(fetch.body()), items);
            int lookahead = declared.lookahead();
            double delayMs = delay.toNanos() / 1e6;
            double allowedMs = (lookahead + 0.5) * delayMs;
            if (lagMs > allowedMs) {
                problems.add(String.format(Locale.ROOT, "not progressive: items arrive %.1f ms after they exist"
                        + " (median), more than the %.1f ms that a lookahead of %d allows", lagMs, allowedMs,
                        lookahead));
            } else if (lookahead > 0 && lagMs < (lookahead - 0.5) * delayMs) {
                // A declaration that undersells the engine is wrong too: users read it to choose an engine.
                problems.add(String.format(Locale.ROOT, "items arrive %.1f ms after they exist (median), sooner"
                        + " than the declared lookahead of %d (%.0f ms): the engine's declaration is wrong", lagMs,
                        lookahead, lookahead * delayMs));
            }
        }
        if (retry && timingOnly(problems)) {
            return verifyPage(client, uri, page, combination, false);
        }
        problems.addAll(concurrent(client, uri, want, itemsMs));
        return new PageResult(page, ttfbMs, totalMs, fetch.chunks(), lagMs, problems);
    }

    /**
     * The median over items of (when the item's markup had fully arrived) minus (when the item was emitted,
     * estimated from the head's arrival and the source's measured period). The source's real period is a little
     * longer than the delay (each timer starts when the previous item is emitted); the last item's arrival
     * calibrates it, whatever the engine's lookahead, because the last item and the end of the data come together.
     */
    private static double medianLagMs(TimedFetch fetch, int[] ends, int items) {
        long[] arrivals = new long[items];
        for (int i = 0; i < items; i++) {
            arrivals[i] = fetch.arrivalOf(ends[i] - 1);
        }
        return medianLagNanos(fetch.ttfbNanos(), arrivals) / 1e6;
    }

    /**
     * The median lag in nanoseconds, from when the head arrived ({@code head}) and when each item's markup had
     * fully arrived ({@code arrivals}, in item order, on the same clock), as {@link #medianLagMs} explains: the
     * tests' renders without a server measure it the same way.
     */
    public static double medianLagNanos(long head, long[] arrivals) {
        int items = arrivals.length;
        double period = (arrivals[items - 1] - head) / (double) items;
        double[] lags = new double[items];
        for (int i = 0; i < items; i++) {
            lags[i] = arrivals[i] - head - (i + 1) * period;
        }
        Arrays.sort(lags);
        return lags[items / 2];
    }

    /**
     * A page declared to be sent after its data: its first byte must come after the last item could exist, the
     * whole body within one delay of it, and, when the mode sends it whole, with its exact {@code Content-Length}.
     */
    private void checkAfterData(TimedFetch fetch, Combination combination, byte[] want, double itemsMs,
                                List<String> problems) {
        double ttfbMs = fetch.ttfbNanos() / 1e6;
        double spreadMs = (fetch.totalNanos() - fetch.ttfbNanos()) / 1e6;
        double delayMs = delay.toNanos() / 1e6;
        if (ttfbMs < itemsMs - delayMs / 2) {
            problems.add(String.format(Locale.ROOT, "declared to send the page after its data, but the first byte"
                    + " came after %.1f ms, before the %.0f ms the items take", ttfbMs, itemsMs));
        }
        if (spreadMs > delayMs) {
            problems.add(String.format(Locale.ROOT, "declared to send the page after its data, but the body took"
                    + " %.1f ms after its first byte, more than one delay", spreadMs));
        }
        if (combination.mode().wholePage()) {
            String length = fetch.headers().firstValue("content-length").orElse("none");
            if (!length.equals(String.valueOf(want.length))) {
                problems.add("a page sent whole needs Content-Length " + want.length + ", got " + length);
            }
        }
    }

    /** Whether there are problems and all are about when bytes arrived (the prefixes the checks above use). */
    private static boolean timingOnly(List<String> problems) {
        return !problems.isEmpty() && problems.stream().allMatch(p -> p.startsWith("not progressive")
                || p.startsWith("declared to send") || p.startsWith("items arrive"));
    }

    private static void checkResponse(TimedFetch fetch, byte[] want, List<String> problems) {
        if (fetch.status() != 200) {
            problems.add("status " + fetch.status() + ", expected 200");
            return;
        }
        String type = fetch.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT)
                .replace(" ", "");
        if (!type.equals("text/html;charset=utf-8")) {   // Jetty writes it without the space
            problems.add("Content-Type '" + type + "', expected 'text/html; charset=utf-8'");
        }
        Optional<String> encoding = fetch.headers().firstValue("content-encoding");
        encoding.ifPresent(e -> problems.add("compressed (Content-Encoding " + e + "): compression defeats streaming"));
        if (!Arrays.equals(fetch.body(), want)) {
            problems.add("body differs from the engines' rendering " + Reference.firstDifference(want, fetch.body()));
        }
    }

    private List<String> concurrent(HttpClient client, URI uri, byte[] want, double itemsMs) {
        List<CompletableFuture<TimedFetch>> all = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            all.add(TimedFetch.get(client, uri));
        }
        int failed = 0;
        int wrong = 0;
        String example = null;
        for (CompletableFuture<TimedFetch> f : all) {
            try {
                TimedFetch fetch = await(f, itemsMs * Math.max(1, concurrency / 10.0));
                if (fetch.status() != 200 || !Arrays.equals(fetch.body(), want)) {
                    wrong++;
                    example = example != null ? example : "status " + fetch.status() + ", " + fetch.body().length
                            + " bytes";
                }
            } catch (Exception e) {
                failed++;
                example = example != null ? example : describe(e);
            }
        }
        if (failed + wrong == 0) {
            return List.of();
        }
        return List.of(concurrency + " concurrent requests: " + failed + " failed and " + wrong
                + " returned another body (e.g. " + example + ")");
    }

    private static TimedFetch await(CompletableFuture<TimedFetch> f, double itemsMs) throws Exception {
        try {
            return f.get(10_000 + (long) (itemsMs * 4), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException("no complete response in time");
        }
    }

    private static String describe(Throwable e) {
        return e instanceof java.io.IOException ? TimedFetch.why(e)
                : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
