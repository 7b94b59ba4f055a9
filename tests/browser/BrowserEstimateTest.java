package browser;

import http.Protocol;
import model.Page;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The time browser says before it starts counts each load's own wait (a fresh tab, then 250 ms without a new paint)
 * and this JVM's start and report: it once said "about 1 minutes" of a run that took 1 min 38 s.
 */
class BrowserEstimateTest {

    @Test
    void oneCombinationBesideBufferedCountsEveryLoadItsWaitAndTheRunsStart() {
        List<Page<?>> pages = List.of(Page.PRESENTATIONS, Page.STOCKS);
        double seconds = BrowserBench.estimateSeconds(List.of(1), pages, 5, Duration.ofMillis(200), false);
        // 2 kinds (the combination and buffered) x (5 runs + 1 warm-up) x both pages' items and their loads' waits
        double loads = 2 * 6 * ((10 + 20) * 0.2 + 2 * BrowserBench.LOAD_SECONDS);
        assertEquals(BrowserBench.START_SECONDS + loads + 2 * BrowserBench.SETUP_SECONDS, seconds, 1e-9);
        assertEquals(BrowserBench.START_SECONDS + loads + BrowserBench.SETUP_SECONDS,
                BrowserBench.estimateSeconds(List.of(1), pages, 5, Duration.ofMillis(200), true), 1e-9,
                "a --target server is neither started nor stopped here");
    }

    /** "1 server and engine pairs", "about 1 minutes": counts agree with their nouns. */
    @Test
    void theSummaryLineAgreesInNumber() {
        List<Protocol> h1 = List.of(Protocol.H1);
        assertEquals("browser: 1 server and engine pair, 1 combination beside buffered, 1 page, 1 run each at 200ms per"
                + " item: about 1 minute", BrowserBench.summary(1, 1, h1, 1, 1, Duration.ofMillis(200), 42));
        assertEquals("browser: 2 server and engine pairs, 3 combinations beside buffered, 2 pages, 5 runs each at"
                + " 200ms per item: about 2 minutes", BrowserBench.summary(2, 3, h1, 2, 5, Duration.ofMillis(200), 61));
    }

    /** Over HTTP/1.1 alone the line is as it always was; other protocols are named. */
    @Test
    void theSummaryLineNamesTheProtocolsBeyondHttp1() {
        assertEquals("browser: 1 server and engine pair, 1 combination beside buffered over h1, h2, 1 page, 1 run each"
                + " at 200ms per item: about 1 minute", BrowserBench.summary(1, 1, List.of(Protocol.H1, Protocol.H2),
                1, 1, Duration.ofMillis(200), 42));
    }
}
