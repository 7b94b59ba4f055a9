package bench;

import stats.Repetitions;
import tables.Metric;
import tables.Row;

import java.util.List;
import java.util.Set;

/**
 * How many JVMs and windows a point gets: the points --precision still finds too wide (one JVM more each), and the
 * windows a point measures per JVM (--windows, or Kalibera-Jones from its variance components).
 */
final class Precision {

    private Precision() {
    }

    /**
     * The keys of this sweep's valid points whose throughput has no 95% interval yet (fewer than 6 JVMs) or one that
     * reaches further from the median than --precision allows on either side: each is measured in one JVM more
     * (until --repeat-max). None without --precision.
     */
    static Set<String> tooWide(List<Row> rows, BenchConfig.Windows windows, String tool) {
        double pct = windows.precisionPct();
        Set<String> wide = new java.util.HashSet<>();
        if (pct <= 0) {
            return wide;
        }
        for (Row r : rows) {
            Double median = r.reqPerS();
            if (!r.valid() || !r.tool().equals(tool) || r.spread() == null || median == null
                    || !(median > 0)) {
                continue;
            }
            Double lo = r.spread().lo().get(Metric.REQ_PER_S.column());
            Double hi = r.spread().hi().get(Metric.REQ_PER_S.column());
            // A range of fewer than 6 JVMs is no 95% interval, however narrow it happens to be.
            if (lo == null || hi == null || r.spread().levelPct() < stats.Stats.CONFIDENCE * 100
                    || Math.max(median - lo, hi - median) > median * pct / 100) {
                wide.add(r.pointKey());
            }
        }
        return wide;
    }

    /**
     * The windows a point measures in each JVM: --windows, or chosen from its variance components so far (two until
     * two JVMs have measured two each, then Kalibera-Jones: a JVM's cost is its start and the point's warm-up, a
     * window's its settle and duration).
     */
    static int windowsOf(String key, List<Row> runs, BenchConfig.Windows config) {
        int fixed = config.fixedWindows();
        if (fixed > 0) {
            return fixed;
        }
        List<Row> windows = Repetitions.used(runs.stream().filter(r -> r.pointKey().equals(key)).toList());
        double window = Estimate.seconds(config.duration());
        double settling = Estimate.seconds(BenchConfig.NEXT_WINDOW);
        double warmup = windows.stream().filter(r -> Repetitions.window(r) == 1)
                .map(r -> r.get(Metric.WARMUP_S)).filter(v -> v instanceof Number).mapToDouble(v -> ((Number) v)
                        .doubleValue()).average().orElse(Estimate.AUTO_FIRST_SECONDS);
        return Repetitions.components(windows).windowsPerJvm(Estimate.SERVER_SECONDS + warmup + window,
                settling + window, 2);
    }
}
