package bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import records.Row;
import records.Summary;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * its resources read over JMX, a report written; Ctrl-C keeps finished points and --resume measures the rest.
 */
class BenchIT {

    private static Path jar;

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    private static final String[] SHORT = {"bench", "--engine=jstachio", "--mode=virtual", "--warmup=500ms",
            "--duration=1s"};

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
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bench finished in time");
        return new Done(p.exitValue(), out.get(), err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double number(Row row, String column) {
        assertFalse(Double.isNaN(Summary.number(row, column)), column + " is measured: " + Summary.csv(row));
        return Summary.number(row, column);
    }

    @Test
    void aShortSweepMeasuresTheBaselineAndTheEngineAndWritesTheReport(@TempDir Path out) throws Exception {
        Done d = finish(bench(out, "--connections=1,4").start());
        assertEquals(0, d.code(), d.out() + d.err());

        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(List.of("raw", "raw", "jstachio", "jstachio"), rows.stream().map(Row::engine).toList(),
                "the baseline is added and measured first");
        for (Row row : rows) {
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
            if (Kernel.listenDrops() >= 0) {   // Linux: the kernel's counter over the point, for the whole machine
                assertTrue(number(row, "listen_drops") >= 0, Summary.csv(row));
            }
        }
        try (var hgrm = Files.list(out.resolve("hgrm"))) {
            assertEquals(12, hgrm.count(), "ttfb, first item and ttlb per point");
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
        assertFalse(p.path("libraries").toString().contains("unknown"), provenance);
        assertFalse(p.path("libraries").path("io.reactivex.rxjava3:rxjava").asText().isEmpty(), provenance);
        assertTrue(p.has("load_average_after"), "finished: " + provenance);
        assertTrue(d.out().contains("bench: point 4/4"), d.out());

        Path report = out.resolve("report.html");
        assertTrue(d.out().contains("bench: report in " + report.toAbsolutePath()), d.out());
        var html = Jsoup.parse(report.toFile(), "UTF-8");
        assertFalse(html.select("svg").isEmpty(), "charts inline");
        assertTrue(html.text().contains("raw (baseline)"), "the baseline is named in the charts");
    }

    @Test
    void ctrlCKeepsFinishedPointsAndResumeMeasuresTheRest(@TempDir Path out) throws Exception {
        Process p = bench(out, "--connections=1,2,4,8").start();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        Path csv = out.resolve("summary.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(csv) && Files.readAllLines(csv).size() >= 2)) {   // the first point is written
            assertTrue(System.nanoTime() < deadline && p.isAlive(), "a first point within 2 minutes");
            Thread.sleep(50);
        }
        List<ProcessHandle> children = p.descendants().toList();
        assertFalse(children.isEmpty(), "the server runs in a JVM of its own");
        p.toHandle().destroy();   // SIGTERM, handled as Ctrl-C (SIGINT) is; Process.destroy() would close the pipes
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(130, p.exitValue(), stdout.get() + stderr.get());
        assertTrue(stdout.get().contains("--resume"), "says how to continue: " + stdout.get());
        for (ProcessHandle child : children) {
            assertTrue(child.onExit().get(30, TimeUnit.SECONDS) != null && !child.isAlive(), "no server left");
        }
        int kept = Summary.read(csv).size();
        assertTrue(kept >= 1 && kept < 8, "finished points kept, the rest not measured: " + kept);
        // As a version before listen_drops wrote it: the resume must read it and go on in the current columns.
        int at = Summary.COLUMNS.indexOf("listen_drops");
        List<String> earlier = Files.readAllLines(csv).stream().map(line -> {
            List<String> cells = new ArrayList<>(List.of(line.split(",", at + 2)));   // the note stays whole
            cells.remove(at);
            return String.join(",", cells);
        }).toList();
        assertFalse(earlier.get(0).contains("listen_drops"), earlier.get(0));
        Files.write(csv, earlier);

        Done refused = finish(bench(out, "--connections=1,2,4,8").start());
        assertEquals(2, refused.code(), "a folder that holds a sweep is not overwritten: " + refused.err());

        Done resumed = finish(bench(out, "--connections=1,2,4,8", "--resume").start());
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertTrue(resumed.out().contains(kept + " points kept, " + (8 - kept) + " to measure"), resumed.out());
        List<Row> rows = Summary.read(csv);
        assertEquals(8, rows.size(), "raw and jstachio at 4 connection counts, each once");
        assertEquals(Summary.header(), Files.readAllLines(csv).get(0), "rewritten in the current columns");
        assertTrue(rows.subList(0, kept).stream().allMatch(r -> r.listenDrops() == null), "not known then");
        if (Kernel.listenDrops() >= 0) {
            assertTrue(rows.subList(kept, 8).stream().allMatch(r -> r.listenDrops() != null), "measured now");
        }
        assertEquals(8, new HashSet<>(rows.stream().map(r -> r.engine() + r.connections()).toList()).size());
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"later_runs\""), "the resumed run's record");
    }
}
