package stats;

import tables.Metric;
import tables.Row;
import tables.RowBuilder;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ScalesToTest {

    /** A point at {@code users} with its median and an interval of ±{@code half}. */
    private static ScalesTo.Point p(int users, double median, double half) {
        return new ScalesTo.Point(users, median, median - half, median + half);
    }

    /** Rises while the users double, then flattens within its intervals: it scales to the last rise. */
    @Test
    void aSeriesThatRisesThenFlattensScalesToItsLastRise() {
        assertEquals(8, ScalesTo.of(List.of(p(1, 300, 10), p(2, 590, 15), p(4, 1150, 30), p(8, 2000, 50),
                p(16, 2040, 60), p(32, 2010, 60), p(64, 1990, 70), p(128, 1900, 80))));
        // The order of the points does not matter.
        assertEquals(8, ScalesTo.of(List.of(p(128, 1900, 80), p(8, 2000, 50), p(1, 300, 10), p(16, 2040, 60),
                p(4, 1150, 30), p(2, 590, 15))));
    }

    /** Every count a rise beyond noise: it scales to the largest count measured. */
    @Test
    void aSeriesThatNeverFlattensScalesToItsLargestCount() {
        assertEquals(128, ScalesTo.of(List.of(p(1, 100, 5), p(2, 200, 5), p(4, 400, 10), p(8, 800, 20),
                p(16, 1500, 30), p(32, 2600, 60), p(64, 3500, 80), p(128, 4400, 100))));
    }

    /** A rise the intervals do not carry, or smaller than the least rise, is not scaling; nor is a recovery. */
    @Test
    void aRiseWithinNoiseOrBackToAnEarlierHighIsNotScaling() {
        assertEquals(4, ScalesTo.of(List.of(p(1, 1000, 20), p(2, 1500, 30), p(4, 2000, 30),
                p(8, 2300, 300))), "+15% but the intervals overlap");
        assertEquals(4, ScalesTo.of(List.of(p(1, 1000, 1), p(2, 1500, 1), p(4, 2000, 1), p(8, 2080, 1))),
                "+4%: less than the least rise, however narrow the intervals");
        assertEquals(2, ScalesTo.of(List.of(p(1, 1000, 10), p(2, 2000, 10), p(4, 1200, 10), p(8, 2050, 10))),
                "a dip and back to the earlier high");
        assertEquals(1, ScalesTo.of(List.of(p(1, 1000, 10), p(2, 1010, 10), p(4, 990, 10))), "flat from the start");
        assertEquals(2, ScalesTo.of(List.of(p(1, 1000, 0), p(2, 1060, 0))), "no interval: the least rise decides");
    }

    /** One count says nothing about scaling; two points at one count are refused. */
    @Test
    void aSingleCountHasNoFigure() {
        assertNull(ScalesTo.of(List.of(p(64, 3000, 50))));
        assertNull(ScalesTo.of(List.of()));
        assertThrows(IllegalArgumentException.class, () -> ScalesTo.of(List.of(p(4, 1, 0), p(4, 2, 0))));
    }

    /**
     * From summary rows: each series its own figure on every valid point; an invalid point left out (never named,
     * its cell empty), a series of one count and open-loop rows empty, a stale figure cleared.
     */
    @Test
    void summaryRowsCarryTheirSeriesFigureAndAnInvalidPointIsLeftOut() {
        List<Row> rows = new ArrayList<>();
        double[] virtual = {500, 1000, 1900, 1950};
        double[] blocking = {500, 990, 1000, 1010};
        int[] users = {1, 2, 4, 8};
        for (int i = 0; i < users.length; i++) {
            rows.add(row("jstachio", "virtual", users[i], virtual[i], 20));
            rows.add(row("jstachio", "blocking", users[i], blocking[i], 20));
        }
        rows.add(row("jstachio", "virtual", 16, 4000, 20).with(Metric.VALID, false)
                .with(Metric.NOTE, "errors: timeout 3"));   // would have been a rise: invalid, it does not count
        rows.add(row("pebble", "virtual", 16, 900, 0).with(Metric.SCALES_TO, 99));   // one count: stale, cleared
        rows.add(RowBuilder.of(Row.PSSRBENCH, "nima", "jstachio", "virtual", "stocks", 16, 800)
                .measured(3, 2400, 0, "", 800).build());   // open loop: not a point of the series
        List<Row> out = ScalesTo.apply(rows);
        assertEquals(rows.size(), out.size());
        for (int i = 0; i < out.size(); i++) {
            Row r = out.get(i);
            Object want = !ScalesTo.counts(r) || r.engine().equals("pebble") ? null
                    : r.mode().equals("virtual") ? 4 : 2;
            assertEquals(want, r.get(Metric.SCALES_TO), r.label());
            assertEquals(rows.get(i).with(Metric.SCALES_TO, null), r.with(Metric.SCALES_TO, null), "the rest as is");
        }
        // The interval comes from the row's spread: the same medians with wide intervals do not rise beyond them.
        List<Row> wide = new ArrayList<>();
        for (int i = 0; i < users.length; i++) {
            wide.add(row("jstachio", "virtual", users[i], virtual[i], 600));
        }
        assertEquals(1, ScalesTo.apply(wide).get(0).get(Metric.SCALES_TO));
    }

    /** A summary row of 5 repetitions with req/s median {@code reqPerS} and interval ±{@code half}. */
    private static Row row(String engine, String mode, int users, double reqPerS, double half) {
        return RowBuilder.of(Row.PSSRBENCH, "nima", engine, mode, "stocks", users, 0)
                .measured(3, Math.round(reqPerS * 3), 0, "", reqPerS).build()
                .with(new Row.Spread(5, 93.75, true, Map.of("req_per_s", reqPerS - half),
                        Map.of("req_per_s", reqPerS + half)));
    }
}
