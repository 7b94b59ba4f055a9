package stats;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bench's --precision adds fresh JVMs to a point until its 95% interval is narrow enough; stopping on the data can
 * bias an interval (it stops when a sample happens to be tight). This simulation draws JVMs from figures this machine
 * really produced (tests/resources/stats/jvms.csv: one JVM's req/s per line, from runs.csv of the bench runs its
 * header names), smoothed (a normal kernel of Silverman's width around each, so that draws are not copies), applies
 * bench's rule (at least 6, one more while the interval reaches further than the precision from the median on
 * either side, at most 10) and counts how often the interval holds the population's median.
 */
class SequentialStoppingTest {

    private static final int LEAST = 6;
    private static final int MOST = 10;
    private static final int TRIALS = 20_000;

    /** Per point of the fixture, its JVMs' figures. */
    private static Map<String, double[]> populations() throws IOException {
        Map<String, List<Double>> byPoint = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("tests/resources/stats/jvms.csv"))) {
            if (line.startsWith("#") || line.startsWith("point,") || line.isBlank()) {
                continue;
            }
            String[] cells = line.split(",");
            byPoint.computeIfAbsent(cells[0], k -> new ArrayList<>()).add(Double.parseDouble(cells[1]));
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        byPoint.forEach((k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    /** The realised coverage of bench's stopped interval for one population at one precision (% of the median). */
    static double coverage(double[] population, double precisionPct, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double h = bandwidth(population);
        double[] big = new double[200_001];
        for (int i = 0; i < big.length; i++) {
            big[i] = draw(population, h, random);
        }
        double median = Stats.median(big);
        int covered = 0;
        for (int t = 0; t < TRIALS; t++) {
            List<Double> sample = new ArrayList<>();
            Stats.Interval ci;
            while (true) {
                while (sample.size() < LEAST) {
                    sample.add(draw(population, h, random));
                }
                double[] xs = sample.stream().mapToDouble(Double::doubleValue).toArray();
                ci = Stats.medianInterval(xs, Stats.CONFIDENCE);
                double m = Stats.median(xs);
                if (Math.max(m - ci.lo(), ci.hi() - m) <= m * precisionPct / 100 || sample.size() >= MOST) {
                    break;
                }
                sample.add(draw(population, h, random));
            }
            if (ci.lo() <= median && median <= ci.hi()) {
                covered++;
            }
        }
        return (double) covered / TRIALS;
    }

    private static double draw(double[] population, double h, SplittableRandom random) {
        double x = population[random.nextInt(population.length)];
        // Box-Muller: one normal deviate of the kernel
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        return x + h * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    /** Silverman's rule of thumb: 0.9 min(sd, IQR / 1.34) n^(-1/5). */
    private static double bandwidth(double[] xs) {
        double mean = Arrays.stream(xs).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum() / (xs.length - 1));
        double[] s = xs.clone();
        Arrays.sort(s);
        double iqr = s[(int) Math.round(0.75 * (s.length - 1))] - s[(int) Math.round(0.25 * (s.length - 1))];
        double spread = iqr > 0 ? Math.min(sd, iqr / 1.34) : sd;
        return 0.9 * spread * Math.pow(xs.length, -0.2);
    }

    /**
     * At bench's default precision and at the tightest a user is likely to ask, the stopped interval covers the
     * median at least 93% of the time on every measured point (95% nominal; the exact intervals of 6 to 10 JVMs
     * have 96.9 to 97.9%, so a stopping bias would have to take more than 3 points from that to fail here).
     */
    @Test
    void theStoppedIntervalStillCoversTheMedian() throws IOException {
        StringBuilder seen = new StringBuilder();
        double worst = 1;
        for (Map.Entry<String, double[]> p : populations().entrySet()) {
            for (double pct : new double[] {2, 3, 5}) {
                double c = coverage(p.getValue(), pct, p.getKey().hashCode() * 31L + (long) pct);
                worst = Math.min(worst, c);
                seen.append(String.format(Locale.ROOT, "%s (%d JVMs) at ±%.0f%%: %.1f%%%n", p.getKey(),
                        p.getValue().length, pct, c * 100));
            }
        }
        System.out.print(seen);
        assertTrue(worst >= 0.93, "realised coverage:\n" + seen);
    }
}
