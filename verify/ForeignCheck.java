package verify;

import base.Durations;
import model.Page;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The checks of a foreign app (a server that is not a PssrBench serve, {@code --target} with {@code --label}): its
 * page must answer 200 with a body that ends, equal to the published reference page under the published
 * normalisation ({@link Reference#normalise}: not byte-identical, a foreign app lays out whitespace its own way),
 * and whether it arrives progressively is measured and reported, not assumed. Both verify and bench use it, bench
 * as the guard that refuses to measure a target that would give figures of something else (another page, an error
 * page, a body that never ends).
 */
public final class ForeignCheck {

    /**
     * The longest a page may take, beyond four times its items' time: a cold JVM's first request (class loading,
     * JIT) took about a second for the study's Spring apps; a body still open after this is taken as never ending.
     */
    static final Duration SLACK = Duration.ofSeconds(3);
    /** A body this many times the reference page's length has not ended as a page would. */
    static final int MAX_SIZE_FACTOR = 8;

    private ForeignCheck() {
    }

    /**
     * One page of a foreign app, as measured. {@code problem}: why it must not be measured (null: it may);
     * {@code progressive}: whether the items arrived spread over the page's time (null: not told, at a delay under
     * {@link Verifier#MIN_DELAY} or on a failed page); {@code firstItemEnd}: the byte offset where the first item's
     * markup ends, found by the page's own markup (-1 on a failed page).
     */
    public record PageResult(Page<?> page, URI uri, int status, byte[] body, double ttfbMs, double firstItemMs,
                             double totalMs, int chunks, int firstItemEnd, Boolean progressive, String problem) {

        public boolean ok() {
            return problem == null;
        }

        /** How the page arrived, in a few words, for verify's row. */
        public String arrival() {
            // The figures always: under the smallest delay they are measured too, only not judged.
            String verdict = progressive == null ? "arrival not told" : progressive ? "progressive" : "not progressive";
            return verdict + String.format(Locale.ROOT, " (first item %.1f ms, last byte %.1f ms, %d piece%s)",
                    firstItemMs, totalMs, chunks, chunks == 1 ? "" : "s");
        }
    }

    /** Fetches {@code uri} twice (the first a warm-up that must pass the same checks) and judges the second. */
    public static PageResult check(URI uri, Page<?> page, Duration delay) {
        return check(uri, page, delay, SLACK);
    }

    /** As {@link #check(URI, Page, Duration)}, a body taken as never ending after {@code slack} beyond its time. */
    static PageResult check(URI uri, Page<?> page, Duration delay, Duration slack) {
        HttpClient client = TimedFetch.client();
        try {
            PageResult first = once(client, uri, page, delay, slack);
            return first.ok() ? once(client, uri, page, delay, slack) : first;
        } finally {
            client.shutdownNow();
        }
    }

    private static PageResult once(HttpClient client, URI uri, Page<?> page, Duration delay, Duration slack) {
        int items = page.items().size();
        double itemsMs = items * delay.toNanos() / 1e6;
        Duration limit = slack.plusNanos((long) (itemsMs * 4e6));
        long cap = (long) MAX_SIZE_FACTOR * Reference.referenceBytes(page);
        CappedFetch f = CappedFetch.get(client, uri, limit, cap);
        String where = "GET " + uri.getPath();
        if (f.failure() != null) {
            return failed(page, uri, f.status(), where + " failed: " + f.failure());
        }
        if (f.tooLong()) {
            return failed(page, uri, f.status(), where + " sent more than " + cap + " bytes without ending: a body"
                    + " that never ends");
        }
        if (!f.ended()) {
            return failed(page, uri, f.status(), where + " did not end within " + Durations.format(limit)
                    + ": a body that never ends");
        }
        if (f.status() != 200) {
            return failed(page, uri, f.status(), where + " answered " + f.status() + ", an error page, not 200");
        }
        String html = new String(f.body(), StandardCharsets.UTF_8);
        List<String> problems = Reference.check(page, html);
        if (!problems.isEmpty()) {
            return failed(page, uri, f.status(), where + " answered 200 with another page than " + page.id()
                    + ": " + problems.get(0));
        }
        int end = firstItemEnd(page, html);
        double firstMs = f.arrivalOf(end - 1) / 1e6;
        double totalMs = f.totalNanos() / 1e6;
        // Told apart from noise only at a delay where Verifier tells it for PssrBench's own pages.
        Boolean progressive = delay.compareTo(Verifier.MIN_DELAY) < 0 ? null
                : f.chunks() >= 2 && totalMs - firstMs >= itemsMs / 2;
        return new PageResult(page, uri, f.status(), f.body(), f.ttfbNanos() / 1e6, firstMs, totalMs, f.chunks(),
                end, progressive, null);
    }

    private static PageResult failed(Page<?> page, URI uri, int status, String problem) {
        return new PageResult(page, uri, status, new byte[0], Double.NaN, Double.NaN, Double.NaN, 0, -1, null,
                problem);
    }

    /**
     * Where the first item's markup ends in a page that passed {@link Reference#check}, a byte offset into its
     * UTF-8 body: the end of the first element the page's item selector matches, as an HTML parser finds it in
     * the page's own markup, so that any layout of whitespace and attributes gives the right offset (PssrBench's
     * own pages use {@link Page#itemEnds}, which knows their exact bytes).
     */
    public static int firstItemEnd(Page<?> page, String html) {
        Parser parser = Parser.htmlParser().setTrackPosition(true);
        Element first = Jsoup.parse(html, "", parser).selectFirst(page.itemSelector());
        if (first == null || !first.endSourceRange().isTracked()) {
            throw new IllegalArgumentException("no closed " + page.itemSelector() + " in the page");
        }
        int chars = first.endSourceRange().endPos();
        return html.substring(0, chars).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The problems of all pages, one sentence each, for a refusal. */
    public static List<String> problems(List<PageResult> results) {
        List<String> all = new ArrayList<>();
        results.stream().filter(r -> !r.ok()).forEach(r -> all.add(r.problem()));
        return all;
    }
}
