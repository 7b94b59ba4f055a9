package report;

import stats.Repetitions;
import tables.Provenance;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bench results folder as a test needs it: runs.csv with every repetition of every point (combinations × pages,
 * 16 connections, closed loop) and a provenance.json with the delay, written from set figures with a small
 * multiplicative noise per repetition, so that what compare should find is known.
 */
public final class BenchFolder {

    /** The noise of repetition k: NOISE[(k - 1 + offset) % length], within ±1%. */
    private static final double[] NOISE = {1.000, 1.006, 0.994, 1.003, 0.997, 1.009, 0.991, 1.002};

    private List<String> combinations = List.of("nima/jstachio/virtual");
    private List<String> pages = List.of("presentations", "stocks");
    private int repetitions = 5;
    private int noise;
    private String delay = "1ms";
    private String protocol = Row.H1;
    private int streams = 1;
    private final Map<String, Double> slower = new LinkedHashMap<>();
    private final List<String> failing = new ArrayList<>();
    private final List<String> disturbed = new ArrayList<>();
    private final List<String> retried = new ArrayList<>();

    /** Combinations as server/engine/mode, each with {@code @N} where it ran on a platform pool of N threads. */
    public BenchFolder combinations(String... combinations) {
        this.combinations = List.of(combinations);
        return this;
    }

    public BenchFolder pages(String... pages) {
        this.pages = List.of(pages);
        return this;
    }

    public BenchFolder repetitions(int repetitions) {
        this.repetitions = repetitions;
        return this;
    }

    /** Which noise pattern: another offset gives other values around the same figures. */
    public BenchFolder noise(int offset) {
        this.noise = offset;
        return this;
    }

    /** The delay provenance.json records; null: none recorded. */
    public BenchFolder delay(String delay) {
        this.delay = delay;
        return this;
    }

    /** Every point measured over {@code protocol} with {@code streams} per connection. */
    public BenchFolder transport(String protocol, int streams) {
        this.protocol = protocol;
        this.streams = streams;
        return this;
    }

    /** Every combination slower by this factor: requests per second divided by it, latencies and CPU times it. */
    public BenchFolder slower(double factor) {
        combinations.forEach(c -> slower.put(c, factor));
        return this;
    }

    /** One combination slower by this factor. */
    public BenchFolder slower(String combination, double factor) {
        slower.put(combination, factor);
        return this;
    }

    /** Repetition {@code repetition} of the page fails (errors) for every combination. */
    public BenchFolder failing(String page, int repetition) {
        failing.add(page + "#" + repetition);
        return this;
    }

    /** Repetition {@code repetition} of the page was disturbed (another process's CPU) and not measured again. */
    public BenchFolder disturbed(String page, int repetition) {
        disturbed.add(page + "#" + repetition);
        return this;
    }

    /** Repetition {@code repetition} of the page was first disturbed, at half the throughput, then measured again. */
    public BenchFolder retried(String page, int repetition) {
        retried.add(page + "#" + repetition);
        return this;
    }

    /** Writes dir/runs.csv and dir/provenance.json; returns dir. */
    public Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (int k = 1; k <= repetitions; k++) {
            for (String combination : combinations) {
                for (String page : pages) {
                    double s = slower.getOrDefault(combination, 1.0);
                    double n = NOISE[(k - 1 + noise) % NOISE.length];
                    String at = page + "#" + k;
                    if (retried.contains(at)) {
                        Summary.append(dir.resolve(Repetitions.FILE), row(combination, page, s * 2, n, false, true,
                                protocol, streams).withRepetition(k));
                    }
                    Summary.append(dir.resolve(Repetitions.FILE), row(combination, page, s, n, failing.contains(at),
                            disturbed.contains(at), protocol, streams).withRepetition(k));
                }
            }
        }
        Files.writeString(dir.resolve(Provenance.FILE), "{\n  \"command\" : \"bench\",\n"
                + (delay == null ? "" : "  \"delay\" : \"" + delay + "\",\n")
                + "  \"source_scheduler\" : \"computation\",\n  \"repeat\" : " + repetitions + "\n}\n");
        return dir;
    }

    private static Row row(String combination, String page, double slower, double noise, boolean failing,
                           boolean disturbed, String protocol, int streams) {
        String[] pool = combination.split("@");
        String[] c = pool[0].split("/");
        double base = page.equals("stocks") ? 700 : 900;
        double t = slower * noise;
        double reqPerS = base / t;
        tables.RowBuilder b = RowBuilder.of(Row.PSSRBENCH, c[0], c[1], c[2], page, 16, 0).transport(protocol, streams)
                .set(tables.Metric.THREADS, pool.length == 1 ? null : Integer.valueOf(pool[1]));
        if (failing) {
            b.measured(2, Math.round(reqPerS * 2), 3, "timeout 3", reqPerS);
        } else {
            b.measured(2, Math.round(reqPerS * 2), 0, "", reqPerS);
        }
        return b.ttfbMs(0.2 * t, 2.0 * t).firstItemP50Ms(1.3 * t).ttlbMs(22 * t, 25 * t, 30 * t, 35 * t, 40 * t)
                .set(tables.Metric.TTLB_P95_MS, 27 * t).cpuMsPerReq(0.8 * t, 0.2 * t).conditions(disturbed ? 0.6 : 0.01, 0).build();
    }
}
