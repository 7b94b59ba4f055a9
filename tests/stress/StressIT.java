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
 * {@code stress} through the packaged jar at small sizes: every scenario in a server JVM of its own passes,
 * stress.csv has a row per scenario with its figures, provenance.json and report.html are written, and the table is
 * printed. Takes seconds (a few server JVMs), not minutes.
 */
class StressIT {

    /** Every scenario but shutdown on nima, which fails that one (Helidon 4.5.0 cannot stop accepting alone). */
    @Test
    void everyScenarioPassesAtSmallSizesOnOneCombination(@TempDir Path out) throws Exception {
        List<String> scenarios = Stress.SCENARIOS.stream().filter(s -> !s.equals("shutdown")).toList();
        String console = stress(out, "--server=nima", "--engine=jstachio", "--mode=virtual",
                "--scenario=" + String.join(",", scenarios), "--connections=200", "--streams-delay=20ms",
                "--aborts=100", "--slow-readers=20", "--idle=50", "--half-sent=10", "--trickling=10", "--idle-timeout=1s");
        assertTrue(console.contains(scenarios.size() + " of " + scenarios.size() + " passed"), console);

        List<String> csv = Files.readAllLines(out.resolve("results/stress.csv"));
        assertEquals(scenarios.size() + 1, csv.size(), String.join("\n", csv));
        assertTrue(csv.get(0).startsWith("scenario,server,engine,mode,pass,"), csv.get(0));
        for (String column : List.of("ttfb_p99_ms", "listen_drops", "baseline_after_s", "cases_right",
                "half_sent_closed", "trickling_closed")) {
            assertTrue(csv.get(0).contains("," + column + ","), column + " in " + csv.get(0));
        }
        for (String scenario : scenarios) {
            assertTrue(csv.stream().anyMatch(l -> l.startsWith(scenario + ",nima,jstachio,virtual,true,")),
                    scenario + " passed: " + String.join("\n", csv));
        }
        assertTrue(Files.readString(out.resolve("results/provenance.json")).contains("\"command\" : \"stress\""));
        String report = Files.readString(out.resolve("results/report.html"));
        assertTrue(report.contains("<h2 id=\"stress\">Stress</h2>") && report.contains("<h3>slow-readers</h3>")
                && !report.contains("FAIL"), report);
    }

    /**
     * shutdown at reduced size (16 keep-alive clients, then 4 pages that outlive the grace) on two servers that
     * stop accepting at SIGTERM, each its own way: Vert.x through its transport, the JDK server through stop(delay).
     */
    @Test
    void shutdownPassesAtReducedSize(@TempDir Path out) throws Exception {
        String console = stress(out, "--server=vertx,jdk", "--engine=jstachio", "--mode=virtual",
                "--scenario=shutdown", "--shutdown-clients=16");
        assertTrue(console.contains("2 of 2 passed"), console);
        List<String> csv = Files.readAllLines(out.resolve("results/stress.csv"));
        for (String column : List.of("exit_code", "closed_no_response_new_after", "connections_at_sigterm",
                "overrun_cut", "overrun_exit_after_s", "overrun_announced")) {
            assertTrue(csv.get(0).contains("," + column + ","), column + " in " + csv.get(0));
        }
        for (String server : List.of("vertx", "jdk")) {
            assertTrue(csv.stream().anyMatch(l -> l.startsWith("shutdown," + server + ",jstachio,virtual,true,")),
                    server + " passed: " + String.join("\n", csv));
        }
    }

    /** Runs {@code stress} with {@code args} and the results in {@code out}/results; returns the console. */
    private static String stress(Path out, String... args) throws Exception {
        Path jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
        Path log = out.resolve("console.txt");
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(), "stress"));
        command.addAll(List.of(args));
        command.add("--out=" + out.resolve("results"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(180, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor();
        }
        String console = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "stress finished within 3 minutes:\n" + console);
        assertEquals(0, p.exitValue(), console);
        return console;
    }
}
