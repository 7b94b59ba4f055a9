package stress;

import cli.Registry;
import harness.CpuWatch;
import site.Combination;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the rest of the machine did while a scenario ran: figures of its own, a note, never the verdict. */
class StressConditionsTest {

    private static Outcome outcome(String note) {
        Combination c = Registry.combinations().get(0);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("completed", 100);
        return new Outcome("streams", c, figures, "every page completes", true, note);
    }

    @Test
    void aQuietScenarioSaysSoInItsFigures() {
        Outcome o = Stress.withConditions(outcome(""), new CpuWatch.Conditions(0.0, 0.1));
        assertEquals(Map.of("completed", 100, "foreign_cpu", 0.0, "steal_pct", 0.1, "disturbed", false),
                o.figures());
        assertEquals("", o.note());
        assertTrue(o.pass());
    }

    @Test
    void aBusyMachineMarksTheScenarioDisturbedButDoesNotChangeItsVerdict() {
        Outcome o = Stress.withConditions(outcome("file limit low. "), new CpuWatch.Conditions(0.634, 0.0));
        assertEquals(true, o.figures().get("disturbed"));
        assertEquals(0.63, o.figures().get("foreign_cpu"));
        assertEquals("disturbed: foreign CPU 0.63 cores, steal 0.0% on average while it ran; file limit low. ",
                o.note());
        assertTrue(o.pass(), "a pass rule is the server's; the mark tells the reader");
        Outcome steal = Stress.withConditions(outcome(""), new CpuWatch.Conditions(0.0, 3.5));
        assertEquals(true, steal.figures().get("disturbed"), "steal above 2%");
    }

    @Test
    void unknownConditionsLeaveTheOutcomeAsItIs() {
        Outcome o = outcome("");
        assertSame(o, Stress.withConditions(o, CpuWatch.Conditions.UNKNOWN));
    }

    /** An outcome that failed, with the conditions it ran in (steal 7%: disturbed; 0.1%: quiet). */
    private static Outcome failed(double stealPct) {
        Combination c = Registry.combinations().get(0);
        Outcome o = new Outcome("slow-readers", c, new LinkedHashMap<>(Map.of("ttlb_p99_ms", 122.0)),
                "the others' p99 within 2x", false, "");
        return Stress.withConditions(o, new CpuWatch.Conditions(0.0, stealPct));
    }

    @Test
    void aScenarioThatFailsDisturbedRunsAgainAndTheRuleStands() throws Exception {
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        java.util.Iterator<Outcome> runs = java.util.List.of(failed(7.0),
                Stress.withConditions(outcome(""), new CpuWatch.Conditions(0.0, 0.1))).iterator();
        Outcome kept = Stress.untilUndisturbed(runs::next, Scenario.ATTEMPTS, quiet);
        assertTrue(kept.pass(), "the undisturbed run is kept");
        assertEquals("attempt 2 of 3, the ones before failed disturbed", kept.note());

        int[] count = {0};
        Outcome always = Stress.untilUndisturbed(() -> {
            count[0]++;
            return failed(7.0);
        }, Scenario.ATTEMPTS, quiet);
        assertEquals(3, count[0], "three runs in all, no more");
        assertTrue(!always.pass(), "a failure stays a failure: the rule is not relaxed");
        assertTrue(always.note().startsWith("attempt 3 of 3, the ones before failed disturbed; disturbed: "),
                always.note());

        count[0] = 0;
        Outcome quietFailure = Stress.untilUndisturbed(() -> {
            count[0]++;
            return failed(0.1);
        }, Scenario.ATTEMPTS, quiet);
        assertEquals(1, count[0], "an undisturbed failure is the server's: not run again");
        assertTrue(!quietFailure.pass());
        assertEquals(null, Stress.untilUndisturbed(() -> null, Scenario.ATTEMPTS, quiet), "stopped");
    }

    @Test
    void theSoakRunsOnceAndADisturbedOneIsKeptMarked() throws Exception {
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        int[] count = {0};
        Outcome soak = Stress.untilUndisturbed(Soak.SCENARIO, () -> {
            count[0]++;
            return failed(7.0);
        }, quiet);
        assertEquals(1, count[0], "a 30-minute soak run 3 times would take 90");
        assertTrue(!soak.pass(), "kept as it failed: the rule is not relaxed");
        assertEquals(true, soak.figures().get("disturbed"), "marked in its row");
        assertTrue(soak.note().startsWith("failed while disturbed, kept and marked so: this scenario runs once;"
                + " disturbed: foreign CPU 0.00 cores, steal 7.0% on average while it ran"), soak.note());

        count[0] = 0;
        Stress.untilUndisturbed(Aborts.SCENARIO, () -> {
            count[0]++;
            return failed(7.0);
        }, quiet);
        assertEquals(Scenario.ATTEMPTS, count[0], "the other scenarios run again while disturbed");
    }
}
