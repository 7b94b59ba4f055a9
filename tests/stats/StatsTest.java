package stats;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.DoubleSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Known answers (worked by hand or counted by brute force here, independently of Stats' DPs) and seeded simulations
 * that check each interval covers as often as its stated level says and the test holds its size and has power.
 */
class StatsTest {

    private static final double EXACT = 1e-12;

    @Test
    void medianOfOddAndEvenCounts() {
        double[] odd = {3, 1, 2};
        assertEquals(2, Stats.median(odd));
        assertEquals(2.5, Stats.median(new double[] {4, 1, 3, 2}));
        assertEquals(3, odd[0], "the input is left unsorted");
        assertThrows(IllegalArgumentException.class, () -> Stats.median(new double[0]));
    }

    @Test
    void medianIntervalIsTheExactBinomialOrderStatistics() {
        Stats.Interval ten = Stats.medianInterval(shuffled(10), Stats.CONFIDENCE);
        assertInterval(2, 9, 0.978515625, false, ten, "n = 10: 1 - 2 * 11/1024");
        assertEquals(3.5, ten.halfWidth());

        double below5 = binomialHalfCdf(20, 5);
        assertEquals(0.0207, below5, 5e-5);
        assertTrue(1 - 2 * binomialHalfCdf(20, 6) < 0.95, "k = 7 would be too narrow");
        Stats.Interval twenty = Stats.medianInterval(shuffled(20), Stats.CONFIDENCE);
        assertEquals(6, twenty.lo());
        assertEquals(15, twenty.hi());
        assertEquals(1 - 2 * below5, twenty.level(), EXACT);

        assertInterval(1, 5, 0.9375, true, Stats.medianInterval(shuffled(5), Stats.CONFIDENCE), "n = 5: 1 - 2^-4");
        assertInterval(1, 6, 0.96875, false, Stats.medianInterval(shuffled(6), Stats.CONFIDENCE),
                "the whole range of 6 reaches 0.95, so it is not marked");
        assertInterval(7, 7, 0, true, Stats.medianInterval(new double[] {7}, Stats.CONFIDENCE), "n = 1");
        assertThrows(IllegalArgumentException.class, () -> Stats.medianInterval(new double[0], 0.95));
        assertThrows(IllegalArgumentException.class, () -> Stats.medianInterval(shuffled(5), 1));
    }

    /** Lognormal samples with median e: each interval's stated level is its real coverage (a wrong k breaks it). */
    @Test
    void medianIntervalCoversAsOftenAsItsLevelSays() {
        Random random = new Random(11);
        for (int n : new int[] {5, 10, 20}) {
            double level = Stats.medianInterval(lognormal(random, n, 1), Stats.CONFIDENCE).level();
            assertEquals(n > 5, level >= Stats.CONFIDENCE, "only the marked range falls short: " + level);
            int covered = 0;
            int trials = 4000;
            for (int t = 0; t < trials; t++) {
                Stats.Interval interval = Stats.medianInterval(lognormal(random, n, 1), Stats.CONFIDENCE);
                assertEquals(n == 5, interval.range());
                covered += interval.lo() <= Math.E && Math.E <= interval.hi() ? 1 : 0;
            }
            double rate = covered / (double) trials;
            assertEquals(level, rate, 0.02, "n = " + n + ": coverage " + rate + ", stated " + level);
        }
    }

    @Test
    void mannWhitneyKnownExactValues() {
        assertEquals(2 / 252.0, Stats.mannWhitneyP(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}), EXACT);
        assertEquals(0.1, Stats.mannWhitneyP(new double[] {4, 5, 6}, new double[] {1, 2, 3}), EXACT);
        assertEquals(2 / 70.0, Stats.mannWhitneyP(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}), EXACT);
        assertEquals(1, Stats.mannWhitneyP(new double[] {1, 2, 3}, new double[] {1, 2, 3}), EXACT);
        assertEquals(1, Stats.mannWhitneyP(new double[] {4, 4}, new double[] {4, 4, 4}), EXACT);
        assertEquals(0.5, Stats.mannWhitneyP(new double[] {1}, new double[] {2, 3, 4}), EXACT, "1 vs 3: 2 of 4");
        assertTrue(Double.isNaN(Stats.mannWhitneyP(new double[0], new double[] {1})));
        assertEquals("exact permutation", Stats.mannWhitneyMethod(5, 5));
        assertEquals("exact permutation", Stats.mannWhitneyMethod(10, 10), "C(20, 10) = 184,756");
        assertEquals("normal approximation", Stats.mannWhitneyMethod(10, 11), "C(21, 10) = 352,716");
        assertEquals("normal approximation", Stats.mannWhitneyMethod(30, 30));
        assertEquals("exact permutation", Stats.mannWhitneyMethod(1, 199_999));
        assertEquals("normal approximation", Stats.mannWhitneyMethod(200_001, 1));
    }

    /** With ties the permutation p must equal a count over every split of the mid-ranks, done here by bit masks. */
    @Test
    void mannWhitneyWithTiesMatchesEveryEnumeratedSplit() {
        double[] a = {1, 2, 2, 3, 5};
        double[] b = {2, 3, 3, 4, 4, 6, 2};
        double expected = bruteForceP(a, b);
        assertEquals(expected, Stats.mannWhitneyP(a, b), EXACT);
        assertEquals(expected, Stats.mannWhitneyP(b, a), EXACT);
        assertTrue(expected > 0.05 && expected < 1, "a case in between: " + expected);
    }

    /** 30 vs 30 (and tied values) against U counted pair by pair and a normal tail integrated by Simpson's rule. */
    @Test
    void mannWhitneyNormalApproximationForLargeSamples() {
        Random random = new Random(5);
        double[] a = new double[30];
        double[] b = new double[30];
        for (int i = 0; i < 30; i++) {
            a[i] = random.nextGaussian();
            b[i] = random.nextGaussian() + 1;
        }
        double p = Stats.mannWhitneyP(a, b);
        assertEquals(normalP(a, b), p, 1e-6 * p);
        assertTrue(p < 0.001, "a shift of one sd at 30 a side: " + p);
        for (int i = 0; i < 30; i++) {
            a[i] = Math.round(a[i] * 2) / 2.0;
            b[i] = Math.round(b[i] * 2 - 1.5) / 2.0;
        }
        double tied = Stats.mannWhitneyP(a, b);
        assertEquals(normalP(a, b), tied, 1e-6 * tied);
        assertTrue(tied > 0.01 && tied < 0.99, "a case in between: " + tied);
    }

    @Test
    void shiftIsTheMedianPairwiseRatioWithMosesInterval() {
        double[] a = {10.1, 9.8, 10.3, 9.9, 10.05};
        double[] b = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = 2 * a[(i + 2) % a.length];
        }
        Stats.Shift shift = Stats.shift(a, b, Stats.CONFIDENCE);
        assertEquals(2, shift.ratio(), 1e-9);
        assertEquals(100, shift.changePct(), 1e-7);
        assertEquals(1 - 2 * 4 / 252.0, shift.interval().level(), EXACT, "5 vs 5: c = 2, P(U <= 2) = 4/252");
        assertFalse(shift.interval().range());
        assertTrue(shift.interval().lo() < 2 && 2 < shift.interval().hi());
        assertEquals(2 / 252.0, shift.p(), EXACT);
        assertTrue(shift.significant());
        assertEquals(5, shift.nA());

        Stats.Shift three = Stats.shift(new double[] {1, 2, 4}, new double[] {3, 5, 8}, Stats.CONFIDENCE);
        assertInterval(0.75, 8, 0.9, true, three.interval(), "3 vs 3: the range, 1 - 2/20");
        Stats.Shift four = Stats.shift(new double[] {1, 2, 4, 5}, new double[] {3, 5, 8, 9}, Stats.CONFIDENCE);
        assertInterval(0.6, 9, 1 - 2 / 70.0, false, four.interval(), "4 vs 4: c = 0 reaches 0.95");

        assertNull(Stats.shift(new double[0], b, 0.95));
        assertNull(Stats.shift(a, new double[] {1, 0}, 0.95));
        assertNull(Stats.shift(new double[] {-1, 2}, b, 0.95));
    }

    /** 10 vs 10: c and the level against the null distribution of U enumerated over all C(20, 10) splits. */
    @Test
    void mosesIntervalUsesTheExactNullDistribution() {
        long[] count = new long[101];
        for (int mask = 0; mask < 1 << 20; mask++) {
            if (Integer.bitCount(mask) == 10) {
                int u = 0;
                for (int i = 0; i < 20; i++) {
                    u += (mask >> i & 1) == 1 ? i - Integer.bitCount(mask & ((1 << i) - 1)) : 0;
                }
                count[u]++;
            }
        }
        int c = -1;
        long below = 0;
        while ((below + count[c + 1]) / 184_756.0 <= 0.025) {
            below += count[++c];
        }
        assertEquals(23, c, "the tabled two-sided 5% critical value of U for 10 vs 10");
        double[] a = shuffled(10);
        double[] b = new double[10];
        for (int i = 0; i < 10; i++) {
            b[i] = 1.5 * a[(i * 3) % 10] + i;
        }
        double[] d = new double[100];
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                d[i * 10 + j] = Math.log(b[j]) - Math.log(a[i]);
            }
        }
        java.util.Arrays.sort(d);
        Stats.Interval interval = Stats.shift(a, b, Stats.CONFIDENCE).interval();
        assertEquals(1 - 2 * below / 184_756.0, interval.level(), EXACT);
        assertEquals(Math.exp(d[c]), interval.lo(), EXACT);
        assertEquals(Math.exp(d[99 - c]), interval.hi(), EXACT);
    }

    /** B is A's lognormal times 1.2: Moses' interval holds 1.2 as often as its level says. */
    @Test
    void mosesIntervalCoversTheTrueRatio() {
        Random random = new Random(23);
        int trials = 2000;
        int covered = 0;
        double level = Double.NaN;
        for (int t = 0; t < trials; t++) {
            double[] b = lognormal(random, 10, 1);
            for (int i = 0; i < b.length; i++) {
                b[i] *= 1.2;
            }
            Stats.Interval interval = Stats.shift(lognormal(random, 10, 1), b, Stats.CONFIDENCE).interval();
            level = interval.level();
            covered += interval.lo() <= 1.2 && 1.2 <= interval.hi() ? 1 : 0;
        }
        double rate = covered / (double) trials;
        assertTrue(level >= Stats.CONFIDENCE, "level " + level);
        assertEquals(level, rate, 0.03, "coverage " + rate + ", stated " + level);
    }

    /** Both sides from one distribution: p < 0.05 no more often than 5% (plus noise), and not far less at n = 10. */
    @Test
    void aaComparisonsAreRarelySignificant() {
        Random random = new Random(37);
        for (int n : new int[] {5, 10}) {
            int significant = 0;
            int trials = 4000;
            for (int t = 0; t < trials; t++) {
                significant += Stats.mannWhitneyP(lognormal(random, n, 1), lognormal(random, n, 1)) < 0.05 ? 1 : 0;
            }
            double rate = significant / (double) trials;
            assertTrue(rate <= 0.06, "n = " + n + ": " + rate);
            assertTrue(n < 10 || rate >= 0.02, "n = " + n + ": " + rate);
        }
    }

    /** 5 runs a side, B 1.5 times A with 5% noise: the change is found nearly always. */
    @Test
    void aFiftyPercentChangeIsSignificantAtFiveRuns() {
        Random random = new Random(41);
        int trials = 1000;
        int significant = 0;
        for (int t = 0; t < trials; t++) {
            DoubleSupplier noise = () -> 1 + 0.05 * random.nextGaussian();
            double[] a = new double[5];
            double[] b = new double[5];
            for (int i = 0; i < 5; i++) {
                a[i] = 100 * noise.getAsDouble();
                b[i] = 150 * noise.getAsDouble();
            }
            significant += Stats.shift(a, b, Stats.CONFIDENCE).significant() ? 1 : 0;
        }
        assertTrue(significant > 0.9 * trials, significant + " of " + trials);
    }

    @Test
    void geometricMeanAndCv() {
        assertEquals(4, Stats.geometricMean(new double[] {2, 8}), EXACT);
        assertTrue(Double.isNaN(Stats.geometricMean(new double[0])));
        assertTrue(Double.isNaN(Stats.geometricMean(new double[] {1, 0})));
        assertEquals(0.5, Stats.cv(new double[] {1, 2, 3}), EXACT);
        assertTrue(Double.isNaN(Stats.cv(new double[] {5})));
    }

    private static void assertInterval(double lo, double hi, double level, boolean range, Stats.Interval actual,
            String what) {
        assertEquals(lo, actual.lo(), EXACT, what);
        assertEquals(hi, actual.hi(), EXACT, what);
        assertEquals(level, actual.level(), EXACT, what);
        assertEquals(range, actual.range(), what);
    }

    /** 1..n in a scrambled order. */
    private static double[] shuffled(int n) {
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = (i * 7 + 3) % n + 1;
        }
        return xs;
    }

    private static double[] lognormal(Random random, int n, double mu) {
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = Math.exp(mu + 0.5 * random.nextGaussian());
        }
        return xs;
    }

    /** P(Bin(n, 1/2) <= k) from whole binomial coefficients. */
    private static double binomialHalfCdf(int n, int k) {
        long ways = 0;
        long c = 1;
        for (int j = 0; j <= k; j++) {
            ways += c;
            c = c * (n - j) / (j + 1);
        }
        return ways / Math.pow(2, n);
    }

    /** Mid-rank of x among the pooled values, by counting. */
    private static double midRank(double x, double[] a, double[] b) {
        double rank = 0.5;
        for (double[] side : new double[][] {a, b}) {
            for (double y : side) {
                rank += y < x ? 1 : y == x ? 0.5 : 0;
            }
        }
        return rank;
    }

    private static double bruteForceP(double[] a, double[] b) {
        int n = a.length + b.length;
        double[] ranks = new double[n];
        double observed = 0;
        for (int i = 0; i < n; i++) {
            ranks[i] = midRank(i < a.length ? a[i] : b[i - a.length], a, b);
            observed += i < a.length ? ranks[i] : 0;
        }
        double mean = a.length * (n + 1) / 2.0;
        int all = 0;
        int extreme = 0;
        for (int mask = 0; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) == a.length) {
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += (mask >> i & 1) == 1 ? ranks[i] : 0;
                }
                all++;
                extreme += Math.abs(sum - mean) >= Math.abs(observed - mean) - 1e-9 ? 1 : 0;
            }
        }
        return extreme / (double) all;
    }

    /** U by pairs, tie-corrected variance, continuity correction, and 2 * the normal tail by Simpson's rule. */
    private static double normalP(double[] a, double[] b) {
        double u = 0;
        for (double x : a) {
            for (double y : b) {
                u += x > y ? 1 : x == y ? 0.5 : 0;
            }
        }
        int n = a.length + b.length;
        double ties = 0;
        double[] pooled = java.util.stream.DoubleStream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b))
                .toArray();
        for (double x : pooled) {
            int t = 0;
            for (double y : pooled) {
                t += x == y ? 1 : 0;
            }
            ties += (t * (double) t * t - t) / t;
        }
        double sd = Math.sqrt(a.length * b.length / 12.0 * (n + 1 - ties / (n * (n - 1.0))));
        double z = (Math.abs(u - a.length * b.length / 2.0) - 0.5) / sd;
        int steps = 20_000;
        double h = 12.0 / steps;
        double integral = 0;
        for (int i = 0; i <= steps; i++) {
            double x = z + i * h;
            integral += (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2) * Math.exp(-x * x / 2);
        }
        return 2 * integral * h / 3 / Math.sqrt(2 * Math.PI);
    }
}
