package stats;

import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** From runs.csv's repetitions to summary.csv's points: medians, intervals, disturbed and invalid repetitions. */
class RepetitionsTest {

    private static Row run(int connections, int repetition, double reqPerS, double foreign) {
        return RowBuilder.of("pssrbench", "nima", "jstachio", "virtual", "stocks", connections, 0)
                .measured(5, Math.round(reqPerS * 5), 0, "", reqPerS).ttfbMs(0.2, 0.5).firstItemP50Ms(1.2)
                .ttlbMs(22, 23, 25, 26, 27).cpuMsPerReq(0.15, 0.1).warmupS(8).conditions(foreign, 0)
                .build().withRepetition(repetition);
    }

    @Test
    void aPointIsTheMedianOfItsRepetitionsWithItsInterval() {
        double[] rates = {9100, 8900, 9300, 9000, 9200, 8800, 9400, 9050, 9150, 8950};
        List<Row> runs = new java.util.ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            runs.add(run(128, i + 1, rates[i], 0.01));
            runs.add(run(16, i + 1, rates[i] / 10, 0.01));   // another point, interleaved as a sweep writes them
        }
        List<Row> points = Repetitions.summarize(runs);
        assertEquals(List.of(128, 16), points.stream().map(Row::connections).toList(), "in the order first measured");
        Row p = points.get(0);
        assertEquals(9075.0, p.reqPerS(), "the median of ten");
        assertEquals(10, p.spread().n());
        assertFalse(p.spread().range(), "ten repetitions give a 95% interval");
        assertEquals(97.852, p.spread().levelPct(), 0.001, "x(2)..x(9) of ten: 1 - 2 * 11/1024");
        assertEquals(8900.0, p.spread().lo().get("req_per_s"), "the second smallest");
        assertEquals(9300.0, p.spread().hi().get("req_per_s"), "the second largest");
        assertEquals(Boolean.FALSE, p.disturbed());
        assertNull(p.repetition());
        assertEquals("9075 ±200", Repetitions.withSpread(p, "req_per_s"));
        assertTrue(p.valid());
    }

    @Test
    void fewRepetitionsGiveTheirRangeAndSaySo() {
        Row p = Repetitions.summarize(List.of(run(128, 1, 9000, 0), run(128, 2, 9300, 0), run(128, 3, 8700, 0)))
                .get(0);
        assertTrue(p.spread().range());
        assertEquals(75.0, p.spread().levelPct(), 0.001, "the range of three covers the median 75% of the time");
        assertEquals(8700.0, p.spread().lo().get("req_per_s"));
        assertEquals("range", Summary.text(p, "ci_kind"));
    }

    /** A disturbed window measured again: the undisturbed attempt stands for its repetition, the other stays raw. */
    @Test
    void aDisturbedAttemptGivesWayToItsRepeat() {
        Row disturbed = run(128, 2, 3000, 0.9);
        List<Row> runs = List.of(run(128, 1, 9000, 0), disturbed, run(128, 2, 9100, 0.02), run(128, 3, 9200, 0));
        assertEquals(List.of(9000.0, 9100.0, 9200.0), Repetitions.used(runs).stream().map(Row::reqPerS).toList());
        Row p = Repetitions.summarize(runs).get(0);
        assertEquals(3, p.spread().n());
        assertEquals(Boolean.FALSE, p.disturbed(), "the repetition that counts was quiet");

        // Disturbed every time: kept, and the point says so.
        Row q = Repetitions.summarize(List.of(run(128, 1, 9000, 0), disturbed, run(128, 2, 3100, 0.8))).get(0);
        assertEquals(Boolean.TRUE, q.disturbed());
        assertTrue(q.note().startsWith("disturbed: 1 of 2 repetitions (foreign CPU up to 0.80 cores"), q.note());
        assertEquals(3100.0, q.spread().lo().get("req_per_s"), "the last attempt of repetition 2");
    }

    /** One repetition with errors makes the point invalid: a bad run is not outvoted by good ones. */
    @Test
    void anInvalidRepetitionMakesThePointInvalid() {
        Row bad = RowBuilder.of("pssrbench", "nima", "jstachio", "virtual", "stocks", 128, 0)
                .measured(5, 100, 3, "timeout 3", 20).build().withRepetition(2);
        Row p = Repetitions.summarize(List.of(run(128, 1, 9000, 0), bad, run(128, 3, 9100, 0))).get(0);
        assertFalse(p.valid());
        assertEquals("repetition 2 of 3: errors: timeout 3", p.note());
        assertNull(p.spread());
    }

    /**
     * What bench's --resume measures again: a repetition whose standing window is not valid, or disturbed in every
     * attempt; not one a quiet attempt settled after a disturbed one, nor a valid undisturbed one.
     */
    @Test
    void aRepetitionIsSettledByAValidUndisturbedWindowOnly() {
        Row bad = RowBuilder.of("pssrbench", "nima", "jstachio", "virtual", "stocks", 128, 0)
                .measured(5, 100, 3, "timeout 3", 20).build().withRepetition(2);
        List<Row> runs = List.of(run(128, 1, 9000, 0), bad, run(128, 3, 3000, 0.9), run(128, 4, 3000, 0.9),
                run(128, 4, 9100, 0.02), run(16, 1, 900, 0));
        Row standing3 = Repetitions.used(runs.subList(2, 3)).get(0);
        assertEquals(Repetitions.NOT_VALID, Repetitions.unsettled(bad));
        assertEquals(Repetitions.DISTURBED, Repetitions.unsettled(standing3));
        assertNull(Repetitions.unsettled(runs.get(0)));
        var settled = Repetitions.settled(runs);
        assertEquals(java.util.Set.of(1, 4), settled.get(runs.get(0).pointKey()));
        assertEquals(java.util.Set.of(1), settled.get(runs.get(5).pointKey()));
        assertEquals(2, settled.size());
    }

    /**
     * A JVM's windows are one observation, their mean: n counts JVMs, the interval is over the JVMs' means, and the
     * two variance components are the summary's; a disturbed window measured again stands for its window only.
     */
    @Test
    void theJvmIsTheUnitAndItsWindowsItsFigure() {
        List<Row> runs = new java.util.ArrayList<>();
        double[][] jvms = {{9000, 9100}, {9400, 9500}, {8800, 8900}, {9200, 9300}, {9100, 9200}, {9000, 9100}};
        for (int rep = 0; rep < jvms.length; rep++) {
            for (int w = 0; w < 2; w++) {
                runs.add(run(128, rep + 1, jvms[rep][w], 0.01).with(tables.Metric.WINDOW, w + 1));
            }
        }
        runs.add(1, run(128, 1, 5000, 3.0).with(tables.Metric.WINDOW, 1).with(tables.Metric.DISTURBED, true));
        Row p = Repetitions.summarize(runs).get(0);
        assertEquals(6, p.spread().n(), "six JVMs, not twelve windows");
        assertEquals(12, p.get(tables.Metric.WINDOWS));
        assertEquals(9100.0, p.reqPerS(), "the median of the JVMs' means 9050, 9450, 8850, 9250, 9150, 9050");
        assertEquals(8850.0, p.spread().lo().get("req_per_s"), "the smallest JVM mean: six give their range");
        assertEquals(9450.0, p.spread().hi().get("req_per_s"));
        assertEquals(Boolean.FALSE, p.disturbed(), "the disturbed attempt was measured again");
        Components c = Repetitions.components(Repetitions.used(runs));
        assertEquals(c.jvmCvPct(), (Double) p.get(tables.Metric.CV_JVM_PCT), 1e-3);
        assertEquals(Math.sqrt(5000) / 9133.333 * 100, c.windowCvPct(), 1e-3, "windows 100 apart: variance 5000");
        assertEquals(6, Repetitions.usedByPoint(runs).values().iterator().next().size(), "compare tests JVMs too");
    }
}
