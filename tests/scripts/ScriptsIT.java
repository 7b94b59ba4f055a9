package scripts;

import cli.Registry;
import importers.WrkReport;
import site.Combination;
import tables.Provenance;
import tables.Row;
import tables.Summary;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shell scripts: syntax, shellcheck, and wrk2-cell.sh run end to end against a real server (wrk2-sweep.sh's
 * runs are in SweepIT, which uses the helpers here).
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class ScriptsIT {

    static final Path ROOT = Path.of(System.getProperty("user.dir"));
    static final Path DOUBLE = ROOT.resolve("tests/bin/wrk2-double");
    private static final Path JAR = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));

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

    static Done run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", command));
        return new Done(p.exitValue(), out);
    }

    static boolean onPath(String tool) {
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

    /**
     * Tests skipped for a missing tool are named at the end of scripts/test, not only counted by Maven. Run on a PATH
     * without wrk, shellcheck and Chromium, whose Maven is a stand-in that succeeds.
     */
    @Test
    void scriptsTestNamesTheTestsItSkipsForMissingTools(@TempDir Path bin) throws Exception {
        for (String tool : List.of("dirname", "sed", "head")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool));
        }
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho \"maven stand-in: $*\"\n");
        assertTrue(mvn.toFile().setExecutable(true));
        String javaHome = System.getProperty("java.home");
        Done without = run(ROOT, List.of("/usr/bin/env", "PATH=" + bin, "JAVA_HOME=" + javaHome, "scripts/test",
                "-Dtest=none"));
        assertEquals(0, without.code(), without.out());
        assertTrue(without.out().contains("maven stand-in: -B verify -Dtest=none"), without.out());
        assertTrue(without.out().contains("pssrbench: no wrk and shellcheck on PATH, so ScriptsIT and SweepIT skip"
                + " their end-to-end runs of scripts/wrk2-cell.sh and wrk2-sweep.sh, and ScriptsIT skips its shellcheck"
                + " of every script; get them with apt-get install wrk shellcheck (.ci/run installs them).\n"),
                without.out());
        assertTrue(without.out().contains("pssrbench: no chromium and chromedriver on PATH, so BrowserIT skips its runs"
                + " in a browser; get them with apt-get install chromium chromium-driver (.ci/run installs them).\n"),
                without.out());

        for (String tool : List.of("wrk", "shellcheck", "chromium", "chromedriver")) {
            Path stub = Files.writeString(bin.resolve(tool), "#!/bin/sh\n");
            assertTrue(stub.toFile().setExecutable(true));
        }
        Done with = run(ROOT, List.of("/usr/bin/env", "PATH=" + bin, "JAVA_HOME=" + javaHome, "scripts/test",
                "-Dtest=none"));
        assertEquals(0, with.code(), with.out());
        assertFalse(with.out().contains("skips"), with.out());
    }

    /**
     * The launcher rebuilds the jar when one of its inputs, as the pom names them, is newer: an edit under tables/
     * does (a hand-kept list once left records/, browser/ and stress/ out), a new results folder does not (that list
     * named results/, the output folder). Run on a copy of the launcher and the pom, whose Maven is a stand-in.
     */
    @Test
    void theLauncherRebuildsForAnEditedSourceButNotForAResultsFolder(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("scripts"));
        for (String file : List.of("scripts/pssrbench", "scripts/java-env.sh", "pom.xml")) {
            Files.copy(ROOT.resolve(file), root.resolve(file), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho \"maven stand-in: $*\" >&2\n");
        assertTrue(mvn.toFile().setExecutable(true));
        Path source = Files.createDirectories(root.resolve("tables")).resolve("Row.java");
        Files.writeString(source, "package tables;\n");
        Path jar = Files.createDirectories(root.resolve("target")).resolve("pssrbench.jar");
        Files.writeString(jar, "");
        java.nio.file.attribute.FileTime built = java.nio.file.attribute.FileTime.fromMillis(
                System.currentTimeMillis() - 60_000);
        for (Path old : List.of(root.resolve("pom.xml"), root.resolve("tables"), source)) {
            Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(built.toMillis() - 60_000));
        }
        Files.setLastModifiedTime(jar, built);
        List<String> launch = List.of("/usr/bin/env", "PATH=" + bin + ":/usr/bin:/bin",
                "JAVA_HOME=" + System.getProperty("java.home"), root.resolve("scripts/pssrbench").toString(), "list");

        Files.writeString(Files.createDirectories(root.resolve("results/20260101T000000Z")).resolve("summary.csv"),
                "server\n");
        Done fresh = run(root, launch);
        assertFalse(fresh.out().contains("building it"), "a results folder is no input of the jar: " + fresh.out());
        assertTrue(fresh.out().contains("/bin/java -jar " + jar + " list"), fresh.out());

        Files.writeString(source, "package tables;\n// edited\n");
        Done stale = run(root, launch);
        assertTrue(stale.out().contains("pssrbench: " + jar + " is older than the sources; building it.\n"),
                stale.out());
        assertTrue(stale.out().contains("maven stand-in: -B -q -f " + root.resolve("pom.xml") + " package"),
                stale.out());
    }

    @Test
    void aDebianWrkWithoutDashRIsRefusedUnlessClosedLoopIsAsked(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Done d = run(ROOT, List.of("env", "WRK2=/usr/bin/wrk", "scripts/wrk2-cell.sh", "--server", "nima",
                "--engine", "jstachio", "--mode", "virtual", "--rate", "100", "--out", out.toString()));
        assertEquals(2, d.code(), d.out());
        assertTrue(d.out().contains("it is Debian's wrk, not wrk2; give --closed-loop"), d.out());
    }

    /** wrk and wrk2 open connections/threads per thread but report the connections asked for. */
    @Test
    void connectionsThatTheThreadsDoNotDivideAreRefused(@TempDir Path out) throws Exception {
        Done d = run(ROOT, List.of("scripts/wrk2-cell.sh", "--server", "nima", "--engine", "jstachio", "--mode",
                "virtual", "--connections", "5", "--rate", "100", "--out", out.toString()));
        assertEquals(2, d.code(), d.out());
        assertEquals("wrk2-cell: --connections (5) must be a multiple of --threads (2): each wrk thread opens an equal"
                + " share.\n", d.out());
    }

    /**
     * The double stands in for wrk2 only if it refuses what wrk2 refuses: wrk2's usage on stdout, the reason (if
     * any) on stderr, exit status 1; checked against wrk2 built from its source.
     */
    @Test
    void theWrk2DoubleRefusesWhatWrk2Refuses() throws Exception {
        String url = "http://127.0.0.1:9/";
        Map<List<String>, String> refusals = new LinkedHashMap<>();
        refusals.put(List.of("-t2", "-c8", "-d1s", url), "Throughput MUST be specified with the --rate or -R option\n");
        refusals.put(List.of("-t4", "-c2", "-d1s", "-R10", url), "number of connections must be >= threads\n");
        refusals.put(List.of("-t2", "-c8", "-d1s", "-R10", "no-url"), "invalid URL: no-url\n");
        refusals.put(List.of("-t2", "-c8", "-d1s", "-R10"), "");
        for (var refusal : refusals.entrySet()) {
            List<String> command = new ArrayList<>(List.of(DOUBLE.toString()));
            command.addAll(refusal.getKey());
            Process p = new ProcessBuilder(command).start();
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, p.waitFor(), command + ": " + stderr);
            assertTrue(stdout.startsWith("Usage: wrk <options> <url>") && stdout.contains("[Required Parameter]"),
                    command + ": wrk2's usage on stdout: " + stdout);
            assertEquals(refusal.getValue(), stderr, command.toString());
        }
    }

    /**
     * An open-loop cell where Debian's wrk is not to be used (WRK empty): wrk2, which refuses to run without -R,
     * warms up at the run's rate.
     */
    @Test
    void withoutDebianWrkAnOpenCellWarmsUpWithWrk2AtItsRate(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Combination c = Registry.combinations().get(0);
        Done d = run(ROOT, List.of("env", "WRK2=" + DOUBLE, "WRK=", "scripts/wrk2-cell.sh", "--server",
                c.server().id(), "--engine", c.engine().id(), "--mode", c.mode().id(), "--page", "presentations",
                "--connections", "4", "--rate", "50", "--warmup", "1s", "--out", out.toString()));
        assertEquals(0, d.code(), d.out());
        assertTrue(d.out().contains("+ " + DOUBLE + " -t2 -c4 -d1s -R50 http://"), "warm-up at the rate: " + d.out());
        List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(2, rows.size(), rows.toString());
        assertEquals("open", Summary.read(out.resolve("summary.csv")).get(0).model(), rows.get(1));
    }

    @Test
    void oneCellRunsEndToEndWithDebianWrkInClosedLoop(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Combination c = Registry.combinations().get(0);
        Done d = run(ROOT, List.of("env", "WRK=/usr/bin/wrk", "scripts/wrk2-cell.sh", "--closed-loop",
                "--server", c.server().id(), "--engine", c.engine().id(), "--mode", c.mode().id(),
                "--page", "stocks", "--connections", "8", "--duration", "3s", "--warmup", "1s",
                "--out", out.toString()));
        assertEquals(0, d.code(), d.out());
        assertTrue(d.out().contains("+ /usr/bin/wrk -t2 -c8 -d3s --latency -s "), "echoes commands: " + d.out());
        List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(Summary.header(), rows.get(0));
        assertEquals(2, rows.size(), rows.toString());
        Row row = Summary.read(out.resolve("summary.csv")).get(0);
        assertEquals("wrk", row.tool());
        assertEquals(List.of(c.server().id(), c.engine().id(), c.mode().id(), "stocks", "closed", 8),
                List.of(row.server(), row.engine(), row.mode(), row.page(), row.model(), row.connections()));
        assertTrue(row.valid(), rows.get(1));
        assertTrue(row.reqPerS() > 0, rows.get(1));
        // 20 items at 1 ms each: no page can take less than 20 ms.
        assertTrue(row.decimal(tables.Metric.TTLB_P50_MS) >= 20, rows.get(1));
        assertProvenance(out, "scripts/wrk2-cell.sh", "/usr/bin/wrk: wrk ");
        JsonNode flags = new ObjectMapper().readTree(out.resolve("provenance.json").toFile()).path("flags");
        assertEquals("3s", flags.path("--duration").asText(), flags.toString());
        assertEquals("true", flags.path("--closed-loop").asText(), flags.toString());
        try (Stream<Path> raw = Files.list(out.resolve("raw"))) {
            String output = Files.readString(raw.findFirst().orElseThrow());
            assertTrue(output.contains("\npssrbench-json {"), "the Lua hook printed the run's numbers: " + output);
            assertEquals(WrkReport.parse(output).requests(), row.requests());
        }
        try (Stream<Path> logs = Files.list(out.resolve("logs"))) {
            Path serverOut = logs.filter(f -> f.toString().endsWith(".server.out")).findFirst().orElseThrow();
            assertTrue(Files.readString(serverOut).contains("pssrbench: stopped"), "the server was stopped");
        }
    }

    /**
     * The folder's provenance.json is the one bench writes (PssrBench wrote it; every library has its version)
     * and report renders the folder with it; returns it.
     */
    static JsonNode assertProvenance(Path out, String command, String loadGenerator) throws Exception {
        JsonNode p = new ObjectMapper().readTree(out.resolve("provenance.json").toFile());
        assertEquals(command, p.path("command").asText(), p.toString());
        assertTrue(p.path("load_generator").asText().startsWith(loadGenerator), p.toString());
        for (String key : List.of("pssrbench", "git", "started", "java", "os", "cpu", "cores", "load_average")) {
            assertFalse(p.path(key).asText().isEmpty(), key + " in " + p);
        }
        Set<String> libraries = new TreeSet<>();
        p.path("libraries").fieldNames().forEachRemaining(libraries::add);
        assertEquals(new TreeSet<>(Provenance.libraries().keySet()), libraries, "every library of the build");
        assertFalse(p.path("libraries").toString().contains("unknown"), p.path("libraries").toString());
        assertFalse(Files.exists(out.resolve("provenance.txt")), "one format");

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Done report = run(ROOT, List.of(java, "-jar", JAR.toString(), "report", out.toString()));
        assertEquals(0, report.code(), report.out());
        String html = Files.readString(out.resolve("report.html"));
        assertFalse(html.contains("No provenance.json"), "report reads the folder's provenance");
        assertTrue(html.contains(command) && html.contains("io.reactivex.rxjava3:rxjava"), "provenance rendered");
        return p;
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
        var err = harness.Drain.of(p.getErrorStream());
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
