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
     * verify of one combination in a JVM of its own (20 ms per item, 10 concurrent requests per page). With the
     * server's start and stop it was measured at 7 to 9 s on a 2-core machine, once counted per repetition;
     * phases.csv's verify_s (15 to 44 s under a load average of 12 to 20) scales with the machine's load.
     */
    static final double VERIFY_SECONDS = 6;
    /**
     * A repetition's server JVM: start until it answers, the JMX connection, the data source's floor per page, stop
     * (phases.csv's ready_s, jmx_s, floor_s, stop_s). The start is most of it: 4.7 to 9.0 s on a quiet 2-core
     * machine without the AOT cache, 3.7 to 4.1 s with it (issue 33); the other three took 0.4 to 1.8, 0.4 to 0.6
     * and 0.4 to 0.9 s here (measured under a load average of 12 to 20, the start then 9 to 22 s).
     */
    static final double SERVER_SECONDS = 7;
    /**
     * What an adaptive warm-up takes: the first point in a fresh JVM, and each later one (the JIT has compiled the
     * page's path by then). Measured on a 2-core machine at 128 connections: see the README.
     */
    static final double AUTO_FIRST_SECONDS = 22, AUTO_LATER_SECONDS = 11;

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
     * {@code target}: the server runs elsewhere (not verified, started or stopped here). Repetitions --precision may
     * add are not counted: Bench announces each round as it begins.
     */
    static Estimate of(List<Repetition> todo, Duration warmup, LoadGenerator.Steady steady, Duration duration,
                       Duration settle, int windows, boolean target) {
        double typical = START_SECONDS;
        double most = START_SECONDS;
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
