package bench;

import tables.Row;
import tables.Summary;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AOT cache through the packaged jar on JDK 25 (the class path a jar, as the JDK's cache needs): a first sweep
 * trains it, a second starts from it without training, a damaged cache fails the start in bench's one sentence,
 * and --no-aot-cache starts without it (so past the damaged file). Its cache folder is a temporary one
 * ({@code PSSRBENCH_AOT_CACHE}), never the user's.
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class AotCacheIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Done(int code, String out) {
    }

    private static Done bench(Path cache, Path out, String... more) throws Exception {
        Path jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString(), "bench", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--no-baseline", "--connections=1", "--warmup=500ms", "--duration=1s", "--repeat=1", "--out=" + out));
        command.addAll(List.of(more));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        b.environment().put(harness.AotCache.FOLDER_ENV, cache.toString());
        Process p = b.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bench finished in time");
        return new Done(p.exitValue(), text);
    }

    private static List<Path> caches(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.toList();
        }
    }

    private static JsonNode provenance(Path out) throws IOException {
        return JSON.readTree(out.resolve("provenance.json").toFile());
    }

    @Test
    void trainedOnceThenUsedAndADamagedCacheFailsLoudly(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= harness.AotCache.LEAST_FEATURE, "JDK 25 or newer");
        Path cache = dir.resolve("cache");

        Done first = bench(cache, dir.resolve("first"));
        assertEquals(0, first.code(), first.out());
        assertTrue(first.out().contains("bench: trained the AOT cache of jdk-jstachio-virtual in "), first.out());
        assertEquals(1, caches(cache).size(), "one cache, whole (no temporary file left): " + caches(cache));
        Path file = caches(cache).get(0);
        assertTrue(file.getFileName().toString().matches("jdk-jstachio-virtual-[0-9a-f]{16}\\.aot"), file.toString());
        JsonNode trained = provenance(dir.resolve("first"));
        assertEquals("on: " + cache, trained.path("aot_cache").asText(), trained.toString());
        JsonNode used = trained.path("aot_caches").path(0);
        assertEquals(file.toString(), used.path("file").asText(), trained.toString());
        assertEquals(Files.size(file), used.path("bytes").asLong(), trained.toString());
        assertTrue(used.path("trained_s").asDouble() > 0, trained.toString());

        Done second = bench(cache, dir.resolve("second"));
        assertEquals(0, second.code(), second.out());
        assertFalse(second.out().contains("trained the AOT cache"), "the cache is found: " + second.out());
        assertEquals("found", provenance(dir.resolve("second")).path("aot_caches").path(0).path("trained_s").asText());
        assertTrue(Summary.read(dir.resolve("second").resolve("summary.csv")).stream().allMatch(Row::valid));
        // phases.csv: the repetition's fixed costs, the cache only looked up this time.
        List<String> phases = Files.readAllLines(dir.resolve("second").resolve(PhaseLog.FILE));
        assertEquals(String.join(",", PhaseLog.HEADER), phases.get(0));
        String[] row = phases.get(1).split(",");
        assertEquals(List.of("1", "jdk-jstachio-virtual"), List.of(row[0], row[1]), phases.toString());
        assertTrue(Double.parseDouble(row[2]) > 0 && Double.parseDouble(row[3]) < 1,
                "verified, no training: " + phases);
        for (int i = 4; i < row.length; i++) {
            assertTrue(Double.parseDouble(row[i]) > 0, PhaseLog.HEADER.get(i) + " measured: " + phases);
        }

        Files.write(file, new byte[100_000]);   // damaged in place: the key still names it
        Done damaged = bench(cache, dir.resolve("damaged"));
        assertTrue(damaged.code() != 0, damaged.out());
        String note = Files.readString(dir.resolve("damaged").resolve("summary.csv"));
        assertTrue(note.contains("the JVM refused the AOT cache " + file + " (stale or damaged"), note);

        Done without = bench(cache, dir.resolve("without"), "--no-aot-cache");
        assertEquals(0, without.code(), "the damaged cache is not used: " + without.out());
        assertEquals("off: --no-aot-cache", provenance(dir.resolve("without")).path("aot_cache").asText());
        assertTrue(Summary.read(dir.resolve("without").resolve("summary.csv")).stream().allMatch(Row::valid));
    }
}
