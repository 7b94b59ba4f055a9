package bench;

import load.LoadGenerator;
import site.Combination;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How long a sweep will take, said before it starts. It counts what a sweep does, each as often as it happens:
 * this JVM's own start (every engine's pages rendered before the first window, the report after the last), a
 * verification per combination (a JVM of its own, once, whatever the repetitions), a server JVM per repetition of
 * a combination, and per point its warm-up and window. An adaptive warm-up (--warmup=auto) lasts until the load is
 * steady, which on a busy or noisy machine can mean its cap: so the estimate gives the typical time and, beside
 * it, the time if every warm-up ran to --warmup-max. Not counted: a window measured again for being disturbed.
 *
 * @param typicalSeconds with adaptive warm-ups at their typical length
 * @param mostSeconds    with every adaptive warm-up at its cap (the typical time for fixed warm-ups)
 */
record Estimate(double typicalSeconds, double mostSeconds) {

    /** This JVM: start, every engine's pages rendered in memory, the report written at the end. */
    static final double START_SECONDS = 5;
    /**
     * verify of one combination in a JVM of its own (20 ms per item, 10 concurrent requests per page), since the
     * engines compile their templates lazily: phases.csv's verify_s was 3.6 to 4.7 s on 2026-11-28 (40 verifications,
     * load average 4 to 9); it scales with the machine's load (15 to 44 s under 12 to 20, before that change).
     */
    static final double VERIFY_SECONDS = 5;
    /**
     * A repetition's server JVM: start until it answers, the JMX connection, the data source's floor per page, stop
     * (phases.csv's ready_s, jmx_s, floor_s, stop_s): 1.6 to 2.3 s a JVM together on 2026-11-28 (120 JVMs with their
     * AOT caches, load average 4 to 9), the start 0.7 to 1.6 s of it; without the cache the start takes about 1 s more.
     */
    static final double SERVER_SECONDS = 2;
    /** Training a missing AOT cache (AotTraining), once per server unit: 12 s on 2026-11-27 for nima. */
    static final double TRAIN_SECONDS = 13;
    /**
     * What an adaptive warm-up takes: the first point in a fresh JVM, and each later one (the JIT has compiled the
     * page's path by then). At 128 connections on 2026-11-28, 20 to 22 s a point on average (70 warm-ups of 10
     * combinations, 60 JVMs, a window measured again for being disturbed included); later points of a ramp, 13.8 s on
     * average (42 warm-ups of nima's ramps at 4 to 128 connections, 2026-11-27).
     */
    static final double AUTO_FIRST_SECONDS = 22, AUTO_LATER_SECONDS = 13;

    /**
     * One repetition of one combination, as a sweep measures it: in a server JVM of its own, {@code points} of it;
     * {@code pages} of them; {@code repetition} its number (with --windows=auto the first two measure two windows of
     * each point).
     */
    record Repetition(Combination combination, int points, int pages, int repetition) {
    }

    /**
     * {@code steady}: null for a fixed {@code warmup}; {@code settle}: a later window's warm-up in a warm JVM (null:
     * each point warms up); {@code windows}: per point per JVM, 0 when chosen from the variance components;
     * {@code target}: the server runs elsewhere (not verified, started or stopped here); {@code trainings}: the AOT
     * caches missing, each trained before its first JVM. Repetitions --precision may add are not counted: Bench
     * announces each round as it begins.
     */
    static Estimate of(List<Repetition> todo, Duration warmup, LoadGenerator.Steady steady, Duration duration,
                       Duration settle, int windows, boolean target, int trainings) {
        double typical = START_SECONDS + trainings * TRAIN_SECONDS;
        double most = typical;
        Set<Combination> verified = new HashSet<>();
        for (Repetition t : todo) {
            if (!target) {
                double setup = SERVER_SECONDS + (verified.add(t.combination()) ? VERIFY_SECONDS : 0);
                typical += setup;
                most += setup;
            }
            // --windows=auto measures two windows per point in the first two JVMs, then (mostly) one: see Bench.
            int k = windows > 0 ? windows : t.repetition() <= 2 ? 2 : 1;
            double window = seconds(duration);
            // Warmed once (WarmOnce): each page at its heaviest point, then every window only settles.
            boolean once = steady != null && settle != null && !target && t.points() > 1;
            if (once) {
                typical += AUTO_FIRST_SECONDS + (t.pages() - 1) * AUTO_LATER_SECONDS;
                most += t.pages() * seconds(steady.max());
            }
            for (int point = 0; point < t.points(); point++) {
                for (int w = 0; w < k; w++) {
                    double wait;
                    double longest;
                    if (steady == null) {
                        wait = longest = seconds(warmup);
                    } else if (once) {
                        wait = longest = seconds(settle);
                    } else if (w > 0) {
                        wait = longest = seconds(BenchConfig.NEXT_WINDOW);
                    } else {
                        wait = point == 0 && w == 0 ? AUTO_FIRST_SECONDS : AUTO_LATER_SECONDS;
                        longest = seconds(steady.max());
                    }
                    typical += window + wait;
                    most += window + longest;
                }
            }
        }
        return new Estimate(typical, most);
    }

    /** "about 3 min", and with adaptive warm-ups that may take longer, up to how long. */
    String describe(LoadGenerator.Steady steady) {
        String about = "about " + minutes(typicalSeconds);
        if (steady == null || minutes(mostSeconds).equals(minutes(typicalSeconds))) {
            return about;
        }
        return about + " (up to " + minutes(mostSeconds) + " if every warm-up runs to --warmup-max, "
                + base.Durations.format(steady.max()) + ")";
    }

    private static String minutes(double seconds) {
        long minutes = (long) Math.ceil(seconds / 60);
        return minutes < 60 ? minutes + " min" : minutes / 60 + " h " + minutes % 60 + " min";
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
