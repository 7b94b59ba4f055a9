package stats;

import java.util.Arrays;

/**
 * Distribution-free statistics for repeated benchmark runs, which are few (3 to 30 a side), skewed and sometimes
 * tied: intervals from order statistics with their exact coverage, a change between two sets of runs as a ratio
 * (Hodges–Lehmann with Moses' interval) and the Mann–Whitney test. No normality is assumed anywhere except in the
 * normal approximation of the test for samples too large to enumerate.
 */
public final class Stats {

    /** The confidence every interval aims at. */
    public static final double CONFIDENCE = 0.95;

    /** The significance level of {@link Shift#significant()}. */
    public static final double ALPHA = 0.05;

    /** Up to this many splits of the pooled sample, {@link #mannWhitneyP} counts them all (exact permutation test). */
    private static final long EXACT_SPLITS = 200_000;

    /** Slack for comparing a computed probability with a level, so that a level met exactly is not lost to rounding. */
    private static final double SLACK = 1e-12;

    private Stats() {
    }

    /** The arithmetic mean of xs (not empty). */
    public static double mean(double[] xs) {
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.length;
    }

    /** Median of the values (mean of the two middle ones for even n). Throws IllegalArgumentException if empty. */
    public static double median(double[] xs) {
        double[] s = sorted(xs);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * An interval with the confidence it really has (levels are exact coverage for continuous data).
     *
     * @param range true when the sample was too small for the asked confidence and this is the sample's whole range
     */
    public record Interval(double lo, double hi, double level, boolean range) {

        /** Half the interval's width, in the values' unit. */
        public double halfWidth() {
            return (hi - lo) / 2;
        }
    }

    /**
     * Distribution-free interval for the median: order statistics [x_(k), x_(n+1-k)] with the largest k whose exact
     * binomial coverage 1 - 2*P(Bin(n, 1/2) &lt;= k-1) is &gt;= confidence. When no k reaches it (n &lt;= 5 at 0.95),
     * the whole range [min, max] with its real coverage 1 - 2^(1-n), marked range. n = 1: [x, x], level 0, range.
     * Throws IllegalArgumentException if empty or if confidence is not in (0, 1).
     */
    public static Interval medianInterval(double[] xs, double confidence) {
        checkConfidence(confidence);
        double[] s = sorted(xs);
        int n = s.length;
        // Exact binomial order-statistic interval: the median is below x_(k) only when at most k-1 of the n values
        // fall below it, each independently with probability 1/2; above x_(n+1-k) likewise, by symmetry.
        double[] cdf = binomialHalfCdf(n, (n - 1) / 2);
        int k = 0;
        while (k < (n + 1) / 2 && 1 - 2 * cdf[k] >= confidence - SLACK) {
            k++;
        }
        if (k == 0) {
            return new Interval(s[0], s[n - 1], 1 - 2 * cdf[0], true);
        }
        return new Interval(s[k - 1], s[n - k], 1 - 2 * cdf[k - 1], false);
    }

    /**
     * The change from a to b. ratio: Hodges–Lehmann estimate of b/a, exp(median of all pairwise log(b_j) - log(a_i));
     * [lo, hi]: Moses' distribution-free interval for that ratio, from the sorted pairwise log differences
     * [d_(c+1), d_(N-c)] where c is the largest integer with P(U &lt;= c) &lt;= (1-confidence)/2 under the exact
     * Mann–Whitney null distribution (N = nA*nB), level = 1 - 2 P(U &lt;= c); when even c = 0 is too wide (n 3 vs 3),
     * the whole range of differences with its real level, marked range. p: {@link #mannWhitneyP}(a, b); nA, nB: the
     * sample sizes.
     */
    public record Shift(double ratio, Interval interval, double p, int nA, int nB) {

        /** The change in percent: +100 when b is twice a. */
        public double changePct() {
            return (ratio - 1) * 100;
        }

        /** Whether the two-sided Mann–Whitney p is below {@link #ALPHA}. */
        public boolean significant() {
            return p < ALPHA;
        }
    }

    /**
     * The change from a to b as a {@link Shift}, assuming b is a's distribution scaled by a ratio. All values must be
     * &gt; 0: returns null otherwise, or when either side is empty. Throws IllegalArgumentException if confidence is
     * not in (0, 1).
     */
    public static Shift shift(double[] a, double[] b, double confidence) {
        checkConfidence(confidence);
        if (a.length == 0 || b.length == 0 || !positive(a) || !positive(b)) {
            return null;
        }
        int nA = a.length;
        int nB = b.length;
        int pairs = Math.multiplyExact(nA, nB);
        // Hodges–Lehmann / Moses on logs: a ratio b/a is a shift of log values, so the shift's estimate and interval
        // come from the nA*nB pairwise differences of logs.
        double[] d = new double[pairs];
        for (int i = 0; i < nA; i++) {
            for (int j = 0; j < nB; j++) {
                d[i * nB + j] = Math.log(b[j]) - Math.log(a[i]);
            }
        }
        Arrays.sort(d);
        double ratio = Math.exp(pairs % 2 == 1 ? d[pairs / 2] : (d[pairs / 2 - 1] + d[pairs / 2]) / 2);
        // The true shift is below d_(c+1) exactly when at most c differences fall below it, which happens with the
        // probability P(U <= c) of the Mann–Whitney count U; above d_(N-c) likewise. c < N/2 for any confidence > 0.
        double tail = (1 - confidence) / 2;
        int top = pairs / 2;
        double[] cdf = mannWhitneyCdf(nA, nB, top);
        int c = 0;
        while (c + 1 <= top && cdf[c + 1] <= tail + SLACK) {
            c++;
        }
        Interval interval = new Interval(Math.exp(d[c]), Math.exp(d[pairs - 1 - c]), 1 - 2 * cdf[c],
                cdf[0] > tail + SLACK);
        return new Shift(ratio, interval, mannWhitneyP(a, b), nA, nB);
    }

    /**
     * Two-sided Mann–Whitney U (Wilcoxon rank-sum) p-value, ties as mid-ranks; NaN when either side is empty.
     * When C(nA+nB, nA) &lt;= 200,000 it is an exact permutation test: p is the fraction of all splits of the pooled
     * mid-ranks into groups of nA and nB whose rank sum is at least as far from its mean as the observed one, so it
     * is exact with ties too. Beyond that it is the normal approximation of U, with the tie correction of its
     * variance and a continuity correction of 1/2. See {@link #mannWhitneyMethod}. p is capped at 1.
     */
    public static double mannWhitneyP(double[] a, double[] b) {
        int nA = a.length;
        int nB = b.length;
        if (nA == 0 || nB == 0) {
            return Double.NaN;
        }
        int n = nA + nB;
        double[] pooled = new double[n];
        System.arraycopy(a, 0, pooled, 0, nA);
        System.arraycopy(b, 0, pooled, nA, nB);
        Arrays.sort(pooled);
        // Mid-ranks doubled are integers: a tie group at sorted positions lo..hi-1 has rank (lo+1 + hi)/2 each, so
        // rank sums compare exactly, without a floating-point epsilon.
        int[] rank2 = new int[n];
        double ties = 0;
        for (int lo = 0, hi; lo < n; lo = hi) {
            hi = lo + 1;
            while (hi < n && pooled[hi] == pooled[lo]) {
                hi++;
            }
            Arrays.fill(rank2, lo, hi, lo + 1 + hi);
            ties += Math.pow(hi - lo, 3) - (hi - lo);
        }
        long sumA = 0;
        for (double x : a) {
            sumA += rank2[Arrays.binarySearch(pooled, x)];
        }
        long dev = Math.abs(sumA - (long) nA * (n + 1));
        if (splits(nA, nB) <= EXACT_SPLITS) {
            return exactP(rank2, Math.min(nA, nB), dev);
        }
        // Normal approximation: U = R_A - nA(nA+1)/2 has mean nA*nB/2 and, with ties, variance
        // nA*nB/12 * (n+1 - sum(t^3 - t)/(n(n-1))); |U - mean| = |R_A - nA(n+1)/2| = dev/2 (dev is in doubled ranks).
        double variance = (double) nA * nB / 12 * (n + 1 - ties / ((double) n * (n - 1)));
        if (variance <= 0) {
            return 1;
        }
        double z = Math.max(0, dev / 2.0 - 0.5) / Math.sqrt(variance);
        return Math.min(1, erfc(z / Math.sqrt(2)));
    }

    /** Which test {@link #mannWhitneyP} uses for these sizes: "exact permutation" or "normal approximation". */
    public static String mannWhitneyMethod(int nA, int nB) {
        return splits(nA, nB) <= EXACT_SPLITS ? "exact permutation" : "normal approximation";
    }

    /** Geometric mean of positive ratios (NaN if empty or any is &lt;= 0). */
    public static double geometricMean(double[] ratios) {
        if (ratios.length == 0 || !positive(ratios)) {
            return Double.NaN;
        }
        return Math.exp(Arrays.stream(ratios).map(Math::log).sum() / ratios.length);
    }

    /** Coefficient of variation (sample standard deviation / mean), NaN for n &lt; 2. */
    public static double cv(double[] xs) {
        int n = xs.length;
        if (n < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(xs).sum() / n;
        double squares = Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(squares / (n - 1)) / mean;
    }

    /**
     * The exact permutation p: the fraction of the C(n, m) ways to give m of the doubled mid-ranks to one group whose
     * sum is at least dev from its mean m(n+1). Counted by a DP over rank sums (subset-sum counts per group size), so
     * it costs n*m*2mn steps instead of visiting every split; one group of one needs no DP.
     */
    private static double exactP(int[] rank2, int m, long dev) {
        int n = rank2.length;
        long mean = (long) m * (n + 1);
        if (m == 1) {
            return Arrays.stream(rank2).filter(r -> Math.abs(r - mean) >= dev).count() / (double) n;
        }
        int top = 2 * m * n;
        long[][] count = new long[m + 1][top + 1];
        count[0][0] = 1;
        for (int k = 0; k < n; k++) {
            for (int j = Math.min(k + 1, m); j >= 1; j--) {
                for (int s = top; s >= rank2[k]; s--) {
                    count[j][s] += count[j - 1][s - rank2[k]];
                }
            }
        }
        long all = 0;
        long extreme = 0;
        for (int s = 0; s <= top; s++) {
            all += count[m][s];
            extreme += Math.abs(s - mean) >= dev ? count[m][s] : 0;
        }
        return Math.min(1, (double) extreme / all);
    }

    /**
     * P(U &lt;= u) for u = 0..top under the Mann–Whitney null without ties. U's generating function is the Gaussian
     * binomial [m+n choose m]_q / C(m+n, m) = prod over i = 1..m of (1 - q^(n+i)) / (1 - q^i) * i/(n+i); each step
     * leaves the distribution of U for (i, n), so nothing overflows, and as each factor only moves mass upward,
     * truncating at degree top keeps the coefficients up to top exact. Costs m*top steps.
     */
    private static double[] mannWhitneyCdf(int m, int n, int top) {
        double[] g = new double[top + 1];
        g[0] = 1;
        for (int i = 1; i <= m; i++) {
            for (int u = i; u <= top; u++) {
                g[u] += g[u - i];
            }
            for (int u = top; u >= n + i; u--) {
                g[u] -= g[u - n - i];
            }
            double scale = (double) i / (n + i);
            for (int u = 0; u <= top; u++) {
                g[u] *= scale;
            }
        }
        for (int u = 1; u <= top; u++) {
            g[u] += g[u - 1];
        }
        return g;
    }

    /** P(Bin(n, 1/2) &lt;= j) for j = 0..top, from the pmf in logs so that large n does not underflow 2^-n. */
    private static double[] binomialHalfCdf(int n, int top) {
        double[] cdf = new double[top + 1];
        double logPmf = -n * Math.log(2);
        double sum = 0;
        for (int j = 0; j <= top; j++) {
            sum += Math.exp(logPmf);
            cdf[j] = sum;
            logPmf += Math.log((double) (n - j) / (j + 1));
        }
        return cdf;
    }

    /** C(nA+nB, nA), or EXACT_SPLITS + 1 as soon as it is known to exceed EXACT_SPLITS. */
    private static long splits(int nA, int nB) {
        int m = Math.min(nA, nB);
        long c = 1;
        for (int i = 1; i <= m && c <= EXACT_SPLITS; i++) {
            c = c * (Math.max(nA, nB) + i) / i;
        }
        return Math.min(c, EXACT_SPLITS + 1);
    }

    /** erfc(x) for x &gt;= 0: Numerical Recipes' Chebyshev fit (erfcc), relative error below 1.2e-7 everywhere. */
    private static double erfc(double x) {
        double t = 1 / (1 + 0.5 * x);
        return t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
    }

    private static double[] sorted(double[] xs) {
        if (xs.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        return s;
    }

    private static boolean positive(double[] xs) {
        return Arrays.stream(xs).allMatch(x -> x > 0 && x < Double.POSITIVE_INFINITY);
    }

    private static void checkConfidence(double confidence) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
        }
    }
}
