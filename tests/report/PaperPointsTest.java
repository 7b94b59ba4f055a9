package report;

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

/** The published study's points on the users chart: beside the series that stand for them, and nowhere else. */
class PaperPointsTest {

    /**
     * Presentations at 1 to 128 users on {@code server} over {@code protocol}: htmlflow suspendable, jstachio
     * virtual, and pebble and trimou blocking (the study's Blocking aggregate), one repetition each.
     */
    private static Document report(Path dir, String server, String protocol) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (int u = 1; u <= 128; u *= 2) {
            for (String c : List.of("htmlflow/suspendable", "jstachio/virtual", "pebble/blocking", "trimou/blocking")) {
                String[] ec = c.split("/");
                double reqPerS = 30.0 * Math.min(u, ec[1].equals("blocking") ? 4 : 64);
                rows.add(RowBuilder.of(Row.PSSRBENCH, server, ec[0], ec[1], "presentations", u, 0)
                        .transport(protocol, 1).measured(10, Math.round(reqPerS * 10), 0, "", reqPerS)
                        .ttlbMs(20, 22, 30, 31, 32).set(Metric.TTLB_P95_MS, 30.0).sourceMs(19).build());
            }
        }
        Summary.write(dir.resolve("summary.csv"), ScalesTo.apply(rows));
        return Jsoup.parse(Report.write(dir, "raw").toFile());
    }

    @Test
    void thePapersPointsStandBesideTheMatchingSeries(@TempDir Path dir) throws IOException {
        Element chart = throughput(report(dir, "netty", Row.H1));
        List<String> titles = chart.select("g.paper title").eachText();
        String figure2 = " (Pereira & Carvalho 2025, Enabling Progressive Server-Side Rendering for Traditional Web"
                + " Template Engines with Java Virtual Threads, MDPI Software 4(3):20, Figure 2)";
        // Figure 2's series that the run measured: HtmlFlow-Susp and JStachio-Virtual (a peak and a count each),
        // Blocking (a count only); not HtmlFlow-Virtual, HtmlFlow-Rx or Thymeleaf-Rx.
        assertEquals(List.of("paper: Blocking on WebFlux, scales to 4" + figure2,
                "paper: HtmlFlow-Susp on WebFlux, 4,487 req/s, scales to 128" + figure2,
                "paper: JStachio-Virtual on WebFlux, 3,514 req/s, scales to 64" + figure2), titles.stream()
                .sorted().toList());
        assertTrue(chart.select("text").eachText().contains(
                "paper: WebFlux (netty stands in), Pereira & Carvalho 2025 Figure 2"), chart.text());
        // The y axis reaches the paper's peak (4,487), far above this run's (3,840 at most).
        assertTrue(chart.select("text").eachText().contains("4,500"), chart.select("text").eachText().toString());
    }

    /** No stand-in server, or the page over HTTP/2: the chart is the users chart alone, as it was. */
    @Test
    void aRunWithoutAMatchingSeriesDrawsNone(@TempDir Path dir) throws IOException {
        for (String[] run : new String[][] {{"nima", Row.H1}, {"netty", "h2c"}}) {
            Path folder = dir.resolve(run[0] + run[1]);
            java.nio.file.Files.createDirectories(folder);
            Document doc = report(folder, run[0], run[1]);
            Element chart = throughput(doc);
            assertTrue(doc.select("g.paper").isEmpty(), run[0] + " " + run[1]);
            assertFalse(doc.text().contains("paper:"), run[0] + " " + run[1]);
            assertFalse(chart.select("g.knee").isEmpty(), "the users chart all the same");
        }
    }

    private static Element throughput(Document doc) {
        return doc.select("svg").stream().filter(svg -> svg.text().contains("Throughput,")).findFirst()
                .orElseThrow();
    }
}
