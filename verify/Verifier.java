package verify;

import base.Durations;
import base.UsageException;
import http.Protocol;
import model.Engine;
import model.Page;
import model.Streaming;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Site;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * TechEmpower-style verification, run before anything is measured: each combination is started on an ephemeral
 * loopback port with a large per-item delay, and both pages are fetched with a client that really speaks the
 * protocol under test ({@link Fetcher}: HTTP/1.1, HTTP/1.1 over TLS, h2c by prior knowledge, h2 by ALPN) and
 * checked for the protocol the response came back on, status and headers, byte identity with every engine's
 * rendering, equality with the reference page, well-formed HTML, progressive arrival, and identical bodies under
 * concurrency.
 */
public final class Verifier {

    /** The in-memory renderings every served page must equal, computed (and cross-checked) once. */
    private final Map<Page, byte[]> expected = new java.util.LinkedHashMap<>();
    /** The in-memory checks of every engine, made once: part of every combination's result. */
    private final List<Check> engineChecks;
    /**
     * The smallest per-item delay at which progressive arrival can be told from noise. The tightest rule below is
     * the lag's: an item may arrive half a delay after it exists. Under 10 ms that is under 5 ms, which the
     * scheduling of a busy small machine alone exceeds; and the first-byte rule (a quarter of the items' time: 2.5
     * delays for the 10-item page) would allow 2.5 ms at 1 ms, inside the 1.6 to 4.3 ms first bytes that verify
     * measured on a 2-core machine (docs/commands.md, "verify").
     */
    public static final Duration MIN_DELAY = Duration.ofMillis(10);
    /**
     * verify's --delay as written, for the servers it starts: well above {@link #MIN_DELAY}, so that progressive
     * arrival stands out from noise. Not serve's default ({@link site.ServeConfig#DEFAULT_DELAY}) on purpose.
     */
    public static final String DEFAULT_DELAY_TEXT = "50ms";

    private final Duration delay;
    private final int concurrency;
    private final boolean progressive;
    private final Protocol protocol;

    /**
     * For servers started here, at a delay chosen to show streaming: at least {@link #MIN_DELAY}. {@code engines}:
     * every engine of the build, which must all render the same bytes (the served pages are compared with them).
     */
    public Verifier(List<Engine> engines, Duration delay, int concurrency) {
        this(engines, delay, concurrency, ServeConfig.DEFAULT_PROTOCOL);
    }

    /** The same, the servers started here speaking {@code protocol}, and fetched over it. */
    public Verifier(List<Engine> engines, Duration delay, int concurrency, Protocol protocol) {
        this(engines, delay, concurrency, true, protocol);
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
        return ofRunning(engines, delay, concurrency, ServeConfig.DEFAULT_PROTOCOL);
    }

    /** The same for a server that speaks {@code protocol} (its /info.json says which). */
    public static Verifier ofRunning(List<Engine> engines, Duration delay, int concurrency, Protocol protocol) {
        return new Verifier(engines, delay, concurrency, delay.compareTo(MIN_DELAY) >= 0, protocol);
    }

    private Verifier(List<Engine> engines, Duration delay, int concurrency, boolean progressive, Protocol protocol) {
        if (concurrency < 1) {
            throw new UsageException("--concurrency must be at least 1.");
        }
        this.delay = delay;
        this.concurrency = concurrency;
        this.progressive = progressive;
        this.protocol = protocol;
        Verdicts v = new Verdicts();
        Reference.renderAll(engines).forEach((page, byEngine) -> {
            var first = byEngine.entrySet().iterator().next();
            expected.put(page, first.getValue());
            byEngine.forEach((engine, bytes) -> {
                if (!Arrays.equals(bytes, first.getValue())) {
                    v.fail(Check.Name.ENGINES, page.id() + ": engine " + engine.id() + " renders other bytes than "
                            + first.getKey().id() + " " + Reference.firstDifference(first.getValue(), bytes));
                }
            });
            Reference.check(page, new String(first.getValue(), java.nio.charset.StandardCharsets.UTF_8))
                    .forEach(p -> v.fail(Check.Name.ENGINES, page.id() + ": " + p));
        });
        Reference.fragmentProblems(engines).forEach(p -> v.fail(Check.Name.ENGINES, p));
        v.checked(Check.Name.ENGINES);
        engineChecks = v.list();
    }

    /** Whether progressive arrival is checked: only at a delay of at least {@link #MIN_DELAY}. */
    public boolean checksProgressive() {
        return progressive;
    }

    /** Why progressive arrival is not checked, in one sentence (for a verifier that does not check it). */
    public String whyNotProgressive() {
        return Durations.format(delay) + " per item, less than the " + Durations.format(MIN_DELAY) + " at which"
                + " streaming can be told from noise: progressive arrival is not checked, everything else is (start"
                + " the server with --delay=" + DEFAULT_DELAY_TEXT + " to check it too).";
    }

    /**
     * The verdict on one page of one combination: every check made, passed, warned or failed. {@code lagMs}: the
     * median over items of (when the item's markup had fully arrived) minus (when the item was emitted, estimated
     * from the head's arrival and the source's measured period): about 0 when each item goes out as soon as it is
     * rendered, one delay for an engine that reads one item ahead.
     */
    public record PageResult(Page page, double ttfbMs, double totalMs, int chunks, double lagMs, List<Check> checks) {
        public PageResult {
            checks = List.copyOf(checks);
        }

        public Check.Status status() {
            return checks.stream().map(Check::status).reduce(Check.Status.PASS, Check::worst);
        }
    }

    /**
     * The verdict on one combination: its own checks (the engines', the start) and each page's. It passes unless a
     * check failed; warnings are said but pass.
     */
    public record Result(Combination combination, List<PageResult> pages, List<Check> checks) {
        public Result {
            pages = List.copyOf(pages);
            checks = List.copyOf(checks);
        }

        public Check.Status status() {
            return pages.stream().map(PageResult::status).reduce(checks.stream().map(Check::status)
                    .reduce(Check.Status.PASS, Check::worst), Check::worst);
        }

        public boolean ok() {
            return status() != Check.Status.FAIL;
        }

        /** The failed checks' messages, each page's prefixed with its id. */
        public List<String> allProblems() {
            return messages(Check.Status.FAIL);
        }

        /** The warnings' messages, each page's prefixed with its id. */
        public List<String> warnings() {
            return messages(Check.Status.WARN);
        }

        private List<String> messages(Check.Status status) {
            List<String> all = new ArrayList<>();
            checks.stream().filter(c -> c.status() == status).forEach(c -> all.add(c.message()));
            pages.forEach(p -> p.checks().stream().filter(c -> c.status() == status)
                    .forEach(c -> all.add(p.page().id() + ": " + c.message())));
            return all;
        }
    }

    /** Starts the combination in this JVM on an ephemeral port, verifies it, stops it. */
    public Result verify(Combination combination) {
        ServeConfig config = ServeConfig.of(combination, delay).withProtocol(protocol);
        Site site = config.site();
        Server.Running running;
        Server.Listen listen;
        try {
            listen = config.listen();   // over TLS, a new self-signed certificate, which the client trusts alone
            running = combination.server().start(listen, site);
        } catch (RuntimeException e) {
            site.close();
            return new Result(combination, List.of(), List.of(Check.fail(Check.Name.START,
                    "cannot start: " + e.getMessage())));
        }
        try {
            return verify(combination, URI.create(http.ListenAddress.url(protocol.scheme(), config.host(),
                    running.port())), Fetchers.of(protocol, listen.tls() == null ? null : listen.tls().trustingContext()));
        } finally {
            running.close();
            site.close();
        }
    }

    /** Verifies a server that is already running at {@code base} (for example {@code http://127.0.0.1:8080}). */
    public Result verify(Combination combination, URI base) {
        return verify(combination, base, Fetchers.of(protocol, null));
    }

    /**
     * Verifies the server at {@code base} through {@code client}, which this closes: each response must come back
     * on {@link Fetcher#version()}.
     */
    public Result verify(Combination combination, URI base, Fetcher client) {
        List<PageResult> pages = new ArrayList<>();
        try {
            for (Page page : Page.values()) {
                pages.add(verifyPage(client, base.resolve(page.path()), page, combination, true));
            }
        } finally {
            client.close();
        }
        return new Result(combination, pages, engineChecks);
    }

    /**
     * {@code retry}: when the only failures are timing ones, measure once more. A stall of a busy machine (a
     * collection, another process) can delay one response's items by more than the rules allow; a combination that
     * really streams otherwise than it declares fails every measurement the same way. Failures that the second
     * measurement clears are kept as warnings.
     */
    private PageResult verifyPage(Fetcher client, URI uri, Page page, Combination combination, boolean retry) {
        Verdicts v = new Verdicts();
        byte[] want = expected.get(page);
        int items = page.items().size();
        double itemsMs = items * delay.toNanos() / 1e6;
        TimedFetch fetch;
        try {
            // warm-up: class loading and JIT are not under test
            TimedFetch.await(client.get(uri), itemsMs);
            fetch = TimedFetch.await(client.get(uri), itemsMs);
        } catch (Exception e) {
            v.fail(Check.Name.FETCH, "GET " + uri.getPath() + " failed: " + TimedFetch.describe(e));
            return new PageResult(page, Double.NaN, Double.NaN, 0, Double.NaN, v.list());
        }
        v.checked(Check.Name.FETCH);
        if (!fetch.version().equals(client.version())) {
            v.fail(Check.Name.PROTOCOL, "the response came on " + fetch.version() + ", not " + client.version());
        }
        v.checked(Check.Name.PROTOCOL);
        checkResponse(fetch, want, v);
        if (!v.failed()) {
            Reference.check(page, new String(fetch.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .forEach(p -> v.fail(Check.Name.REFERENCE, p));
            v.checked(Check.Name.REFERENCE);
        }
        double ttfbMs = fetch.ttfbNanos() / 1e6;
        double totalMs = fetch.totalNanos() / 1e6;
        double lagMs = Double.NaN;
        if (progressive) {
            Streaming declared = combination.mode().streaming(combination.engine());
            if (declared.afterData()) {
                // Declared not to stream (the buffered mode, or an engine that collects its loop): checked as such,
                // so that a page sent after its data is never reported as progressive, nor failed for not being so.
                Arrival.checkAfterData(fetch, combination, want, delay, items, v);
            } else {
                lagMs = Arrival.checkProgressive(fetch, page, declared, delay, v);
            }
            if (retry && v.failedOnTimingOnly()) {
                PageResult again = verifyPage(client, uri, page, combination, false);
                if (again.status() == Check.Status.FAIL) {
                    return again;
                }
                List<Check> checks = new ArrayList<>(again.checks());
                v.failures().forEach(f -> checks.add(Check.warn(f.name(), f.message() + " (the first measurement;"
                        + " the second passed)")));
                return new PageResult(page, again.ttfbMs(), again.totalMs(), again.chunks(), again.lagMs(), checks);
            }
        }
        concurrent(client, uri, want, itemsMs, v);
        return new PageResult(page, ttfbMs, totalMs, fetch.chunks(), lagMs, v.list());
    }

    private static void checkResponse(TimedFetch fetch, byte[] want, Verdicts v) {
        if (fetch.status() != 200) {
            v.fail(Check.Name.STATUS, "status " + fetch.status() + ", expected 200");
            return;
        }
        v.checked(Check.Name.STATUS);
        String type = fetch.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT)
                .replace(" ", "");
        if (!type.equals("text/html;charset=utf-8")) {   // Jetty writes it without the space
            v.fail(Check.Name.CONTENT_TYPE, "Content-Type '" + type + "', expected 'text/html; charset=utf-8'");
        }
        Optional<String> encoding = fetch.headers().firstValue("content-encoding");
        encoding.ifPresent(e -> v.fail(Check.Name.ENCODING, "compressed (Content-Encoding " + e + "): compression"
                + " defeats streaming"));
        if (!Arrays.equals(fetch.body(), want)) {
            v.fail(Check.Name.BODY, "body differs from the engines' rendering "
                    + Reference.firstDifference(want, fetch.body()));
        }
        v.checked(Check.Name.CONTENT_TYPE, Check.Name.ENCODING, Check.Name.BODY);
    }

    private void concurrent(Fetcher client, URI uri, byte[] want, double itemsMs, Verdicts v) {
        List<CompletableFuture<TimedFetch>> all = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            all.add(client.get(uri));
        }
        int failed = 0;
        int wrong = 0;
        String example = null;
        for (CompletableFuture<TimedFetch> f : all) {
            try {
                TimedFetch fetch = TimedFetch.await(f, itemsMs * Math.max(1, concurrency / 10.0));
                if (fetch.status() != 200 || !Arrays.equals(fetch.body(), want)
                        || !fetch.version().equals(client.version())) {
                    wrong++;
                    example = example != null ? example : "status " + fetch.status() + ", " + fetch.body().length
                            + " bytes over " + fetch.version();
                }
            } catch (Exception e) {
                failed++;
                example = example != null ? example : TimedFetch.describe(e);
            }
        }
        if (failed + wrong > 0) {
            v.fail(Check.Name.CONCURRENCY, concurrency + " concurrent requests: " + failed + " failed and " + wrong
                    + " returned another body (e.g. " + example + ")");
        }
        v.checked(Check.Name.CONCURRENCY);
    }
}
