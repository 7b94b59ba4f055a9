package browser;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What browser --lighthouse reads of a Lighthouse JSON report, and the medians it writes of the loads. */
class LighthouseReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The parts of a Lighthouse 12 report (lhr) that are read, with the figures of a real load. */
    private static final String REPORT = """
            {"lighthouseVersion": "12.8.2",
             "categories": {"performance": {"score": 0.98}},
             "audits": {
               "first-contentful-paint": {"numericValue": 1953.31},
               "largest-contentful-paint": {"numericValue": 1960.5},
               "speed-index": {"numericValue": 2001.25},
               "total-blocking-time": {"numericValue": 12},
               "metrics": {"details": {"items": [{"observedFirstContentfulPaint": 87,
                 "observedLargestContentfulPaint": 184, "observedSpeedIndex": 251}]}}}}
            """;

    @Test
    void theScoreThePaintsAndTheObservedPaintsAreRead() throws Exception {
        Lighthouse.Result r = Lighthouse.read(JSON.readTree(REPORT));
        assertEquals(new Lighthouse.Result(0.98, 1953.31, 1960.5, 2001.25, 12, 87, 184, 251, null), r);
    }

    @Test
    void aReportWithLighthousesErrorOrWithoutAScoreSaysWhy() throws Exception {
        String failed = REPORT.replace("\"lighthouseVersion\"", "\"runtimeError\": {\"code\": \"NO_FCP\","
                + " \"message\": \"The page did not paint any content.\"}, \"lighthouseVersion\"")
                .replace("\"score\": 0.98", "\"score\": null");
        assertEquals("The page did not paint any content.", Lighthouse.read(JSON.readTree(failed)).problem());
        Lighthouse.Result noScore = Lighthouse.read(JSON.readTree(REPORT.replace("\"score\": 0.98",
                "\"score\": null")));
        assertEquals("the report has no performance score", noScore.problem());
        assertTrue(Double.isNaN(noScore.score()));
        assertNull(Lighthouse.read(JSON.readTree(REPORT)).problem());
    }

    @Test
    void theMedianIsTheMiddleLoadOrTheMeanOfTheMiddleTwo() {
        double n = Double.NaN;
        List<Lighthouse.Result> three = List.of(result(0.9), result(0.5), result(0.7));
        assertEquals(0.7, LighthouseBench.median(three, Lighthouse.Result::score), 1e-12);
        assertEquals(0.6, LighthouseBench.median(three.subList(1, 3), Lighthouse.Result::score), 1e-12);
        assertTrue(Double.isNaN(LighthouseBench.median(List.of(result(n)), Lighthouse.Result::score)));
    }

    private static Lighthouse.Result result(double score) {
        return new Lighthouse.Result(score, 1, 1, 1, 0, 1, 1, 1, null);
    }
}
