package verify;

import model.Page;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A foreign app's pages: equal to the reference under the normalisation, their arrival measured, bad ones refused. */
class ForeignCheckTest {

    private static final Duration DELAY = Verifier.MIN_DELAY;
    /** A short wait for the body's end: the test's server is warm. */
    private static final Duration SLACK = Duration.ofMillis(300);

    @Test
    void aRelaidProgressivePagePassesAndIsMeasuredAsProgressive() throws Exception {
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.GOOD, DELAY)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    DELAY, SLACK);
            assertTrue(r.ok(), r.problem());
            byte[] relaid = ForeignServer.relaid(Page.STOCKS);
            assertEquals(relaid.length, r.body().length);
            assertFalse(java.util.Arrays.equals(relaid, model.Page.STOCKS.id().getBytes()), "not PssrBench's bytes");
            assertEquals(Boolean.TRUE, r.progressive(), r.arrival());
            assertTrue(r.firstItemMs() < r.totalMs() / 2, r.arrival());
        }
    }

    @Test
    void aPageSentWholeAfterItsDataIsReportedAsNotProgressive() throws Exception {
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.WHOLE, DELAY)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.PRESENTATIONS),
                    Page.PRESENTATIONS, DELAY, SLACK);
            assertTrue(r.ok(), r.problem());
            assertEquals(Boolean.FALSE, r.progressive(), r.arrival());
        }
    }

    @Test
    void underTheSmallestDelayArrivalIsNotTold() throws Exception {
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(1))) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    Duration.ofMillis(1), SLACK);
            assertTrue(r.ok(), r.problem());
            assertNull(r.progressive());
        }
    }

    /** The first item's end, found by the page's markup: right after the first row's closing tag. */
    @Test
    void theFirstItemEndsWhereItsOwnMarkupEndsIt() {
        String stocks = new String(ForeignServer.relaid(Page.STOCKS), StandardCharsets.UTF_8);
        int end = ForeignCheck.firstItemEnd(Page.STOCKS, stocks);
        int tr = stocks.indexOf("<tr class=\"odd\">");
        assertEquals(stocks.indexOf("</tr>", tr) + "</tr>".length(), end);
        byte[] bytes = ForeignServer.relaid(Page.PRESENTATIONS);
        String presentations = new String(bytes, StandardCharsets.UTF_8);
        int at = ForeignCheck.firstItemEnd(Page.PRESENTATIONS, presentations);   // a byte offset, UTF-8
        String before = new String(bytes, 0, at, StandardCharsets.UTF_8);
        String after = new String(bytes, at, bytes.length - at, StandardCharsets.UTF_8);
        assertTrue(before.endsWith("</div>"), before.substring(before.length() - 30));
        assertEquals(1, before.split("<div class=\"card ", -1).length - 1, "exactly one card before it");
        assertTrue(after.startsWith("<div class=\"card "), after.substring(0, 30));   // as the reference has it
    }

    @Test
    void anotherPageAnErrorPageAndAnEndlessBodyAreRefused() throws Exception {
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.WRONG_PAGE, DELAY)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    DELAY, SLACK);
            assertTrue(r.problem().contains("answered 200 with another page than stocks: differs from the"
                    + " reference page at normalised line"), r.problem());
        }
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.ERROR, DELAY)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    DELAY, SLACK);
            assertEquals("GET " + ForeignServer.STOCKS + " answered 500, an error page, not 200", r.problem());
        }
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.ENDLESS, DELAY)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    DELAY, SLACK);
            assertTrue(r.problem().startsWith("GET " + ForeignServer.STOCKS + " did not end within"), r.problem());
            assertTrue(r.problem().endsWith("a body that never ends"), r.problem());
        }
    }

    @Test
    void aBodyThatGrowsPastAnyPageIsCutOff() throws Exception {
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.ENDLESS, Duration.ZERO)) {
            ForeignCheck.PageResult r = ForeignCheck.check(app.base().resolve(ForeignServer.STOCKS), Page.STOCKS,
                    DELAY, SLACK);
            assertTrue(r.problem().contains("without ending: a body that never ends"), r.problem());
        }
    }
}
