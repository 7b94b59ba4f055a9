package stats;

import tables.Metric;
import tables.Row;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code scales_to}: up to which user count (closed-loop connections) a series still scales, the figure the published
 * study reads off its charts ("scales up to 64 users"). A series is every closed-loop point with the same identity
 * but for the connections (tool, server, engine, mode, page, protocol, streams and any identity column added later);
 * its figure is the last count at which its throughput set a new high beyond noise:
 *
 * <p>the largest valid count c whose req/s interval lies wholly above the interval of every smaller valid count
 * (its lower bound above their upper bounds) and whose median is at least {@link #MIN_RISE_PCT}% above theirs; the
 * smallest valid count when no count does so (the series does not scale beyond its first count). A point without an
 * interval (a single repetition, another tool's row) counts as the interval of its median alone, so the least rise
 * then decides. Invalid points are left out (the figure never names a count that failed); a series with fewer than
 * two valid counts has no figure, as one count says nothing about scaling. docs/method.md says why this rule.
 */
public final class ScalesTo {

    /**
     * The least rise of the median, in % of the highest earlier median, that counts as still scaling: a series that
     * gains less when its users double reads as flat on the study's charts, and points without an interval need a
     * threshold other than their (empty) intervals.
     */
    public static final double MIN_RISE_PCT = 5;

    private ScalesTo() {
    }

    /** One count of a series: its connections, and its throughput's median and interval (lo = hi = median: none). */
    public record Point(int users, double median, double lo, double hi) {
        public Point {
            if (!(lo <= median && median <= hi)) {
                throw new IllegalArgumentException("a median within its interval, not " + median + " in [" + lo
                        + ", " + hi + "]");
            }
        }
    }

    /**
     * The figure of a series from its valid points (any order, one per count), or null with fewer than two counts.
     */
    public static Integer of(List<Point> points) {
        List<Point> sorted = points.stream().sorted(Comparator.comparingInt(Point::users)).toList();
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).users() == sorted.get(i - 1).users()) {
                throw new IllegalArgumentException("one point per count, not two at " + sorted.get(i).users());
            }
        }
        if (sorted.size() < 2) {
            return null;
        }
        int scalesTo = sorted.get(0).users();
        double highestMedian = sorted.get(0).median();
        double highestBound = sorted.get(0).hi();
        for (Point p : sorted.subList(1, sorted.size())) {
            if (p.lo() > highestBound && p.median() >= highestMedian * (1 + MIN_RISE_PCT / 100)) {
                scalesTo = p.users();
            }
            highestMedian = Math.max(highestMedian, p.median());
            highestBound = Math.max(highestBound, p.hi());
        }
        return scalesTo;
    }

    /** A summary row's point: its connections and throughput, with its req/s interval where it has one. */
    public static Point point(Row r) {
        double median = r.reqPerS();
        double[] bounds = r.spread() == null ? null : r.spread().bounds(Metric.REQ_PER_S.column());
        if (bounds == null) {
            return new Point(r.connections(), median, median, median);
        }
        // The median and its bounds are each rounded to the file's three places: never let that put one outside.
        return new Point(r.connections(), median, Math.min(median, bounds[0]), Math.max(median, bounds[1]));
    }

    /** Which series a row belongs to: every identity column but the connections. */
    public static String series(Row r) {
        return java.util.Arrays.stream(Metric.values())
                .filter(m -> m.kind() == Metric.Kind.IDENTITY && m != Metric.CONNECTIONS)
                .map(m -> String.valueOf(r.get(m))).collect(Collectors.joining("|"));
    }

    /** Whether a row is a point of a series: valid, closed loop, its throughput measured. */
    public static boolean counts(Row r) {
        return r.valid() && Row.CLOSED.equals(r.model()) && r.reqPerS() != null;
    }

    /**
     * The rows, in their order, each valid closed-loop row with its series' figure in {@code scales_to}, every other
     * row's emptied (an invalid point, an open-loop one, a series of one count, or of two rows at one count).
     */
    public static List<Row> apply(List<Row> rows) {
        Map<String, List<Row>> bySeries = new LinkedHashMap<>();
        rows.stream().filter(ScalesTo::counts).forEach(r -> bySeries.computeIfAbsent(series(r),
                k -> new ArrayList<>()).add(r));
        Map<String, Integer> figures = new LinkedHashMap<>();
        bySeries.forEach((key, series) -> {
            boolean oneEach = series.stream().map(Row::connections).distinct().count() == series.size();
            figures.put(key, oneEach ? of(series.stream().map(ScalesTo::point).toList()) : null);
        });
        return rows.stream().map(r -> r.with(Metric.SCALES_TO, counts(r) ? figures.get(series(r)) : null)).toList();
    }
}
