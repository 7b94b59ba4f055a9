package verify;

import model.Page;
import model.Streaming;
import site.Combination;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * verify's timing checks: whether a page arrived as its combination declares, progressively (the head early, the
 * body in pieces, each item about when it exists, give or take the declared lookahead) or after its data (the
 * first byte after the last item could exist, the whole body at once). Their failures are {@link Check.Name#timing()}
 * ones, which {@link Verifier} measures once more before they count.
 */
public final class Arrival {

    private Arrival() {
    }

    /**
     * A page declared to stream: the head must come before a quarter of the items could have been produced, and
     * the body in several pieces spread over at least half the time the items take; then each item's lag within
     * half a delay of the declared lookahead. Returns the median lag in ms (NaN when not measured).
     */
    static double checkProgressive(TimedFetch fetch, Page page, Streaming declared, Duration delay, Verdicts v) {
        int items = page.items().size();
        double itemsMs = items * delay.toNanos() / 1e6;
        double ttfbMs = fetch.ttfbNanos() / 1e6;
        double spreadMs = (fetch.totalNanos() - fetch.ttfbNanos()) / 1e6;
        if (ttfbMs > itemsMs / 4) {
            v.fail(Check.Name.PROGRESSIVE, String.format(Locale.ROOT, "not progressive: first byte after %.1f ms,"
                    + " later than a quarter of the %.0f ms the %d items take", ttfbMs, itemsMs, items));
        }
        if (fetch.chunks() < items / 2) {
            v.fail(Check.Name.PROGRESSIVE, "not progressive: the body arrived in " + fetch.chunks() + " pieces for "
                    + items + " items");
        }
        if (spreadMs < itemsMs / 2) {
            v.fail(Check.Name.PROGRESSIVE, String.format(Locale.ROOT, "not progressive: the body arrived within"
                    + " %.1f ms, less than half of the %.0f ms the items take", spreadMs, itemsMs));
        }
        v.checked(Check.Name.PROGRESSIVE);
        if (v.failed()) {   // a page that is wrong or did not stream has no lag worth reading
            return Double.NaN;
        }
        double lagMs = medianLagMs(fetch, page.itemEnds(fetch.body()), items);
        int lookahead = declared.lookahead();
        double delayMs = delay.toNanos() / 1e6;
        double allowedMs = (lookahead + 0.5) * delayMs;
        if (lagMs > allowedMs) {
            // Reported as not progressive: an item held back beyond the lookahead is not streamed as declared.
            v.fail(Check.Name.LOOKAHEAD, String.format(Locale.ROOT, "not progressive: items arrive %.1f ms after"
                    + " they exist (median), more than the %.1f ms that a lookahead of %d allows", lagMs, allowedMs,
                    lookahead));
        } else if (lookahead > 0 && lagMs < (lookahead - 0.5) * delayMs) {
            // A declaration that undersells the engine is wrong too: users read it to choose an engine.
            v.fail(Check.Name.LOOKAHEAD, String.format(Locale.ROOT, "items arrive %.1f ms after they exist"
                    + " (median), sooner than the declared lookahead of %d (%.0f ms): the engine's declaration is"
                    + " wrong", lagMs, lookahead, lookahead * delayMs));
        }
        v.checked(Check.Name.LOOKAHEAD);
        return lagMs;
    }

    /**
     * A page declared to be sent after its data: its first byte must come after the last item could exist, the
     * whole body within one delay of it, and, when the mode sends it whole, with its exact {@code Content-Length}.
     */
    static void checkAfterData(TimedFetch fetch, Combination combination, byte[] want, Duration delay, int items,
                               Verdicts v) {
        double itemsMs = items * delay.toNanos() / 1e6;
        double ttfbMs = fetch.ttfbNanos() / 1e6;
        double spreadMs = (fetch.totalNanos() - fetch.ttfbNanos()) / 1e6;
        double delayMs = delay.toNanos() / 1e6;
        if (ttfbMs < itemsMs - delayMs / 2) {
            v.fail(Check.Name.AFTER_DATA, String.format(Locale.ROOT, "declared to send the page after its data, but"
                    + " the first byte came after %.1f ms, before the %.0f ms the items take", ttfbMs, itemsMs));
        }
        if (spreadMs > delayMs) {
            v.fail(Check.Name.AFTER_DATA, String.format(Locale.ROOT, "declared to send the page after its data, but"
                    + " the body took %.1f ms after its first byte, more than one delay", spreadMs));
        }
        v.checked(Check.Name.AFTER_DATA);
        if (combination.mode().wholePage()) {
            String length = fetch.headers().firstValue("content-length").orElse("none");
            if (!length.equals(String.valueOf(want.length))) {
                v.fail(Check.Name.CONTENT_LENGTH, "a page sent whole needs Content-Length " + want.length + ", got "
                        + length);
            }
            v.checked(Check.Name.CONTENT_LENGTH);
        }
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
}
