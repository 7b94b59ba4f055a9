package bench;

import cli.Registry;
import load.LoadGenerator;
import model.Page;
import site.Combination;

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

    /** {@code steady} null: a fixed warm-up of 15 s; else an adaptive one up to its cap. */
    private static Sweep sweep(int combinations, int repeat, LoadGenerator.Steady steady) {
        List<Combination> chosen = Registry.combinations().subList(0, combinations);
        return sweep(combinations, repeat, steady, "1", List.of(128));
    }

    private static Sweep sweep(int combinations, int repeat, LoadGenerator.Steady steady, String windows,
                               List<Integer> connections) {
        List<Combination> chosen = Registry.combinations().subList(0, combinations);
        BenchConfig d = BenchConfig.defaults();
        BenchConfig config = d.with(new BenchConfig.Windows(repeat, 1L, steady == null ? "15s"
                : BenchConfig.AUTO, steady == null ? Duration.ofSeconds(60) : steady.max(), Duration.ofSeconds(5),
                "2s", windows, BenchConfig.OFF, repeat)).with(new BenchConfig.Folder(Path.of("unused"), false))
                .with(new BenchConfig.Points(d.points().pages(), connections, List.of(), d.points().protocols(),
                        d.points().streams()))
                // Without AOT caches, so that what ~/.cache holds does not change the figures (untrained, below).
                .with(new BenchConfig.Servers(d.servers().delay(), d.servers().timers(), null, null, false, false,
                        true));
        return new Sweep(config, chosen);
    }

    private static Estimate estimate(Sweep s) {
        return s.estimate(s.plan(Map.of()));
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

    /**
     * A ramp in one JVM: warmed once at its heaviest point (WarmOnce), then every window only settles; --windows=auto
     * measures two windows of each point in the first two JVMs, one after.
     */
    @Test
    void aRampWarmsOnceThenEveryWindowSettles() {
        LoadGenerator.Steady steady = LoadGenerator.Steady.of(Duration.ofSeconds(60));
        Estimate e = estimate(sweep(1, 3, steady, BenchConfig.AUTO, List.of(1, 8, 64, 128)));
        double setup = Estimate.START_SECONDS + Estimate.VERIFY_SECONDS + 3 * Estimate.SERVER_SECONDS;
        double windows = (8 + 8 + 4) * (2 + 5);
        assertEquals(setup + 3 * Estimate.AUTO_FIRST_SECONDS + windows, e.typicalSeconds(), 1e-9);
        assertEquals(setup + 3 * 60 + windows, e.mostSeconds(), 1e-9, "a settle has no cap");
    }

    /** A unit whose AOT cache is missing is trained once, before its first JVM; one whose cache is there, not. */
    @Test
    void aMissingAotCacheIsTrainedOnce(@org.junit.jupiter.api.io.TempDir Path caches) throws Exception {
        Sweep s = sweep(2, 3, null);
        List<Sweep.Task> todo = s.plan(Map.of());
        assertEquals(2, s.untrained(todo, caches), "two units, no cache: 6 JVMs, 2 trainings");
        Sweep.Task first = todo.get(0);
        java.nio.file.Files.createFile(harness.AotCache.file(caches, Point.label(first.combination(), first.protocol()),
                AotTraining.key(first.combination(), first.protocol(), List.of())));
        assertEquals(1, s.untrained(todo, caches), "one of them found");
        double none = Estimate.of(List.of(), Duration.ofSeconds(15), null, Duration.ofSeconds(5), null, 1, false, 0)
                .typicalSeconds();
        assertEquals(none + 2 * Estimate.TRAIN_SECONDS, Estimate.of(List.of(), Duration.ofSeconds(15), null,
                Duration.ofSeconds(5), null, 1, false, 2).typicalSeconds(), 1e-9);
    }
}
