package tables;



import cli.Cli;
import cli.CliTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProvenanceTest {

    @Test
    void everyLibraryOfTheBuildHasItsVersion() {
        Map<String, String> libraries = Provenance.libraries();
        // The Gradle-built jars (RxJava, Reactor) carry no META-INF/maven/.../pom.properties, the metadata that bench
        // used to read: they were "unknown".
        for (String library : List.of("io.reactivex.rxjava3:rxjava", "io.projectreactor.netty:reactor-netty-http",
                "io.projectreactor:reactor-core", "io.helidon.webserver:helidon-webserver", "io.javalin:javalin",
                "org.eclipse.jetty:jetty-server", "io.netty:netty-common", "io.jstach:jstachio",
                "io.pebbletemplates:pebble", "com.github.xmlet:htmlflow", "org.hdrhistogram:HdrHistogram")) {
            assertTrue(libraries.containsKey(library), library + " in " + libraries.keySet());
        }
        libraries.forEach((library, version) -> assertTrue(version.matches("\\d+(\\.\\d+)*([.-]\\w+)*"),
                library + " has version '" + version + "'"));
        assertTrue(libraries.keySet().stream().noneMatch(l -> l.startsWith("org.junit")), "no test library");
    }

    @Test
    void jbangsClassPathIsReadFromTheMavenRepositoryLayout() {
        Map<String, String> libraries = Provenance.fromClassPath(List.of(
                "/home/u/.m2/repository/io/reactivex/rxjava3/rxjava/3.1.12/rxjava-3.1.12.jar",
                "/home/u/.m2/repository/io/netty/netty-transport-native-epoll/4.2.18.Final/"
                        + "netty-transport-native-epoll-4.2.18.Final-linux-x86_64.jar",
                "/home/u/.jbang/cache/jars/PssrBench.java.0f3a/PssrBench.jar",
                "/opt/libs/pebble/4.1.2/pebble-4.1.2.jar",
                "/home/u/project/target/classes"));
        assertEquals(Map.of("io.reactivex.rxjava3:rxjava", "3.1.12",
                "io.netty:netty-transport-native-epoll:linux-x86_64", "4.2.18.Final", "pebble", "4.1.2"), libraries);
    }

    /** Durations and lists as the user wrote them, not as Java prints the parsed values (PT1S, [netty]). */
    @Test
    void flagsAreRecordedAsWritten() {
        CommandLine cli = new CommandLine(new Cli());
        Cli.converters(cli);
        CommandLine.ParseResult bench = cli.parseArgs("bench", "--warmup=1s", "--server=netty", "--connections",
                "1,2", "--connections=4", "--resume", "--out=x").subcommand();
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("--warmup", "1s");
        expected.put("--server", "netty");
        expected.put("--connections", "1,2,4");
        expected.put("--resume", "true");
        expected.put("--out", "x");
        assertEquals(expected, Provenance.flags(bench));
    }

    @Test
    void laterRunsAreAddedAndFinishCompletesTheLatest(@TempDir Path dir) throws Exception {
        Provenance.add(dir, Provenance.record("scripts/wrk2-sweep.sh", "/usr/local/bin/wrk2: wrk 4.0.0",
                Map.of("--fractions", "50,90"), Map.of()));
        Provenance.add(dir, Provenance.record("scripts/wrk2-cell.sh", "/usr/local/bin/wrk2: wrk 4.0.0",
                Map.of("--rate", "800"), Map.of("warmup_generator", "/usr/bin/wrk: wrk 4.1.0")));
        Provenance.finish(dir);
        JsonNode p = new ObjectMapper().readTree(dir.resolve("provenance.json").toFile());
        assertEquals("scripts/wrk2-sweep.sh", p.path("command").asText());
        assertEquals("50,90", p.path("flags").path("--fractions").asText());
        assertFalse(p.has("finished"), "the first run is not the latest");
        JsonNode cell = p.path(Provenance.LATER_RUNS).path(0);
        assertEquals("scripts/wrk2-cell.sh", cell.path("command").asText());
        assertEquals("/usr/bin/wrk: wrk 4.1.0", cell.path("warmup_generator").asText());
        assertTrue(cell.has("finished") && cell.path("load_average_after").asText().matches("[0-9.]+ .*"), cell.toString());
        for (String key : List.of("pssrbench", "git", "started", "java", "os", "cpu", "cores", "load_average")) {
            assertFalse(cell.path(key).asText().isEmpty(), key);
        }
        assertFalse(cell.path("libraries").isEmpty());
    }

    @Test
    void theProvenanceCommandWritesOrRefusesInOneSentence(@TempDir Path dir) throws Exception {
        CliTest.Run finish = CliTest.run("provenance", "--out=" + dir, "--finish");
        assertEquals(2, finish.code());
        assertEquals("pssrbench: no " + dir.resolve("provenance.json") + " to finish; write it first, without"
                + " --finish.\n", finish.err());
        CliTest.Run incomplete = CliTest.run("provenance", "--out=" + dir, "--command=x");
        assertEquals(2, incomplete.code());
        assertEquals(1, incomplete.err().lines().count(), incomplete.err());
        assertFalse(Files.exists(dir.resolve("provenance.json")));

        CliTest.Run written = CliTest.run("provenance", "--out=" + dir, "--command=scripts/wrk2-cell.sh",
                "--load-generator=/usr/bin/wrk: wrk 4.1.0", "--", "--duration=40s", "--out=" + dir,
                "--target=http://h:1/?a=b", "--closed-loop");
        assertEquals(0, written.code(), written.err());
        JsonNode flags = new ObjectMapper().readTree(dir.resolve("provenance.json").toFile()).path("flags");
        assertEquals("40s", flags.path("--duration").asText());
        assertEquals("http://h:1/?a=b", flags.path("--target").asText());
        assertEquals(dir.toString(), flags.path("--out").asText(), "a flag of the same name as provenance's own");
        assertEquals("true", flags.path("--closed-loop").asText());
    }

    /** A jar says which revision it was built from, so that a copy of it still does; an unresolved entry does not. */
    @Test
    void aJarNamesTheRevisionItWasBuiltFrom(@TempDir Path dir) throws Exception {
        assertEquals("0c6f50a-dirty", Provenance.builtFrom(jar(dir.resolve("a.jar"), "0c6f50a-dirty")));
        assertEquals(null, Provenance.builtFrom(jar(dir.resolve("b.jar"), "${git.commit.id.describe}")));
        assertEquals(null, Provenance.builtFrom(jar(dir.resolve("c.jar"), null)));
        assertEquals(null, Provenance.builtFrom(dir), "a folder of classes asks git instead");
    }

    private static Path jar(Path file, String revision) throws java.io.IOException {
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        if (revision != null) {
            manifest.getMainAttributes().putValue("Git-Revision", revision);
        }
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(file),
                manifest)) {
            out.putNextEntry(new java.util.jar.JarEntry("x.txt"));
            out.write('x');
        }
        return file;
    }
}
