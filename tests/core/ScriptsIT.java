package core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The shell scripts: syntax, shellcheck, and one wrk2-cell.sh run end to end against a real server. */
class ScriptsIT {

    private static final Path ROOT = Path.of(System.getProperty("user.dir"));

    static List<Path> scripts() throws IOException {
        List<Path> all = new ArrayList<>(List.of(ROOT.resolve(".ci/run"), ROOT.resolve("tests/bin/wrk2-double")));
        try (Stream<Path> files = Files.list(ROOT.resolve("scripts"))) {
            files.filter(f -> !f.toString().endsWith(".xml") && !f.toString().endsWith(".lua")).sorted()
                    .forEach(all::add);
        }
        return all;
    }

    record Done(int code, String out) {
    }

    private static Done run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", command));
        return new Done(p.exitValue(), out);
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void passesBashSyntaxCheckAndShellcheck(Path script) throws Exception {
        Done syntax = run(ROOT, List.of("bash", "-n", script.toString()));
        assertEquals(0, syntax.code(), syntax.out());
        assumeTrue(onPath("shellcheck"), "shellcheck is not installed (apt-get install shellcheck)");
        Done check = run(ROOT, List.of("shellcheck", "-x", script.toString()));
        assertEquals(0, check.code(), check.out());
    }

    @Test
    void aDebianWrkWithoutDashRIsRefusedUnlessClosedLoopIsAsked(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Done d = run(ROOT, List.of("env", "WRK2=/usr/bin/wrk", "scripts/wrk2-cell.sh", "--server", "nima",
                "--engine", "jstachio", "--mode", "virtual", "--rate", "100", "--out", out.toString()));
        assertEquals(2, d.code(), d.out());
        assertTrue(d.out().contains("it is Debian's wrk, not wrk2; give --closed-loop"), d.out());
    }

    @Test
    void oneCellRunsEndToEndWithDebianWrkInClosedLoop(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Combination c = Registry.combinations().get(0);
        Done d = run(ROOT, List.of("env", "WRK2=/usr/bin/wrk", "scripts/wrk2-cell.sh", "--closed-loop",
                "--server", c.server().id(), "--engine", c.engine().id(), "--mode", c.mode().id(),
                "--page", "stocks", "--connections", "8", "--duration", "3s", "--warmup", "1s",
                "--out", out.toString()));
        assertEquals(0, d.code(), d.out());
        assertTrue(d.out().contains("+ /usr/bin/wrk -t2 -c8 -d3s --latency -s "), "echoes commands: " + d.out());
        List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(Summary.header(), rows.get(0));
        assertEquals(2, rows.size(), rows.toString());
        String[] cells = rows.get(1).split(",", -1);
        assertEquals("wrk", cells[0]);
        assertEquals(c.server().id() + "," + c.engine().id() + "," + c.mode().id() + ",stocks,closed,8",
                String.join(",", List.of(cells).subList(1, 7)));
        assertEquals("true", cells[Summary.COLUMNS.indexOf("valid")], rows.get(1));
        assertTrue(Double.parseDouble(cells[Summary.COLUMNS.indexOf("req_per_s")]) > 0, rows.get(1));
        // 20 items at 1 ms each: no page can take less than 20 ms.
        assertTrue(Double.parseDouble(cells[Summary.COLUMNS.indexOf("ttlb_p50_ms")]) >= 20, rows.get(1));
        assertTrue(Files.readString(out.resolve("provenance.txt")).contains("load generator: /usr/bin/wrk"));
        try (Stream<Path> raw = Files.list(out.resolve("raw"))) {
            String output = Files.readString(raw.findFirst().orElseThrow());
            assertTrue(output.contains("\npssrbench-json {"), "the Lua hook printed the run's numbers: " + output);
            assertEquals(WrkReport.parse(output).requests(),
                    Long.parseLong(cells[Summary.COLUMNS.indexOf("requests")]));
        }
        try (Stream<Path> logs = Files.list(out.resolve("logs"))) {
            Path serverOut = logs.filter(f -> f.toString().endsWith(".server.out")).findFirst().orElseThrow();
            assertTrue(Files.readString(serverOut).contains("pssrbench: stopped"), "the server was stopped");
        }
    }

    /**
     * The sweep's plumbing, end to end with real servers: the closed-loop maximum (Debian's wrk), then one point
     * at a fraction of it. wrk2 itself is not packaged here, so a test double stands in for it (it runs Debian's
     * wrk and ignores the rate); the test checks the sequence and the rows, not wrk2's numbers.
     */
    @Test
    void aSweepFindsTheMaximumThenRunsTheFractions(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Combination c = Registry.combinations().get(0);
        Done d = run(ROOT, List.of("env", "WRK2=" + ROOT.resolve("tests/bin/wrk2-double"), "WRK=/usr/bin/wrk",
                "scripts/wrk2-sweep.sh", "--server", c.server().id(), "--engine", c.engine().id(),
                "--mode", c.mode().id(), "--page", "presentations", "--connections", "4",
                "--fractions", "50", "--probe-duration", "2s", "--warmup", "1s", "--out", out.toString()));
        assertEquals(0, d.code(), d.out());
        List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(3, rows.size(), rows.toString());
        int model = Summary.COLUMNS.indexOf("model");
        int rate = Summary.COLUMNS.indexOf("rate");
        int reqPerS = Summary.COLUMNS.indexOf("req_per_s");
        String[] probe = rows.get(1).split(",", -1);
        String[] half = rows.get(2).split(",", -1);
        assertEquals("closed", probe[model]);
        assertEquals("open", half[model]);
        long expected = Math.max(1, Math.round(Double.parseDouble(probe[reqPerS]) / 2));
        assertEquals(expected, Long.parseLong(half[rate]), 1, "50% of the closed-loop maximum");
        assertTrue(d.out().contains("-R" + half[rate] + " --latency -U -s "), "wrk2 gets the rate: " + d.out());
    }

    /** A JDK older than the jar's class files: Debian's default java, 17, on the machines this was written on. */
    private static final Path JDK17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");

    /** The launcher with {@code java} on PATH being JDK 17 and no JAVA_HOME: stdout, stderr and exit code. */
    private static String[] launch(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("scripts/pssrbench").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile());
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("PSSR_JAVA_HOME");
        pb.environment().put("PATH", JDK17.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin");
        Process p = pb.start();
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", command));
        return new String[] {String.valueOf(p.exitValue()), out, err.get()};
    }

    @Test
    void theJarStartedByAJava17FailsWhichIsWhyTheLauncherExists() throws Exception {
        assumeTrue(Files.isExecutable(JDK17.resolve("bin/java")), "no JDK 17 at " + JDK17);
        Path jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        Done d = run(ROOT, List.of(JDK17.resolve("bin/java").toString(), "-jar", jar.toString(), "list"));
        assertEquals(1, d.code(), d.out());
        assertTrue(d.out().contains("UnsupportedClassVersionError"), d.out());
    }

    @Test
    void theLauncherFindsAJdk21WhenTheJavaOnPathIs17() throws Exception {
        assumeTrue(Files.isExecutable(JDK17.resolve("bin/java")), "no JDK 17 at " + JDK17);
        String[] r = launch("list");
        assertEquals("0", r[0], r[1] + r[2]);
        assertEquals(Registry.combinations().stream().map(Combination::toString).toList(), r[1].lines().toList(),
                "stdout is list's alone");
        assertTrue(r[2].lines().anyMatch(l -> l.startsWith("+ ") && l.endsWith("/bin/java -jar "
                + ROOT.resolve("target/pssrbench.jar") + " list")), "echoes what it runs: " + r[2]);
    }
}
