package stress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code stress} through the packaged jar at small sizes against one combination: every scenario runs in a server
 * JVM of its own and passes, stress.csv has a row per scenario with its figures, provenance.json and report.html
 * are written, and the table is printed. Takes seconds (five server JVMs), not minutes.
 */
class StressIT {

    @Test
    void everyScenarioPassesAtSmallSizesOnOneCombination(@TempDir Path out) throws Exception {
        Path jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
        Path log = out.resolve("console.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString(), "stress", "--server=nima", "--engine=jstachio", "--mode=virtual",
                "--connections=200", "--streams-delay=20ms", "--aborts=100", "--slow-readers=20", "--idle=50",
                "--half-sent=10", "--trickling=10",
                "--idle-timeout=1s", "--out=" + out.resolve("results"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(180, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor();
        }
        String console = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "stress finished within 3 minutes:\n" + console);
        assertEquals(0, p.exitValue(), console);
        assertTrue(console.contains("6 of 6 passed"), console);

        List<String> csv = Files.readAllLines(out.resolve("results/stress.csv"));
        assertEquals(7, csv.size(), String.join("\n", csv));
        assertTrue(csv.get(0).startsWith("scenario,server,engine,mode,pass,"), csv.get(0));
        for (String column : List.of("ttfb_p99_ms", "listen_drops", "baseline_after_s", "cases_right",
                "half_sent_closed", "trickling_closed", "exit_code")) {
            assertTrue(csv.get(0).contains("," + column + ","), column + " in " + csv.get(0));
        }
        for (String scenario : Stress.SCENARIOS) {
            assertTrue(csv.stream().anyMatch(l -> l.startsWith(scenario + ",nima,jstachio,virtual,true,")),
                    scenario + " passed: " + String.join("\n", csv));
        }
        assertTrue(Files.readString(out.resolve("results/provenance.json")).contains("\"command\" : \"stress\""));
        String report = Files.readString(out.resolve("results/report.html"));
        assertTrue(report.contains("<h2 id=\"stress\">Stress</h2>") && report.contains("<h3>slow-readers</h3>")
                && !report.contains("FAIL"), report);
    }
}
