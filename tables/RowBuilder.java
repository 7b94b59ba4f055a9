package tables;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import static tables.Metric.*;

/**
 * Every measured row's one way in ({@link #of}): identity first, then the run, judged by
 * {@link Row#invalidReason}, then any other metric, by its own setter or by {@link #set}.
 */
public final class RowBuilder {

    private final Map<Metric, Object> values = new EnumMap<>(Metric.class);
    private final double targetRate;
    private boolean judged;
    private String invalid;
    private String remark;

    /**
     * A row of one point: what was measured, then either {@link #measured} (which judges it) or {@link #failed}.
     * {@code targetRate} 0 is a closed loop.
     */
    public static RowBuilder of(String tool, String server, String engine, String mode, String page,
                                int connections, double targetRate) {
        return new RowBuilder(tool, server, engine, mode, page, connections, targetRate);
    }

    private RowBuilder(String tool, String server, String engine, String mode, String page, int connections,
                       double targetRate) {
        this.targetRate = targetRate;
        set(TOOL, tool).set(SERVER, server).set(ENGINE, engine).set(MODE, mode).set(PAGE, page)
                .set(MODEL, targetRate > 0 ? Row.OPEN : Row.CLOSED).set(CONNECTIONS, connections)
                .set(RATE, Row.wholeRate(targetRate));
    }

    /** Any metric's value (null, or a decimal NaN: not measured). */
    public RowBuilder set(Metric metric, Object value) {
        values.put(metric, value);
        return this;
    }

    /** The run's totals, judged against the target rate; {@code errorDetail} names the kinds of error. */
    public RowBuilder measured(double durationS, long requests, long errors, String errorDetail, double reqPerS) {
        set(DURATION_S, durationS).set(REQUESTS, requests).set(ERRORS, errors).set(REQ_PER_S, reqPerS);
        this.invalid = Row.invalidReason(requests, errors, errorDetail, reqPerS, targetRate);
        this.judged = true;
        return this;
    }

    /** Not measured: no request, and why. */
    public RowBuilder failed(String why) {
        set(REQUESTS, 0L);
        this.invalid = Objects.requireNonNull(why);
        this.judged = true;
        return this;
    }

    /** What the load generator spoke ({@code h1}, {@code h2c}, {@code h2}) and its streams per connection. */
    public RowBuilder transport(String protocol, int streams) {
        return set(PROTOCOL, Objects.requireNonNull(protocol)).set(STREAMS, streams);
    }

    /** The note of a valid row (an invalid row's note is why it is invalid). */
    public RowBuilder remark(String remark) {
        this.remark = remark;
        return this;
    }

    public RowBuilder ttfbMs(double p50, double p99) {
        return set(TTFB_P50_MS, p50).set(TTFB_P99_MS, p99);
    }

    public RowBuilder sourceMs(double sourceMs) {
        return set(SOURCE_MS, sourceMs);
    }

    public RowBuilder chunksMean(double chunksMean) {
        return set(CHUNKS_MEAN, chunksMean);
    }

    public RowBuilder heapMb(double heapMb) {
        return set(HEAP_MB, heapMb);
    }

    /** The warm-up the point had, in seconds. */
    public RowBuilder warmupS(double seconds) {
        return set(WARMUP_S, seconds);
    }

    public RowBuilder ceilingFraction(double fraction) {
        return set(CEILING_FRACTION, fraction);
    }

    public RowBuilder firstItemP50Ms(double p50) {
        return set(FIRST_ITEM_P50_MS, p50);
    }

    /** Time to last byte: the 50th, 90th, 99th and 99.9th percentiles and the maximum. */
    public RowBuilder ttlbMs(double p50, double p90, double p99, double p999, double max) {
        return set(TTLB_P50_MS, p50).set(TTLB_P90_MS, p90).set(TTLB_P99_MS, p99).set(TTLB_P999_MS, p999)
                .set(TTLB_MAX_MS, max);
    }

    /** CPU per request: the server's and the load generator's. */
    public RowBuilder cpuMsPerReq(double server, double client) {
        return set(CPU_MS_PER_REQ, server).set(CLIENT_CPU_MS_PER_REQ, client);
    }

    public RowBuilder rssMb(double peak, double mean) {
        return set(RSS_PEAK_MB, peak).set(RSS_MEAN_MB, mean);
    }

    /** Peaks of the server's threads and virtual threads; null where not measured. */
    public RowBuilder threadsPeak(Long threads, Long virtualThreads) {
        return set(THREADS_PEAK, threads).set(VTHREADS_PEAK, virtualThreads);
    }

    /** Collections and their time over the measured window; null where not measured. */
    public RowBuilder gc(Long count, Long millis) {
        return set(GC_COUNT, count).set(GC_MS, millis);
    }

    /** The kernel's listen drops during the point, for the whole machine; null where not known. */
    public RowBuilder listenDrops(Long drops) {
        return set(LISTEN_DROPS, drops);
    }

    /**
     * What the rest of the machine did during the measured window: its CPU in cores and the steal time in %
     * (NaN: unknown); the window is disturbed when either passes its threshold.
     */
    public RowBuilder conditions(double foreignCores, double stealPercent) {
        boolean known = !Double.isNaN(foreignCores) || !Double.isNaN(stealPercent);
        return set(FOREIGN_CPU, foreignCores).set(STEAL_PCT, stealPercent)
                .set(DISTURBED, known ? Row.disturbs(foreignCores, stealPercent) : null);
    }

    public Row build() {
        if (!judged) {
            throw new IllegalStateException("a row is either measured or failed");
        }
        Map<Metric, Object> row = new EnumMap<>(values);
        row.put(VALID, invalid == null);
        row.put(NOTE, invalid != null ? invalid : remark);
        return Row.of(row, null);
    }
}
