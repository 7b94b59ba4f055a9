package bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import records.Repetitions;
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
import java.util.Map;
import java.util.Set;
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
        Done d = finish(bench(out, "--connections=1,4", "--repeat=2").start());
        assertEquals(0, d.code(), d.out() + d.err());

        List<Row> runs = Summary.read(out.resolve("runs.csv"));
        // A window disturbed by the machine's other work is measured again: more rows, never fewer.
        assertEquals(8, new HashSet<>(runs.stream().map(r -> r.pointKey() + " " + r.repetition()).toList()).size(),
                "2 combinations x 2 connection counts x 2 repetitions: " + runs);
        assertEquals(4, new HashSet<>(runs.stream().map(Row::pointKey).toList()).size());
        assertTrue(runs.stream().allMatch(r -> r.repetition() == 1 || r.repetition() == 2), runs.toString());
        assertTrue(runs.stream().allMatch(r -> r.disturbed() != null && r.foreignCpu() != null),
                "every window says what the rest of the machine did: " + runs);
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(List.of("jstachio", "jstachio", "raw", "raw"), rows.stream().map(Row::engine).sorted().toList(),
                "the baseline is added");
        for (Row row : rows) {
            assertEquals(2, row.spread().n(), "the median of two repetitions: " + Summary.csv(row));
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
        assertTrue(d.out().contains("bench: 8/8 repetition 2/2"), d.out());
        assertEquals(runs.size() - 8, d.out().split("measuring it again", -1).length - 1,
                "each window measured again is said: " + d.out());
        assertEquals(2, p.path("repeat").asInt(), provenance);
        assertTrue(p.has("seed") && p.path("flags").has("cpu_sets"), provenance);

        Path report = out.resolve("report.html");
        assertTrue(d.out().contains("bench: report in " + report.toAbsolutePath()), d.out());
        var html = Jsoup.parse(report.toFile(), "UTF-8");
        assertFalse(html.select("svg").isEmpty(), "charts inline");
        assertTrue(html.text().contains("raw (baseline)"), "the baseline is named in the charts");
    }

    @Test
    void ctrlCKeepsFinishedRepetitionsAndResumeMeasuresTheRest(@TempDir Path out) throws Exception {
        Process p = bench(out, "--connections=1,2", "--repeat=2").start();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        Path runsCsv = out.resolve("runs.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(runsCsv) && Files.readAllLines(runsCsv).size() >= 2)) {   // a first window is written
            assertTrue(System.nanoTime() < deadline && p.isAlive(), "a first window within 2 minutes");
            Thread.sleep(50);
        }
        List<ProcessHandle> children = p.descendants().toList();
        assertFalse(children.isEmpty(), "the server runs in a JVM of its own");
        p.toHandle().destroy();   // SIGTERM, handled as Ctrl-C (SIGINT) is; Process.destroy() would close the pipes
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(130, p.exitValue(), stdout.get() + stderr.get());
        assertTrue(stderr.get().startsWith("pssrbench: stopped") && stderr.get().contains("--resume"),
                "says in one sentence on stderr how to continue: " + stderr.get());
        for (ProcessHandle child : children) {
            assertTrue(child.onExit().get(30, TimeUnit.SECONDS) != null && !child.isAlive(), "no server left");
        }
        List<Row> before = Summary.read(runsCsv);
        int measured = new HashSet<>(before.stream().map(r -> r.pointKey() + " " + r.repetition()).toList()).size();
        assertTrue(measured >= 1 && measured < 8, "finished windows kept, the rest not measured: " + before);
        // What --resume keeps: the repetitions whose window is valid and undisturbed (a busy machine may leave one
        // disturbed in every attempt, and that one is measured again).
        Map<String, Set<Integer>> settled = Repetitions.settled(before);
        int kept = (int) before.stream().filter(r -> settled.get(r.pointKey()).contains(Repetitions.repetition(r)))
                .count();
        int done = settled.values().stream().mapToInt(Set::size).sum();

        Done refused = finish(bench(out, "--connections=1,2", "--repeat=2").start());
        assertEquals(2, refused.code(), "a folder that holds a sweep is not overwritten: " + refused.err());

        Done resumed = finish(bench(out, "--connections=1,2", "--repeat=2", "--resume").start());
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertTrue(resumed.out().contains(kept + " measured windows kept, " + (8 - done) + " to measure"),
                resumed.out());
        List<Row> runs = Summary.read(runsCsv);
        assertEquals(8, new HashSet<>(runs.stream().map(r -> r.pointKey() + r.repetition()).toList()).size(),
                "every point's two repetitions, each once (a disturbed one may have a second attempt): " + runs);
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(4, rows.size(), "raw and jstachio at 2 connection counts");
        assertTrue(rows.stream().allMatch(r -> r.spread() != null && r.spread().n() == 2), rows.toString());
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"later_runs\""), "the resumed run's record");

        // A window that was not valid (as if its server had failed) is measured again by the next --resume: the new
        // window stands for its repetition, the earlier one moves to runs-replaced.csv unchanged.
        Row first = runs.get(0);
        Row failed = Row.builder(first.tool(), first.server(), first.engine(), first.mode(), first.page(),
                        first.connections(), 0).transport(first.protocol(), first.streams())
                .failed("the server failed (a test's stand-in)").build().withRepetition(first.repetition());
        List<Row> tampered = new ArrayList<>(List.of(failed));   // in place of every attempt at that repetition
        runs.stream().filter(r -> !(r.pointKey().equals(first.pointKey()) && r.repetition().equals(first.repetition())))
                .forEach(tampered::add);
        Summary.write(runsCsv, tampered);
        Map<String, Set<Integer>> settledNow = Repetitions.settled(tampered);
        int again = 8 - settledNow.values().stream().mapToInt(Set::size).sum();
        assertTrue(again >= 1, "the failed window's repetition at least: " + tampered);
        Done fixed = finish(bench(out, "--connections=1,2", "--repeat=2", "--resume").start());
        assertEquals(0, fixed.code(), fixed.out() + fixed.err());
        assertTrue(fixed.out().contains(again + " to measure, " + again + " of them again ("), fixed.out());
        List<Row> replaced = Summary.read(out.resolve(Repetitions.REPLACED_FILE));
        assertTrue(replaced.contains(failed), "the failed window kept apart: " + replaced);
        List<Row> after = Summary.read(runsCsv);
        assertFalse(after.contains(failed), "and not in runs.csv: " + after);
        assertEquals(8, new HashSet<>(after.stream().map(r -> r.pointKey() + r.repetition()).toList()).size(),
                after.toString());
        List<Row> points = Summary.read(out.resolve("summary.csv"));
        assertEquals(4, points.size(), points.toString());
        assertTrue(points.stream().filter(Row::valid).allMatch(r -> r.spread().n() == 2),
                "two repetitions per point, each once: " + points);
    }

    /** A folder from before repetitions has no runs.csv to go on from: resuming it is refused, nothing measured. */
    @Test
    void aFolderFromBeforeRepetitionsIsNotResumed(@TempDir Path out) throws Exception {
        Files.writeString(out.resolve("summary.csv"), Summary.header() + "\n" + Summary.csv(Row.builder("pssrbench",
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
