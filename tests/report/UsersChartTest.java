package report;

import stats.Repetitions;
import stats.ScalesTo;
import tables.Metric;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The published study's users chart in a section's throughput chart: knees, aggregated series; and ttlb p95. */
class UsersChartTest {

    private static final int[] USERS = {1, 2, 4, 8, 16};

    /**
     * Three repetitions of each point on nima (raw, three engines virtual and blocking, htmlflow suspendable) and
     * on netty (jstachio alone): the virtual mode rises until 8 users, the blocking mode until 2, and
     * {@code counts} limits the user counts measured. summary.csv as bench writes it (with scales_to).
     */
    private static List<Row> write(Path dir, int counts) throws IOException {
        List<Row> runs = new ArrayList<>();
        List<String> combinations = List.of("nima/raw/virtual", "nima/jstachio/virtual", "nima/pebble/virtual",
                "nima/trimou/virtual", "nima/jstachio/blocking", "nima/pebble/blocking", "nima/trimou/blocking",
                "nima/htmlflow/suspendable", "netty/jstachio/virtual", "netty/jstachio/blocking");
        for (String combination : combinations) {
            String[] c = combination.split("/");
            double engine = 1 + 0.1 * (combinations.indexOf(combination) % 3);
            for (int u : java.util.Arrays.copyOf(USERS, counts)) {
                int knee = c[2].equals("blocking") ? 2 : 8;
                double reqPerS = 300 * engine * Math.min(u, knee) * (u > knee ? 1.01 : 1);
                for (int rep = 1; rep <= 3; rep++) {
                    double jitter = 1 + 0.01 * (rep - 2);
                    runs.add(RowBuilder.of(Row.PSSRBENCH, c[0], c[1], c[2], "stocks", u, 0)
                            .measured(2, Math.round(reqPerS * 2), 0, "", reqPerS * jitter)
                            .ttlbMs(20 * jitter, 22, 30 * jitter, 31, 32).set(Metric.TTLB_P95_MS, 27.5 * jitter)
                            .sourceMs(19).build().withRepetition(rep));
                }
            }
        }
        Summary.write(dir.resolve(Repetitions.FILE), runs);
        List<Row> summary = ScalesTo.apply(Repetitions.summarize(runs));
        Summary.write(dir.resolve("summary.csv"), summary);
        return summary;
    }

    @Test
    void theThroughputChartShowsEachSeriesKneeAndTheAggregatedSeries(@TempDir Path dir) throws IOException {
        List<Row> summary = write(dir, USERS.length);
        assertTrue(summary.stream().allMatch(r -> r.get(Metric.SCALES_TO).equals(r.mode().equals("blocking") ? 2
                : 8)), "summary.csv: every point its series' figure");
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        Element nima = chart(doc, "Throughput, nima");
        List<String> legend = nima.select("text").eachText();
        for (String label : List.of("raw (baseline), scales to 8", "jstachio/virtual, scales to 8",
                "jstachio/blocking, scales to 2", "htmlflow/suspendable, scales to 8",
                "Blocking: mean of 3 engines (band: min\u2013max), scales to 2",
                "Virtual: mean of 3 engines (band: min\u2013max), scales to 8")) {
            assertTrue(legend.contains(label), label + " in " + legend);
        }
        // A diamond on each knee: eight series of the engines, two aggregates; each says which and where.
        assertEquals(10, nima.select("g.knee").size());
        assertTrue(nima.select("g.knee title").eachText().contains("Virtual: mean of 3 engines (band: min\u2013max)"
                + " scales to 8 connections"), nima.select("g.knee title").eachText().toString());
        assertTrue(nima.select("g.knee title").eachText().contains("jstachio/blocking scales to 2 connections"));
        // Whiskers on the engines' points only (8 series × 5 counts), the aggregates' band is not one.
        assertEquals(8 * USERS.length, nima.select("g.whisker").size());
        // One engine a mode on netty: no aggregate, the knees still.
        Element netty = chart(doc, "Throughput, netty");
        assertFalse(netty.text().contains("mean of"), netty.text());
        assertEquals(2, netty.select("g.knee").size());
        // How to read it, once, above the charts.
        assertTrue(doc.selectFirst("details#how summary").text().endsWith(", how far a series scales"));
        assertTrue(doc.selectFirst("details#how").text().contains("Blocking and Virtual are the study's aggregated"));
        // Only the throughput chart is the users chart.
        assertEquals(2, doc.select("svg").stream().filter(svg -> svg.text().contains("scales to")).count());
    }

    /**
     * The blocking mode on two pool sizes (bench --threads=4,200), two engines each: one aggregate per size, each
     * with its own knee, never one mean over both.
     */
    @Test
    void eachPoolSizeIsAnAggregateOfItsOwn(@TempDir Path dir) throws IOException {
        List<Row> runs = new ArrayList<>();
        for (String engine : List.of("jstachio", "pebble")) {
            for (int threads : new int[] {4, 200}) {
                for (int u : USERS) {
                    double reqPerS = 300 * Math.min(u, threads == 4 ? 2 : 8) * (engine.equals("pebble") ? 1.1 : 1);
                    for (int rep = 1; rep <= 3; rep++) {
                        double jitter = 1 + 0.01 * (rep - 2);
                        runs.add(RowBuilder.of(Row.PSSRBENCH, "nima", engine, "blocking", "stocks", u, 0)
                                .measured(2, Math.round(reqPerS * 2), 0, "", reqPerS * jitter)
                                .ttlbMs(20, 22, 30, 31, 32).set(Metric.THREADS, threads).sourceMs(19).build()
                                .withRepetition(rep));
                    }
                }
            }
        }
        Summary.write(dir.resolve(Repetitions.FILE), runs);
        Summary.write(dir.resolve("summary.csv"), ScalesTo.apply(Repetitions.summarize(runs)));
        List<String> legend = chart(Jsoup.parse(Report.write(dir, "raw").toFile()), "Throughput, nima")
                .select("text").eachText();
        for (String label : List.of("Blocking on 4 threads: mean of 2 engines (band: min\u2013max), scales to 2",
                "Blocking on 200 threads: mean of 2 engines (band: min\u2013max), scales to 8")) {
            assertTrue(legend.contains(label), label + " in " + legend);
        }
        assertTrue(legend.stream().noneMatch(l -> l.startsWith("Blocking: mean")), legend.toString());
    }

    @Test
    void oneUserCountGivesNoUsersChart(@TempDir Path dir) throws IOException {
        List<Row> summary = write(dir, 1);
        assertTrue(summary.stream().allMatch(r -> r.get(Metric.SCALES_TO) == null), "no figure from one count");
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        assertFalse(doc.select("svg").isEmpty());
        assertTrue(doc.select("svg g.knee").isEmpty());
        assertFalse(doc.text().contains("scales to"));
        assertFalse(doc.text().contains("mean of"));
        assertFalse(doc.text().contains("how far a series scales"));
    }

    /** ttlb p95 where the report shows p99: a column of each points table and a chart beside p99's. */
    @Test
    void ttlbP95IsInTheTablesAndTheCharts(@TempDir Path dir) throws IOException {
        write(dir, 2);
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        Element table = doc.getElementById("nima-stocks").parent().selectFirst("table.points");
        List<String> headers = table.select("thead th").eachText();
        int at = headers.indexOf("ttlb_p95_ms");
        assertEquals(headers.indexOf("ttlb_p99_ms") - 1, at, headers.toString());
        assertEquals("27.500", table.select("tbody tr").get(0).select("td").get(at).text(), "the median");
        assertEquals(8 * 2, chart(doc, "Time to last byte, 95th percentile, nima").select("g.whisker").size(),
                "an interval per point");
    }

    private static Element chart(Document doc, String title) {
        return doc.select("svg").stream().filter(svg -> svg.text().contains(title)).findFirst()
                .orElseThrow(() -> new AssertionError("no chart " + title));
    }
}
