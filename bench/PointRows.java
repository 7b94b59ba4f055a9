package bench;

import harness.CpuWatch;
import harness.ServerJmx;
import load.LoadGenerator;
import site.Combination;
import tables.Row;
import tables.RowBuilder;

import org.HdrHistogram.Histogram;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The rows bench writes ({@link Row}): a measured point's, from the load generator's result and the server's
 * resources; a point that could not be measured; which points are already in a results folder; and each closed-loop
 * point's {@code ceiling_fraction}, its throughput over the raw baseline's.
 */
final class PointRows {

    static final String TOOL = Row.PSSRBENCH;

    private PointRows() {
    }

    /** Server resources, sampled during the measured window only; -1 and null: not measured. */
    static final class Resources {
        long cpuStart = -1, cpuEnd = -1;
        long rssPeakKb = -1, rssSumKb, rssSamples, threadsPeak = -1;
        ServerJmx.Sample first, last;
        long vthreadsPeak = -1, heapAfterGcPeak = -1;

        void add(ServerJmx.Sample s) {
            if (first == null) {
                first = s;
            }
            last = s;
            vthreadsPeak = Math.max(vthreadsPeak, s.virtualThreads());
            heapAfterGcPeak = Math.max(heapAfterGcPeak, s.heapAfterGcBytes());
        }
    }

    private static RowBuilder of(Point p) {
        return of(TOOL, p);
    }

    private static RowBuilder of(String tool, Point p) {
        if (p.app() != null) {
            return RowBuilder.of(tool, ForeignApp.SERVER, p.app(), ForeignApp.MODE, p.page().id(), p.connections(),
                    p.rate()).transport(p.protocol().id(), p.streams());
        }
        Combination c = p.combination();
        return RowBuilder.of(tool, c.server().id(), c.engine().id(), c.mode().id(), p.page().id(), p.connections(),
                p.rate()).transport(p.protocol().id(), p.streams()).set(tables.Metric.THREADS, p.threads());
    }

    /** A point that was not measured, and why. */
    static Row failed(Point p, String why) {
        return failed(TOOL, p, why);
    }

    /** A point that {@code tool} did not measure, and why. */
    static Row failed(String tool, Point p, String why) {
        return of(tool, p).failed(why).build();
    }

    /**
     * A measured point: the load generator's result, the server's resources over the same window, the data
     * source's floor for the page (NaN: unknown), the kernel's listen drops (null: unknown) and the note of a valid
     * row (what could not be measured).
     */
    static Row measured(Point p, LoadGenerator.Result r, Resources res, double sourceMs, Long listenDrops,
                        String remark, CpuWatch.Conditions conditions) {
        return measured(TOOL, p, r, res, sourceMs, listenDrops, remark, conditions);
    }

    /** As above, measured by {@code tool} (its column): PssrBench's generator or Hyperfoil's engine. */
    static Row measured(String tool, Point p, LoadGenerator.Result r, Resources res, double sourceMs,
                        Long listenDrops, String remark, CpuWatch.Conditions conditions) {
        long requests = r.requests();
        boolean jmxOk = res.first != null;
        return of(tool, p)
                .measured(r.seconds(), requests, r.errors(), String.format(Locale.ROOT,
                        "non-2xx %d, wrong body %d, i/o %d, timeout %d", r.non2xx(), r.wrongBodies(), r.ioErrors(),
                        r.timeouts()), r.requestsPerSecond())
                .ttfbMs(ms(r.ttfb(), 50), ms(r.ttfb(), 99))
                .firstItemP50Ms(ms(r.firstItem(), 50))
                .ttlbMs(ms(r.ttlb(), 50), ms(r.ttlb(), 90), ms(r.ttlb(), 99), ms(r.ttlb(), 99.9),
                        r.ttlb().getTotalCount() == 0 ? Double.NaN : r.ttlb().getMaxValue() / 1000.0)
                .set(tables.Metric.TTLB_P95_MS, ms(r.ttlb(), 95))
                .sourceMs(sourceMs)
                .chunksMean(r.chunks() < 0 ? Double.NaN : r.chunksMean())
                .cpuMsPerReq(res.cpuStart < 0 || res.cpuEnd < 0 || requests == 0 ? Double.NaN
                                : (res.cpuEnd - res.cpuStart) / 1e6 / requests,
                        requests == 0 || r.clientCpuNanos() < 0 ? Double.NaN : r.clientCpuNanos() / 1e6 / requests)
                .rssMb(res.rssPeakKb < 0 ? Double.NaN : res.rssPeakKb / 1024.0,
                        res.rssSamples == 0 ? Double.NaN : res.rssSumKb / 1024.0 / res.rssSamples)
                .heapMb(!jmxOk || res.heapAfterGcPeak < 0 ? Double.NaN : res.heapAfterGcPeak / (1024.0 * 1024))
                .threadsPeak(res.threadsPeak < 0 ? null : res.threadsPeak,
                        !jmxOk || res.vthreadsPeak < 0 ? null : res.vthreadsPeak)
                .gc(jmxOk ? res.last.gcCount() - res.first.gcCount() : null,
                        jmxOk ? res.last.gcMillis() - res.first.gcMillis() : null)
                .listenDrops(listenDrops)
                .warmupS(r.warmupSeconds())
                .conditions(conditions.foreignCores(), conditions.stealPct())
                .remark(remark)
                .build();
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The point's key, as {@link Row#pointKey} gives it for its rows: which repetitions a --resume still needs. */
    static String key(Point p) {
        return key(TOOL, p);
    }

    /** As {@link #key(Point)} for {@code tool}'s rows. */
    static String key(String tool, Point p) {
        return failed(tool, p, "-").pointKey();
    }

    /**
     * The raw baseline's valid closed-loop throughput at each tool, server, mode, page, connection count, protocol,
     * streams and pool size: the ceiling of every engine's row at the same point.
     */
    static final class Ceilings {
        private record Where(String tool, String server, String mode, String page, int connections, String protocol,
                             int streams, Integer threads) {
            Where(Row r) {
                this(r.tool(), r.server(), r.mode(), r.page(), r.connections(), r.protocol(), r.streams(), r.threads());
            }
        }

        private final Map<Where, Double> ceilings = new HashMap<>();
        private final java.util.Set<String> baselines;

        /** {@code baselines}: the ids of the baseline engines, whose throughput is the ceiling. */
        Ceilings(java.util.Set<String> baselines) {
            this.baselines = baselines;
        }

        private static boolean measures(Row row) {
            return row.model().equals(Row.CLOSED) && row.valid() && row.reqPerS() != null;
        }

        /** Keeps the row's throughput if it is a valid closed-loop row of a baseline. */
        void note(Row row) {
            boolean baseline = baselines.contains(row.engine());
            if (baseline && measures(row)) {
                ceilings.put(new Where(row), row.reqPerS());
            }
        }

        /** The row with its ceiling_fraction where its baseline's throughput is known (a baseline's own is 1). */
        Row apply(Row row) {
            note(row);
            Double ceiling = ceilings.get(new Where(row));
            return ceiling != null && ceiling > 0 && measures(row) ? row.withCeilingFraction(row.reqPerS() / ceiling)
                    : row;
        }
    }
}
