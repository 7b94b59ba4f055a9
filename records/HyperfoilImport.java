package records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hyperfoil's JSON export of a run ({@code export -f JSON} in Hyperfoil's CLI, written by its controller's
 * JsonWriter, run schema v3.0 in 0.25): its measured phases' figures as PssrBench rows. Each entry of {@code stats}
 * has the phase, the metric, {@code isWarmup} and {@code total.summary}: counts, response times in nanoseconds
 * ({@code percentileResponseTime} keyed "50.0", "90.0", "99.0", "99.9", "99.99") and the HTTP status counts under
 * {@code extensions.http}. Warm-up phases are skipped. The benchmark's name ({@code info.benchmark}) says which point
 * it measured, as {@code bench --driver=hyperfoil} names it: {@code pssr.SERVER.ENGINE.MODE.PAGE.cN[.rR]}.
 *
 * <p>Hyperfoil times the whole response only: these rows have no time to first byte and no first item, and no body
 * check (Hyperfoil counts statuses, not wrong bodies); their note says so.
 */
public final class HyperfoilImport {

    /** The tool column of Hyperfoil's rows. */
    public static final String TOOL = "hyperfoil";

    /** What every Hyperfoil row's note says about the columns it leaves empty. */
    public static final String NOTE = "Hyperfoil: no time to first byte or first item (it times whole responses"
            + " only), bodies not checked";

    /** The point a benchmark's name names. */
    public record Point(String server, String engine, String mode, String page, int connections, double rate) {
    }

    /**
     * One measured phase and metric. Times in nanoseconds; {@code seconds}: its statistics' span (end - start);
     * {@code hdrHistogram}: the compressed histogram PssrBench's embedded runner adds (null in Hyperfoil's export).
     */
    public record Phase(String benchmark, String phase, String metric, long responses, long status2xx,
                        long statusOther, long invalid, long connectionErrors, long timeouts, long internalErrors,
                        double seconds, long p50, long p90, long p99, long p999, long max, String hdrHistogram) {

        public long non2xx() {
            return statusOther;
        }

        public long ioErrors() {
            return connectionErrors + internalErrors;
        }

        public long errors() {
            return non2xx() + ioErrors() + timeouts;
        }

        public double reqPerS() {
            return seconds > 0 ? responses / seconds : Double.NaN;
        }

        public String errorDetail() {
            return String.format(Locale.ROOT, "non-2xx %d, wrong body -, i/o %d, timeout %d", non2xx(), ioErrors(),
                    timeouts);
        }

        /** This phase as a row of {@code point}, with {@code remark} added to {@link #NOTE}. */
        public Row row(Point point, String remark) {
            return Row.builder(TOOL, point.server(), point.engine(), point.mode(), point.page(),
                            point.connections(), point.rate())
                    .measured(seconds, responses, errors(), errorDetail(), reqPerS())
                    .ttlbMs(p50 / 1e6, p90 / 1e6, p99 / 1e6, p999 / 1e6, max / 1e6)
                    .remark(remark == null || remark.isEmpty() ? NOTE : NOTE + "; " + remark)
                    .build();
        }
    }

    private HyperfoilImport() {
    }

    /** The measured (not warm-up) phases of the export in {@code file}; an unreadable file fails with its reason. */
    public static List<Phase> read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        JsonNode stats = root == null ? null : root.get("stats");
        if (stats == null || !stats.isArray()) {
            throw new IllegalArgumentException(file + " is not a Hyperfoil JSON export (no \"stats\" list)");
        }
        String benchmark = root.path("info").path("benchmark").asText("");
        List<Phase> phases = new ArrayList<>();
        for (JsonNode s : stats) {
            if (s.path("isWarmup").asBoolean(false)) {
                continue;
            }
            JsonNode total = s.path("total");
            JsonNode sum = total.path("summary");
            JsonNode pct = sum.path("percentileResponseTime");
            JsonNode http = sum.path("extensions").path("http");
            long responses = sum.path("responseCount").asLong();
            long ok = http.path("status_2xx").asLong();
            long other = http.path("status_3xx").asLong() + http.path("status_4xx").asLong()
                    + http.path("status_5xx").asLong() + http.path("status_other").asLong();
            long start = total.path("start").asLong(sum.path("startTime").asLong());
            long end = total.path("end").asLong(sum.path("endTime").asLong());
            phases.add(new Phase(benchmark, s.path("phase").asText(), s.path("metric").asText(), responses, ok,
                    other, sum.path("invalid").asLong(), sum.path("connectionErrors").asLong(),
                    sum.path("requestTimeouts").asLong(), sum.path("internalErrors").asLong(),
                    (end - start) / 1000.0, pct.path("50.0").asLong(), pct.path("90.0").asLong(),
                    pct.path("99.0").asLong(), pct.path("99.9").asLong(), sum.path("maxResponseTime").asLong(),
                    s.hasNonNull("hdrHistogram") ? s.get("hdrHistogram").asText() : null));
        }
        return phases;
    }

    /** The point a benchmark named by {@code bench --driver=hyperfoil} measured; null for another name. */
    public static Point point(String benchmark) {
        String[] p = benchmark.split("\\.");
        if ((p.length != 6 && p.length != 7) || !p[0].equals("pssr") || !p[5].matches("c\\d+")
                || p.length == 7 && !p[6].matches("r\\d+")) {
            return null;
        }
        return new Point(p[1], p[2], p[3], p[4], Integer.parseInt(p[5].substring(1)),
                p.length == 7 ? Double.parseDouble(p[6].substring(1)) : 0);
    }
}
