package bench;

import harness.Kernel;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Short real sweeps through the packaged jar, as users run bench: a server JVM per combination, verified, measured,
 * its resources read over JMX, a report written. Ctrl-C and --resume are InterruptIT's (a stop at every moment of a
 * sweep, resumed to a complete folder) and BenchPlanTest's (a resume plans only the missing repetitions): a third
 * run of the same here cost a minute of CI.
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class BenchIT {

    private static Path jar;

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    /** Without the AOT cache: its training is AotCacheIT's, into a folder of its own, not the user's cache. */
    private static final String[] SHORT = {"bench", "--engine=jstachio", "--mode=virtual", "--warmup=500ms",
            "--duration=1s", "--no-aot-cache"};

    private static ProcessBuilder bench(Path out, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(SHORT));
        command.add("--out=" + out);
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    private record Done(int code, String out, String err) {
    }

    private static Done finish(Process p) throws Exception {
        CompletableFuture<String> out = harness.Drain.of(p.getInputStream());
        CompletableFuture<String> err = harness.Drain.of(p.getErrorStream());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bench finished in time");
        return new Done(p.exitValue(), out.get(), err.get());
    }

    private static double number(Row row, String column) {
        assertFalse(Double.isNaN(Summary.number(row, column)), column + " is measured: " + Summary.csv(row));
        return Summary.number(row, column);
    }

    @Test
    void aShortSweepMeasuresTheBaselineAndTheEngineAndWritesTheReport(@TempDir Path out) throws Exception {
        // Two windows per JVM, and a precision no interval meets: one round more, to --repeat-max.
        Done d = finish(bench(out, "--connections=1,4", "--repeat=1", "--windows=2", "--precision=0.01",
                "--repeat-max=2").start());
        assertEquals(0, d.code(), d.out() + d.err());

        List<Row> runs = Summary.read(out.resolve("runs.csv"));
        // A window disturbed by the machine's other work is measured again: more rows, never fewer.
        assertEquals(16, new HashSet<>(runs.stream().map(r -> r.pointKey() + " " + r.repetition() + " "
                + r.get(tables.Metric.WINDOW)).toList()).size(),
                "2 combinations x 2 connection counts x 2 repetitions x 2 windows: " + runs);
        assertTrue(d.out().contains("bench: 4 points wider than ±0.01% of the median: repetition 2 (at most 2)"),
                d.out());
        assertEquals(4, new HashSet<>(runs.stream().map(Row::pointKey).toList()).size());
        assertTrue(runs.stream().allMatch(r -> r.repetition() == 1 || r.repetition() == 2), runs.toString());
        assertTrue(runs.stream().allMatch(r -> r.disturbed() != null && r.foreignCpu() != null),
                "every window says what the rest of the machine did: " + runs);
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(List.of("jstachio", "jstachio", "raw", "raw"), rows.stream().map(Row::engine).sorted().toList(),
                "the baseline is added");
        for (Row row : rows) {
            assertEquals(2, row.spread().n(), "the median of two JVMs, each the mean of its windows: "
                    + Summary.csv(row));
            assertEquals(4, row.get(tables.Metric.WINDOWS), Summary.csv(row));
            assertTrue(row.get(tables.Metric.CV_WINDOW_PCT) != null, "both variance components: " + Summary.csv(row));
            assertTrue(row.spread().range(), "two repetitions give their range, not a 95% interval");
            assertTrue(row.spread().lo().get("req_per_s") <= row.reqPerS()
                    && row.reqPerS() <= row.spread().hi().get("req_per_s"), Summary.csv(row));
            assertTrue(row.valid(), Summary.csv(row));
            double ttlb = number(row, "ttlb_p50_ms");
            assertTrue(ttlb >= 20, "20 items at 1 ms each: " + Summary.csv(row));
            assertTrue(number(row, "ttfb_p50_ms") < ttlb / 2, "the head streams ahead of the page: " + Summary.csv(row));
            assertTrue(number(row, "source_ms") >= 20, "the data source alone takes 20 x 1 ms: " + Summary.csv(row));
            assertEquals(22.0, number(row, "chunks_mean"), 1e-9, "head, 20 items, tail");
            assertTrue(number(row, "cpu_ms_per_req") > 0, Summary.csv(row));
            assertTrue(number(row, "heap_mb") > 0, Summary.csv(row));
            assertTrue(number(row, "vthreads_peak") >= 1, "Helidon serves each connection on a virtual thread");
            assertTrue(number(row, "gc_count") >= 0 && number(row, "gc_ms") >= 0, Summary.csv(row));
            assertTrue(number(row, "ceiling_fraction") > 0, Summary.csv(row));
            assertTrue(java.util.List.of(1, 4).contains(row.get(tables.Metric.SCALES_TO)), "its series' figure, at"
                    + " one of its two counts: " + Summary.csv(row));
            if (Kernel.listenDrops() >= 0) {   // Linux: the kernel's counter over the point, for the whole machine
                assertTrue(number(row, "listen_drops") >= 0, Summary.csv(row));
            }
        }
        try (var hgrm = Files.list(out.resolve("hgrm"))) {
            assertEquals(3L * runs.size(), hgrm.count(), "ttfb, first item and ttlb per measured window");
        }
        String provenance = Files.readString(out.resolve("provenance.json"));
        assertTrue(provenance.contains("\"java\"") && provenance.contains("\"server_jvm_flags\""), provenance);
        var p = new ObjectMapper().readTree(provenance);
        assertEquals("bench", p.path("command").asText(), provenance);
        var flags = p.path("flags");   // as written on the command line, not Duration's PT0.5S or a List's [1, 4]
        assertEquals("500ms", flags.path("--warmup").asText(), provenance);
        assertEquals("jstachio", flags.path("--engine").asText(), provenance);
        assertEquals("1,4", flags.path("--connections").asText(), provenance);
        assertEquals("nima raw virtual", flags.path("selected").path(0).asText(), provenance);
        assertTrue(p.path("modes").path("virtual").asText().contains("virtual thread"),
                "what each measured mode runs on: " + provenance);
        assertFalse(p.path("libraries").toString().contains("unknown"), provenance);
        assertFalse(p.path("libraries").path("io.reactivex.rxjava3:rxjava").asText().isEmpty(), provenance);
        assertTrue(p.has("load_average_after"), "finished: " + provenance);
        assertTrue(d.out().contains("bench: 8/8 repetition 2/1-2"), d.out());
        assertEquals(runs.size() - 16, d.out().split("measuring it again", -1).length - 1,
                "each window measured again is said: " + d.out());
        assertEquals(1, p.path("repeat").asInt(), provenance);
        assertTrue(p.has("seed") && p.path("flags").has("cpu_sets"), provenance);

        Path report = out.resolve("report.html");
        assertTrue(d.out().contains("bench: report in " + report.toAbsolutePath()), d.out());
        var html = Jsoup.parse(report.toFile(), "UTF-8");
        assertFalse(html.select("svg").isEmpty(), "charts inline");
        assertTrue(html.text().contains("raw (baseline)"), "the baseline is named in the charts");
    }


    /** A folder from before repetitions has no runs.csv to go on from: resuming it is refused, nothing measured. */
    @Test
    void aFolderFromBeforeRepetitionsIsNotResumed(@TempDir Path out) throws Exception {
        Files.writeString(out.resolve("summary.csv"), Summary.header() + "\n" + Summary.csv(RowBuilder.of("pssrbench",
                "nima", "jstachio", "virtual", "stocks", 1, 0).measured(1, 40, 0, "", 40).build()) + "\n");
        // Such a folder had PssrBench's provenance.json too (its keys as every version writes them), so it is a
        // results folder: the refusal to test is the resume's, not the guard against foreign folders.
        Files.writeString(out.resolve("provenance.json"),
                "{\"pssrbench\":\"0.1.0\",\"command\":\"bench\",\"flags\":{\"--connections\":\"1\"}}\n");
        Done d = finish(bench(out, "--connections=1", "--resume").start());
        assertEquals(2, d.code(), d.out() + d.err());
        assertTrue(d.err().contains("was measured before repetitions (it has no runs.csv)"), d.err());
        assertFalse(Files.exists(out.resolve("runs.csv")));
    }
}
