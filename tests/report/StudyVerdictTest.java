package report;

import stats.ScalesTo;
import tables.Metric;
import tables.Row;
import tables.RowBuilder;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verdict rule of docs/study.md on hand-made summary rows, each verdict seen: netty's Presentations measured at
 * the paper's 8 user counts for three series that scale as the paper says, stop earlier, or were measured at 1 to 4
 * users only; the blocking mode on a pool of 4 threads for two engines (the study's aggregate); no javalin row.
 */
class StudyVerdictTest {

    private static final int[] USERS = {1, 2, 4, 8, 16, 32, 64, 128};

    /** The rows, as bench writes them to summary.csv (one repetition each: no interval, the 5% rise decides). */
    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (int u : USERS) {
            rows.add(row("htmlflow", "suspendable", u, 40.0 * u, null));       // scales to 128, peak 5,120
            rows.add(row("htmlflow", "reactive", u, 5000.0 * u / 128, null));  // scales to 128, peak 5,000
            rows.add(row("jstachio", "virtual", u, 40.0 * Math.min(u, 16), null));   // scales to 16
            rows.add(row("raw", "virtual", u, 90.0 * u, null));   // the baseline: in no series of the paper's
            rows.add(row("jstachio", "blocking", u, 100.0 * Math.min(u, 4), 4));
            rows.add(row("pebble", "blocking", u, 110.0 * Math.min(u, 4), 4));
            if (u <= 4) {
                rows.add(row("thymeleaf", "reactive", u, 100.0 * u, null));
            }
        }
        return ScalesTo.apply(rows);
    }

    private static Row row(String engine, String mode, int users, double reqPerS, Integer threads) {
        return RowBuilder.of(Row.PSSRBENCH, "netty", engine, mode, "presentations", users, 0)
                .measured(10, Math.round(reqPerS * 10), 0, "", reqPerS).ttlbMs(20, 22, 30, 31, 32)
                .set(Metric.THREADS, threads).sourceMs(19).build();
    }

    private static StudyVerdict.Verdict verdict(String figure, String series, String quoted) {
        PaperFigures.Figure f = PaperFigures.all().stream().filter(o -> o.figure().equals(figure)
                && o.series().equals(series) && o.quoted().equals(quoted)).findFirst().orElseThrow();
        return new StudyVerdict(rows(), "raw").of(f);
    }

    @Test
    void scalesToIsConfirmedContradictedNotComparableOrNotMeasured() {
        assertEquals(StudyVerdict.CONFIRMED, verdict("2", "HtmlFlow-Susp", "scales_to").word());
        StudyVerdict.Verdict jstachio = verdict("2", "JStachio-Virtual", "scales_to");
        assertEquals(StudyVerdict.CONTRADICTED, jstachio.word());
        assertEquals("scales to 16 where the paper reads 64", jstachio.why());
        assertEquals("16 (measured at 1, 2, 4, 8, 16, 32, 64, 128)", jstachio.ours());
        StudyVerdict.Verdict thymeleaf = verdict("2", "Thymeleaf-Rx", "scales_to");
        assertEquals(StudyVerdict.NOT_COMPARABLE, thymeleaf.word(), "measured up to 4 users, the paper reads 32");
        // The study's Blocking: the mean of two engines on a pool of 4 threads, which stops at 4 as the paper's.
        assertEquals("on 4 threads: " + StudyVerdict.CONFIRMED, verdict("2", "Blocking", "scales_to").word());
        StudyVerdict.Verdict javalin = verdict("3", "Virtual", "scales_to");
        assertEquals(StudyVerdict.NOT_MEASURED, javalin.word());
        assertTrue(javalin.why().contains("bench --server=javalin --engine=kotlinx,rocker,jstachio,pebble,freemarker,"
                + "trimou,htmlflow,thymeleaf --mode=virtual --page=presentations --connections=1,2,4,8,16,32,64,128"),
                javalin.why());
    }

    /** A peak is its ratio to the figure's highest (HtmlFlow-Rx's 4,792 in Figure 2): 0.94 in the paper. */
    @Test
    void aPeakIsComparedAsItsRatioToTheFiguresHighest() {
        StudyVerdict.Verdict susp = verdict("2", "HtmlFlow-Susp", "req_per_s");
        assertEquals(StudyVerdict.CONFIRMED, susp.word(), susp.why());   // 5,120 / 5,000 = 1.02, within 15%
        assertTrue(susp.why().startsWith("ratio to HtmlFlow-Rx's peak: the paper 0.94, PssrBench 1.02"), susp.why());
        assertEquals("5,120 req/s (5,120 to 5,120) at 128 users", susp.ours());
        assertEquals(StudyVerdict.CONTRADICTED, verdict("2", "JStachio-Virtual", "req_per_s").word());   // 0.13
        assertEquals(StudyVerdict.NOT_MEASURED, verdict("2", "HtmlFlow-Virtual", "req_per_s").word());
        // The highest is compared with the second highest, HtmlFlow-Virtual, which was not measured.
        assertEquals(StudyVerdict.NOT_MEASURED, verdict("2", "HtmlFlow-Rx", "req_per_s").word());
        assertEquals(StudyVerdict.NOT_COMPARABLE, verdict("6", "Blocking", "req_per_s").word(), "one peak quoted");
    }

    @Test
    void whatNoBenchMeasuresIsSaid() {
        assertEquals(StudyVerdict.NOT_COMPARABLE, verdict("text", "", "claim").word());
        assertEquals(StudyVerdict.NOT_MEASURED, verdict("companion Table 1", "Presentations PSSR", "fcp_s").word());
        assertEquals(StudyVerdict.NOT_MEASURED, verdict("8-9", "HtmlFlow-Susp", "cpu_peak_pct").word());
    }
}
