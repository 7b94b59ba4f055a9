package bench;

import cli.Registry;
import core.Combination;
import core.DataSource;
import core.Page;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The estimate bench prints before it starts counts what a sweep does as often as it happens: it once said 2 min of
 * a run that took 3 min 22 s, leaving out this JVM's start and report and taking adaptive warm-ups at their typical
 * length only.
 */
class EstimateTest {

    private static Bench.Sweep sweep(int combinations, int repeat, LoadGenerator.Steady steady) {
        List<Combination> chosen = Registry.combinations().subList(0, combinations);
        return new Bench.Sweep(chosen, List.of(Page.STOCKS), List.of(128), List.of(), Duration.ofSeconds(15), steady,
                Duration.ofSeconds(5), repeat, 1, Duration.ofMillis(1), DataSource.Timers.COMPUTATION, 1,
                Path.of("unused"), List.of(), Map.of(), false, false, null, null);
    }

    private static Estimate estimate(Bench.Sweep s) {
        return Estimate.of(Bench.plan(s, Map.of()).stream().map(t -> new Estimate.Repetition(t.combination(),
                t.points().size())).toList(), s.warmup(), s.steady(), s.duration(), s.target() != null);
    }

    @Test
    void verificationIsCountedOncePerCombinationAndAServerPerRepetition() {
        Estimate e = estimate(sweep(2, 3, null));   // fixed 15 s warm-ups, 5 s windows
        double windows = 2 * 3 * (15 + 5);
        assertEquals(Estimate.START_SECONDS + 2 * Estimate.VERIFY_SECONDS + 2 * 3 * Estimate.SERVER_SECONDS + windows,
                e.typicalSeconds(), 1e-9);
        assertEquals(e.typicalSeconds(), e.mostSeconds(), 1e-9, "a fixed warm-up takes what it says");
        assertEquals("about 3 min", e.describe(null));
    }

    @Test
    void adaptiveWarmUpsAreTypicalButMayRunToTheirCap() {
        LoadGenerator.Steady steady = LoadGenerator.Steady.of(Duration.ofSeconds(60));
        Estimate e = estimate(sweep(1, 2, steady));
        double setup = Estimate.START_SECONDS + Estimate.VERIFY_SECONDS + 2 * Estimate.SERVER_SECONDS;
        assertEquals(setup + 2 * (Estimate.AUTO_FIRST_SECONDS + 5), e.typicalSeconds(), 1e-9);
        assertEquals(setup + 2 * (60 + 5), e.mostSeconds(), 1e-9);
        assertEquals("about 2 min (up to 3 min if every warm-up runs to --warmup-max, 60s)", e.describe(steady));
    }
}
