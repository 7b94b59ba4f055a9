package bench;

import core.Combination;
import core.Page;
import core.Registry;
import core.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A short real sweep: one combination in its own server JVM, two connection counts, the closed loop. */
class BenchTest {

    @Test
    void aShortSweepWritesValidPointsWithTheirHistogramsAndProvenance(@TempDir Path out) throws Exception {
        Combination c = Registry.combinations().get(0);
        StringWriter console = new StringWriter();
        var sweep = new Bench.Sweep(List.of(c), List.of(Page.STOCKS), List.of(1, 4), List.of(),
                Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(1), 1, out, List.of(),
                Map.of("test", "true"), false, false);
        int invalid = new Bench(sweep, new PrintWriter(console, true)).run();
        assertEquals(0, invalid, console.toString());
        List<String> lines = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(Summary.header(), lines.get(0));
        assertEquals(3, lines.size(), lines.toString());
        for (String line : lines.subList(1, 3)) {
            String[] cells = line.split(",", -1);
            double ttfb = Double.parseDouble(cells[Summary.COLUMNS.indexOf("ttfb_p50_ms")]);
            double ttlb = Double.parseDouble(cells[Summary.COLUMNS.indexOf("ttlb_p50_ms")]);
            assertTrue(ttlb >= 20, "20 items at 1 ms each: " + line);
            assertTrue(ttfb < ttlb / 2, "the head streams ahead of the page: " + line);
            assertEquals(22.0, Double.parseDouble(cells[Summary.COLUMNS.indexOf("chunks_mean")]), 1e-9,
                    "head, 20 items, tail");
            assertTrue(Double.parseDouble(cells[Summary.COLUMNS.indexOf("cpu_ms_per_req")]) > 0, line);
        }
        try (var hgrm = Files.list(out.resolve("hgrm"))) {
            assertEquals(6, hgrm.count(), "ttfb, first item and ttlb per point");
        }
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"java\""));
        assertTrue(Files.readString(out.resolve("summary.json")).contains("\"req_per_s\""));
        assertTrue(console.toString().contains("bench: point 2/2"), console.toString());
    }
}
