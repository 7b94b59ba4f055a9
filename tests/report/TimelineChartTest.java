package report;

import importers.JfrTimelineTest;
import stats.Repetitions;
import tables.Summary;
import tables.TimelineCsv;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report's timeline from real recordings (two windows of this JVM, {@link JfrTimelineTest#record}) in a bench
 * results folder's {@code jfr/}: timeline.csv written from them, and the chart drawn from that file.
 */
class TimelineChartTest {

    @Test
    void aFolderWithRecordingsGetsTimelineCsvAndAChartOfItsWindows(@TempDir Path dir) throws Exception {
        new BenchFolder().repetitions(1).write(dir);
        Summary.write(dir.resolve("summary.csv"), Repetitions.summarize(Repetitions.read(dir.resolve(Repetitions.FILE))));
        Document plain = Jsoup.parse(Report.write(dir, "raw").toFile());
        assertNull(plain.getElementById("timeline"), "no recordings, no timeline");
        assertFalse(Files.exists(dir.resolve(TimelineCsv.FILE)));

        JfrTimelineTest.record(Files.createDirectories(dir.resolve("jfr")));
        Document doc = Jsoup.parse(Report.write(dir, "raw").toFile());
        assertTrue(Files.isRegularFile(dir.resolve(TimelineCsv.FILE)));
        check(doc);

        // The file is what is drawn: a folder archived without its recordings keeps its timeline.
        try (Stream<Path> files = Files.walk(dir.resolve("jfr"))) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        check(Jsoup.parse(Report.write(dir, "raw").toFile()));
    }

    private static void check(Document doc) {
        assertNotNull(doc.getElementById("timeline"));
        assertEquals(1, doc.select("nav a[href=#timeline]").size());
        Element svg = doc.getElementById("chart-timeline1");
        assertNotNull(svg, "one JVM's figure");
        assertNull(doc.getElementById("chart-timeline2"), "both windows are one JVM's");
        List<String> text = svg.select("text").eachText();
        assertTrue(text.contains("nima-jstachio-virtual-stocks-rep1"), text.toString());
        for (String label : List.of("c1", "c4", "server JVM", "machine", "GC pauses",
                "used after GC", "committed", "live platform threads", "virtual started")) {
            assertTrue(text.contains(label), label + " in " + text);
        }
    }
}
