package stats;

import java.util.List;

/**
 * The two variance components of a point measured in several JVMs with one or more windows each (a two-level
 * experiment: windows within a JVM, JVMs within the point), and from them, the number of windows per JVM that
 * gives the narrowest interval for a given machine time (Kalibera &amp; Jones, "Rigorous benchmarking in reasonable
 * time", ISMM 2013, section 4: r = sqrt(c_jvm / c_window &middot; T_window&sup2; / T_jvm&sup2;)).
 *
 * <p>Estimated as a one-way random-effects analysis of variance: {@code window} is the pooled variance of the
 * windows around their JVM's mean (from the JVMs with two windows or more), {@code jvm} what the variance of the
 * JVMs' means has beyond what their windows' variance explains ({@code var(means) - window * mean(1/k)}, at least
 * 0). Both as coefficients of variation (% of the grand mean), the form summary.csv writes them in.
 *
 * @param jvmCvPct    the between-JVM component's standard deviation, % of the mean; NaN when unknown (fewer than
 *                    two JVMs, or no JVM with two windows to separate it from the windows' own spread)
 * @param windowCvPct the within-JVM component's standard deviation, % of the mean; NaN when no JVM had two windows
 */
public record Components(double jvmCvPct, double windowCvPct) {

    /** The most windows per JVM the rule chooses: past it a fresh JVM is nearly always worth more. */
    public static final int MAX_WINDOWS = 4;

    /** The components of these JVMs' windows ({@code jvms}: per JVM, its windows' values). */
    public static Components of(List<double[]> jvms) {
        double sum = 0;
        int count = 0;
        double within = 0;
        int withinDf = 0;
        for (double[] xs : jvms) {
            double mean = Stats.mean(xs);
            for (double x : xs) {
                sum += x;
                count++;
                within += (x - mean) * (x - mean);
            }
            withinDf += xs.length - 1;
        }
        if (count == 0) {
            return new Components(Double.NaN, Double.NaN);
        }
        double grand = sum / count;
        double windowVar = withinDf == 0 ? Double.NaN : within / withinDf;
        double jvmVar = Double.NaN;
        if (jvms.size() >= 2 && withinDf > 0) {
            double[] means = jvms.stream().mapToDouble(Stats::mean).toArray();
            double meansMean = Stats.mean(means);
            double var = 0;
            double inverseK = 0;
            for (int i = 0; i < means.length; i++) {
                var += (means[i] - meansMean) * (means[i] - meansMean);
                inverseK += 1.0 / jvms.get(i).length;
            }
            var /= means.length - 1;
            jvmVar = Math.max(0, var - windowVar * inverseK / means.length);
        }
        return new Components(cv(jvmVar, grand), cv(windowVar, grand));
    }

    /**
     * The windows per JVM that minimise the interval's width for the machine time (Kalibera &amp; Jones), from the
     * cost of one more JVM for this point ({@code jvmSeconds}: its start, warm-up and first window's share) against
     * the cost of one more window in a JVM already warm ({@code windowSeconds}: the settle and the window); between
     * 1 and {@link #MAX_WINDOWS}; {@code fallback} while the components are unknown.
     */
    public int windowsPerJvm(double jvmSeconds, double windowSeconds, int fallback) {
        if (Double.isNaN(jvmCvPct) || Double.isNaN(windowCvPct)) {
            return fallback;
        }
        if (windowCvPct == 0) {
            return 1;   // a second window would only repeat the first
        }
        if (jvmCvPct == 0) {
            return MAX_WINDOWS;   // all of the spread is within a JVM: windows are the cheap way to average it
        }
        double r = Math.sqrt(jvmSeconds / windowSeconds * (windowCvPct * windowCvPct) / (jvmCvPct * jvmCvPct));
        return (int) Math.max(1, Math.min(MAX_WINDOWS, Math.round(r)));
    }

    private static double cv(double variance, double mean) {
        return Double.isNaN(variance) || mean == 0 ? Double.NaN : Math.sqrt(variance) / Math.abs(mean) * 100;
    }
}
