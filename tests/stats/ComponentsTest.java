package stats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two variance components of a two-level experiment, and the windows per JVM Kalibera-Jones choose from them. */
class ComponentsTest {

    /**
     * JVM means 95, 100, 105 (their variance 25), each JVM's two windows 2 apart (within variance 2): the between-JVM
     * component is 25 - 2/2 = 24, both as % of the grand mean 100.
     */
    @Test
    void theComponentsOfABalancedExperiment() {
        Components c = Components.of(List.of(new double[] {94, 96}, new double[] {99, 101}, new double[] {104, 106}));
        assertEquals(Math.sqrt(24), c.jvmCvPct(), 1e-9);
        assertEquals(Math.sqrt(2), c.windowCvPct(), 1e-9);
    }

    @Test
    void unknownUntilTwoJvmsAndTwoWindows() {
        assertTrue(Double.isNaN(Components.of(List.of(new double[] {94, 96})).jvmCvPct()), "one JVM");
        Components oneWindowEach = Components.of(List.of(new double[] {94}, new double[] {96}));
        assertTrue(Double.isNaN(oneWindowEach.jvmCvPct()) && Double.isNaN(oneWindowEach.windowCvPct()),
                "the windows' spread cannot be told from the JVMs'");
        assertEquals(2, oneWindowEach.windowsPerJvm(30, 7, 2), "the fallback while unknown");
    }

    /** r = sqrt(c_jvm / c_window * T_window^2 / T_jvm^2), rounded, between 1 and MAX_WINDOWS. */
    @Test
    void kaliberaJonesChooseTheWindows() {
        assertEquals(1, new Components(5, 1).windowsPerJvm(30, 7, 2), "sqrt(30/7 * 1/25) = 0.41: one");
        assertEquals(2, new Components(2, 2).windowsPerJvm(30, 7, 2), "sqrt(30/7) = 2.07");
        assertEquals(3, new Components(1, 1.5).windowsPerJvm(30, 7, 2), "sqrt(30/7 * 2.25) = 3.1");
        assertEquals(Components.MAX_WINDOWS, new Components(0, 1).windowsPerJvm(30, 7, 2), "no JVM spread at all");
        assertEquals(1, new Components(3, 0).windowsPerJvm(30, 7, 2), "windows that never differ");
        assertEquals(Components.MAX_WINDOWS, new Components(0.1, 5).windowsPerJvm(30, 7, 2), "capped");
    }
}
