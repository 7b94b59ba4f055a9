package records;

import java.util.Locale;
import java.util.Objects;

/**
 * One measured point, typed: a row of {@code summary.csv} ({@link Summary} writes and reads it), whatever the load
 * generator. A column a tool cannot measure is null (wrk has no time to first byte).
 *
 * <p>Decimals are kept at the precision the file keeps (three places), so a row read back equals the row written,
 * and what is computed from rows (the ceiling) is the same during a sweep and after a {@code --resume}. Rows are
 * born in one place, {@link Builder}, which applies the one validity rule, {@link #invalidReason}.
 *
 * @param model           {@code closed} or {@code open}, from the target rate
 * @param rate            the target rate in whole requests per second; null in a closed loop
 * @param valid           whether the point may be used: see {@link #invalidReason}
 * @param listenDrops     connection attempts the kernel dropped at a listening socket during the point (its
 *                        warm-up and measured window), counted for the whole machine (TcpExt ListenDrops); null
 *                        where not known: no /proc/net/netstat, a server on another machine, another tool (wrk)
 * @param ceilingFraction the throughput over the raw baseline's at the same point (bench's closed loop only)
 * @param note            why the point is not valid, else a remark ("" for none)
 * @param repetition      which repetition of the point this row is (runs.csv, from 1); null in a summary row, which
 *                        stands for all of them
 * @param warmupS         the warm-up the point had, in seconds ({@code --warmup=auto}: how long it took to reach
 *                        steady state); a summary row: the median
 * @param foreignCpu      CPU the rest of the machine used during the measured window, in cores (total busy CPU
 *                        minus the server's and the load generator's); null where not known
 * @param stealPct        the hypervisor's steal time during the window, in % of all CPU time; null where unknown
 * @param disturbed       whether foreign CPU or steal passed {@link #DISTURBED_FOREIGN_CPU} or
 *                        {@link #DISTURBED_STEAL_PCT}; a summary row: whether any repetition it uses was
 * @param spread          a summary row's repetitions and intervals (null in runs.csv and in other tools' rows)
 * @param protocol        what the load generator spoke: {@code h1} (HTTP/1.1, every row written before protocols),
 *                        {@code h2c} or {@code h2}; part of the point's identity
 * @param streams         HTTP/2 streams in flight per connection (1 over HTTP/1.1); part of the point's identity
 */
public record Row(String tool, String server, String engine, String mode, String page, String model,
                  int connections, Long rate, Double durationS, long requests, Long errors, boolean valid,
                  Double reqPerS, Double ttfbP50Ms, Double ttfbP99Ms, Double firstItemP50Ms, Double ttlbP50Ms,
                  Double ttlbP90Ms, Double ttlbP99Ms, Double ttlbP999Ms, Double ttlbMaxMs, Double sourceMs,
                  Double chunksMean, Double cpuMsPerReq, Double clientCpuMsPerReq, Double rssPeakMb,
                  Double rssMeanMb, Double heapMb, Long threadsPeak, Long vthreadsPeak, Long gcCount, Long gcMs,
                  Long listenDrops, Double ceilingFraction, String note, Integer repetition, Double warmupS,
                  Double foreignCpu, Double stealPct, Boolean disturbed, Spread spread, String protocol,
                  int streams) {

    /** The protocol of a row that does not say (written before protocols, another tool's): HTTP/1.1. */
    public static final String H1 = "h1";

    /**
     * Foreign CPU, in cores, above which a measured window counts as disturbed: a tenth of a core. Measured on the
     * project's 2-core machine at 128 connections: quiet windows read 0.00 (the raw difference within a few
     * hundredths of 0); a shell loop beside the saturated server and load generator got 0.57 to 0.66 cores and cut
     * the throughput by 13%; a neighbour's Maven build reads a core or more.
     */
    public static final double DISTURBED_FOREIGN_CPU = 0.10;
    /** Steal time, in % of all CPU time, above which a window counts as disturbed (a busy host under a VM). */
    public static final double DISTURBED_STEAL_PCT = 2.0;
    /**
     * The one rule for a disturbed measurement, whatever measured it (bench's windows, browser's loads, stress's
     * scenarios): foreign CPU or steal above its threshold. NaN (not known) passes neither.
     */
    public static boolean disturbs(double foreignCores, double stealPct) {
        return foreignCores > DISTURBED_FOREIGN_CPU || stealPct > DISTURBED_STEAL_PCT;
    }

    /** How many windows bench measures a repetition in at most while they come out disturbed (the first included). */
    public static final int DISTURBED_ATTEMPTS = 3;

    /** The metrics a summary row carries an interval for, by column name. */
    public static final java.util.List<String> INTERVAL_METRICS = java.util.List.of("req_per_s", "ttfb_p50_ms",
            "ttfb_p99_ms", "first_item_p50_ms", "ttlb_p50_ms", "ttlb_p99_ms", "cpu_ms_per_req");

    /**
     * The spread of a summary row over its repetitions: n (the repetitions it uses), the confidence its intervals
     * really have (an exact order-statistic interval for the median), whether they are only the range of the
     * repetitions (too few for 95%), and each {@link #INTERVAL_METRICS} bound (a metric missing: not measured).
     */
    public record Spread(int n, double levelPct, boolean range, java.util.Map<String, Double> lo,
                         java.util.Map<String, Double> hi) {
        public Spread {
            Double level = kept(levelPct);   // not finite: no level known, as 0 says
            levelPct = level == null ? 0 : level;
            lo = keptAll(lo);
            hi = keptAll(hi);
        }

        private static java.util.Map<String, Double> keptAll(java.util.Map<String, Double> bounds) {
            java.util.Map<String, Double> kept = new java.util.TreeMap<>();
            bounds.forEach((metric, value) -> {
                if (value != null && Double.isFinite(value)) {
                    kept.put(metric, kept(value));
                }
            });
            return java.util.Map.copyOf(kept);
        }
    }

    /** A row over HTTP/1.1, one request at a time per connection: every row written before protocols. */
    public Row(String tool, String server, String engine, String mode, String page, String model,
               int connections, Long rate, Double durationS, long requests, Long errors, boolean valid,
               Double reqPerS, Double ttfbP50Ms, Double ttfbP99Ms, Double firstItemP50Ms, Double ttlbP50Ms,
               Double ttlbP90Ms, Double ttlbP99Ms, Double ttlbP999Ms, Double ttlbMaxMs, Double sourceMs,
               Double chunksMean, Double cpuMsPerReq, Double clientCpuMsPerReq, Double rssPeakMb,
               Double rssMeanMb, Double heapMb, Long threadsPeak, Long vthreadsPeak, Long gcCount, Long gcMs,
               Long listenDrops, Double ceilingFraction, String note, Integer repetition, Double warmupS,
               Double foreignCpu, Double stealPct, Boolean disturbed, Spread spread) {
        this(tool, server, engine, mode, page, model, connections, rate, durationS, requests, errors, valid, reqPerS,
                ttfbP50Ms, ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms, ttlbMaxMs,
                sourceMs, chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb, threadsPeak,
                vthreadsPeak, gcCount, gcMs, listenDrops, ceilingFraction, note, repetition, warmupS, foreignCpu,
                stealPct, disturbed, spread, H1, 1);
    }

    /** A row without repetitions or conditions: another tool's, or one written before they existed. */
    public Row(String tool, String server, String engine, String mode, String page, String model,
               int connections, Long rate, Double durationS, long requests, Long errors, boolean valid,
               Double reqPerS, Double ttfbP50Ms, Double ttfbP99Ms, Double firstItemP50Ms, Double ttlbP50Ms,
               Double ttlbP90Ms, Double ttlbP99Ms, Double ttlbP999Ms, Double ttlbMaxMs, Double sourceMs,
               Double chunksMean, Double cpuMsPerReq, Double clientCpuMsPerReq, Double rssPeakMb,
               Double rssMeanMb, Double heapMb, Long threadsPeak, Long vthreadsPeak, Long gcCount, Long gcMs,
               Long listenDrops, Double ceilingFraction, String note) {
        this(tool, server, engine, mode, page, model, connections, rate, durationS, requests, errors, valid, reqPerS,
                ttfbP50Ms, ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms, ttlbMaxMs,
                sourceMs, chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb, threadsPeak,
                vthreadsPeak, gcCount, gcMs, listenDrops, ceilingFraction, note, null, null, null, null, null, null,
                H1, 1);
    }

    public static final String OPEN = "open";
    public static final String CLOSED = "closed";

    public Row {
        Objects.requireNonNull(tool);
        Objects.requireNonNull(server);
        Objects.requireNonNull(engine);
        Objects.requireNonNull(mode);
        Objects.requireNonNull(page);
        Objects.requireNonNull(model);
        note = note == null ? "" : note;
        protocol = protocol == null || protocol.isEmpty() ? H1 : protocol;
        if (streams < 1) {
            throw new IllegalArgumentException("a point has at least one stream per connection, not " + streams);
        }
        durationS = kept(durationS);
        reqPerS = kept(reqPerS);
        ttfbP50Ms = kept(ttfbP50Ms);
        ttfbP99Ms = kept(ttfbP99Ms);
        firstItemP50Ms = kept(firstItemP50Ms);
        ttlbP50Ms = kept(ttlbP50Ms);
        ttlbP90Ms = kept(ttlbP90Ms);
        ttlbP99Ms = kept(ttlbP99Ms);
        ttlbP999Ms = kept(ttlbP999Ms);
        ttlbMaxMs = kept(ttlbMaxMs);
        sourceMs = kept(sourceMs);
        chunksMean = kept(chunksMean);
        cpuMsPerReq = kept(cpuMsPerReq);
        clientCpuMsPerReq = kept(clientCpuMsPerReq);
        rssPeakMb = kept(rssPeakMb);
        rssMeanMb = kept(rssMeanMb);
        heapMb = kept(heapMb);
        ceilingFraction = kept(ceilingFraction);
        warmupS = kept(warmupS);
        foreignCpu = kept(foreignCpu);
        stealPct = kept(stealPct);
    }

    /**
     * A decimal as the file keeps it; NaN (not measured) is null, and so is an infinity: no measurement is infinite,
     * it can only come from a division by zero, and the files keep numbers only ({@link CsvFile} reads one as empty).
     */
    private static Double kept(Double value) {
        return value == null || !Double.isFinite(value) ? null : Double.valueOf(decimal(value));
    }

    /**
     * The one rule for a usable point, whatever the load generator: why it must not be used, or null. A point is
     * invalid with no completed request, with any error ({@code errorDetail} says which), or, at a target rate,
     * when the achieved rate is more than 5% away from it.
     */
    public static String invalidReason(long requests, long errors, String errorDetail, double achievedRate,
                                       double targetRate) {
        if (requests == 0) {
            return "no request completed";
        }
        if (errors > 0) {
            return "errors: " + errorDetail;
        }
        if (targetRate > 0 && Math.abs(achievedRate - targetRate) > 0.05 * targetRate) {
            return String.format(Locale.ROOT, "achieved %.1f req/s, more than 5%% from the target %.0f",
                    achievedRate, targetRate);
        }
        return null;
    }

    /**
     * Valid, or invalid only for missing its target rate (some requests completed, none failed): what a run at a
     * rate no server reaches gives, the most the server got through.
     */
    public boolean validButForItsRate() {
        return valid || invalidReason(requests, errors == null ? 0 : errors, "", 0, 0) == null;
    }

    /** The whole target rate of the {@code rate} column: null in a closed loop (a target of 0). */
    public static Long wholeRate(double targetRate) {
        return targetRate > 0 ? (long) targetRate : null;
    }

    public Row withCeilingFraction(double fraction) {
        return new Row(tool, server, engine, mode, page, model, connections, rate, durationS, requests, errors, valid,
                reqPerS, ttfbP50Ms, ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms,
                ttlbMaxMs, sourceMs, chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb,
                threadsPeak, vthreadsPeak, gcCount, gcMs, listenDrops, fraction, note, repetition, warmupS,
                foreignCpu, stealPct, disturbed, spread, protocol, streams);
    }

    /** This run's row as repetition {@code n} of its point (runs.csv). */
    public Row withRepetition(int n) {
        return new Row(tool, server, engine, mode, page, model, connections, rate, durationS, requests, errors, valid,
                reqPerS, ttfbP50Ms, ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms,
                ttlbMaxMs, sourceMs, chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb,
                threadsPeak, vthreadsPeak, gcCount, gcMs, listenDrops, ceilingFraction, note, n, warmupS,
                foreignCpu, stealPct, disturbed, spread, protocol, streams);
    }

    /** This row with its names (tool, server, engine, mode, page, model) mapped by {@code name}, its note by note. */
    public Row withText(java.util.function.UnaryOperator<String> name, java.util.function.UnaryOperator<String> note) {
        return new Row(name.apply(tool), name.apply(server), name.apply(engine), name.apply(mode), name.apply(page),
                name.apply(model), connections, rate, durationS, requests, errors, valid, reqPerS, ttfbP50Ms,
                ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms, ttlbMaxMs, sourceMs, chunksMean,
                cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb, threadsPeak, vthreadsPeak, gcCount, gcMs,
                listenDrops, ceilingFraction, note.apply(this.note), repetition, warmupS, foreignCpu, stealPct,
                disturbed, spread, protocol, streams);
    }

    /**
     * Which point this row is, whatever its repetition: the rows of one point share it. The protocol and the streams
     * are part of it: a point over h2c is never a repetition of the same point over HTTP/1.1.
     */
    public String pointKey() {
        return String.join("|", tool, server, engine, mode, page, model, String.valueOf(connections),
                String.valueOf(rate), protocol, String.valueOf(streams));
    }

    /** Whether the point was measured over HTTP/1.1, one request at a time per connection (as every row before). */
    public boolean plainHttp1() {
        return protocol.equals(H1) && streams == 1;
    }

    /** {@code h2c x8 streams} for a point over HTTP/2, {@code h1} otherwise: for labels and headings. */
    public String transport() {
        return protocol + (streams == 1 ? "" : " x" + streams + " streams");
    }

    /**
     * What was measured, for messages: {@code wrk nima jstachio virtual stocks closed c16} (and the rate; and the
     * protocol and streams where they are not HTTP/1.1's one).
     */
    public String label() {
        return String.join(" ", tool, server, engine, mode, page, model, "c" + connections)
                + (rate == null ? "" : " rate " + rate) + (plainHttp1() ? "" : " " + transport());
    }

    /**
     * A row of one point: what was measured, then either {@link #measured} (which judges it) or {@link #failed}.
     * {@code targetRate} 0 is a closed loop.
     */
    public static Builder builder(String tool, String server, String engine, String mode, String page,
                                  int connections, double targetRate) {
        return new Builder(tool, server, engine, mode, page, connections, targetRate);
    }

    /** Every row's one way in: identity first, then the run, judged by {@link #invalidReason}, then the rest. */
    public static final class Builder {
        private final String tool, server, engine, mode, page;
        private final int connections;
        private final double targetRate;
        private boolean judged;
        private String invalid;
        private String remark;
        private Double durationS, reqPerS, ttfbP50Ms, ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms,
                ttlbP999Ms, ttlbMaxMs, sourceMs, chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb,
                heapMb, ceilingFraction;
        private long requests;
        private Long errors, threadsPeak, vthreadsPeak, gcCount, gcMs, listenDrops;
        private Double warmupS, foreignCpu, stealPct;
        private Boolean disturbed;
        private String protocol = H1;
        private int streams = 1;

        private Builder(String tool, String server, String engine, String mode, String page, int connections,
                        double targetRate) {
            this.tool = tool;
            this.server = server;
            this.engine = engine;
            this.mode = mode;
            this.page = page;
            this.connections = connections;
            this.targetRate = targetRate;
        }

        /** The run's totals, judged against the target rate; {@code errorDetail} names the kinds of error. */
        public Builder measured(double durationS, long requests, long errors, String errorDetail, double reqPerS) {
            this.durationS = durationS;
            this.requests = requests;
            this.errors = errors;
            this.reqPerS = reqPerS;
            this.invalid = invalidReason(requests, errors, errorDetail, reqPerS, targetRate);
            this.judged = true;
            return this;
        }

        /** Not measured: no request, and why. */
        public Builder failed(String why) {
            this.requests = 0;
            this.invalid = Objects.requireNonNull(why);
            this.judged = true;
            return this;
        }

        /** What the load generator spoke ({@code h1}, {@code h2c}, {@code h2}) and its streams per connection. */
        public Builder transport(String protocol, int streams) {
            this.protocol = Objects.requireNonNull(protocol);
            this.streams = streams;
            return this;
        }

        /** The note of a valid row (an invalid row's note is why it is invalid). */
        public Builder remark(String remark) {
            this.remark = remark;
            return this;
        }

        public Builder ttfbMs(double p50, double p99) {
            this.ttfbP50Ms = p50;
            this.ttfbP99Ms = p99;
            return this;
        }

        public Builder firstItemP50Ms(double p50) {
            this.firstItemP50Ms = p50;
            return this;
        }

        /** Time to last byte: the 50th, 90th, 99th and 99.9th percentiles and the maximum. */
        public Builder ttlbMs(double p50, double p90, double p99, double p999, double max) {
            this.ttlbP50Ms = p50;
            this.ttlbP90Ms = p90;
            this.ttlbP99Ms = p99;
            this.ttlbP999Ms = p999;
            this.ttlbMaxMs = max;
            return this;
        }

        public Builder sourceMs(double sourceMs) {
            this.sourceMs = sourceMs;
            return this;
        }

        public Builder chunksMean(double chunksMean) {
            this.chunksMean = chunksMean;
            return this;
        }

        /** CPU per request: the server's and the load generator's. */
        public Builder cpuMsPerReq(double server, double client) {
            this.cpuMsPerReq = server;
            this.clientCpuMsPerReq = client;
            return this;
        }

        public Builder rssMb(double peak, double mean) {
            this.rssPeakMb = peak;
            this.rssMeanMb = mean;
            return this;
        }

        public Builder heapMb(double heapMb) {
            this.heapMb = heapMb;
            return this;
        }

        /** Peaks of the server's threads and virtual threads; null where not measured. */
        public Builder threadsPeak(Long threads, Long virtualThreads) {
            this.threadsPeak = threads;
            this.vthreadsPeak = virtualThreads;
            return this;
        }

        /** Collections and their time over the measured window; null where not measured. */
        public Builder gc(Long count, Long millis) {
            this.gcCount = count;
            this.gcMs = millis;
            return this;
        }

        /** The kernel's listen drops during the point, for the whole machine; null where not known. */
        public Builder listenDrops(Long drops) {
            this.listenDrops = drops;
            return this;
        }

        /** The warm-up the point had, in seconds. */
        public Builder warmupS(double seconds) {
            this.warmupS = seconds;
            return this;
        }

        /**
         * What the rest of the machine did during the measured window: its CPU in cores and the steal time in %
         * (NaN: unknown); the window is disturbed when either passes its threshold.
         */
        public Builder conditions(double foreignCores, double stealPercent) {
            this.foreignCpu = foreignCores;
            this.stealPct = stealPercent;
            boolean known = !Double.isNaN(foreignCores) || !Double.isNaN(stealPercent);
            this.disturbed = known ? disturbs(foreignCores, stealPercent) : null;
            return this;
        }

        public Builder ceilingFraction(double fraction) {
            this.ceilingFraction = fraction;
            return this;
        }

        public Row build() {
            if (!judged) {
                throw new IllegalStateException("a row is either measured or failed");
            }
            return new Row(tool, server, engine, mode, page, targetRate > 0 ? OPEN : CLOSED, connections,
                    wholeRate(targetRate), durationS, requests, errors, invalid == null, reqPerS, ttfbP50Ms,
                    ttfbP99Ms, firstItemP50Ms, ttlbP50Ms, ttlbP90Ms, ttlbP99Ms, ttlbP999Ms, ttlbMaxMs, sourceMs,
                    chunksMean, cpuMsPerReq, clientCpuMsPerReq, rssPeakMb, rssMeanMb, heapMb, threadsPeak,
                    vthreadsPeak, gcCount, gcMs, listenDrops, ceilingFraction, invalid != null ? invalid : remark,
                    null, warmupS, foreignCpu, stealPct, disturbed, null, protocol, streams);
        }
    }

    /** How a decimal is written in results: three places, whatever the locale; rows keep what the file keeps. */
    static String decimal(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f", value);
    }

    /** The tool column of the rows PssrBench's own load generator measures. */
    public static final String PSSRBENCH = "pssrbench";
    /** The server and mode of a foreign app's rows (bench --target --label): its engine column is the label. */
    public static final String FOREIGN = "foreign";
}
