package cli;

import cli.CliTest.Run;

import site.Combination;
import site.Servers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tables.Provenance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, reproduction 1: {@code --out} never replaces or appends to what is not PssrBench's, and never drops
 * earlier rows while provenance.json lists their run. Each refusal is one sentence, exit 2, with every file of the
 * folder as it was and nothing added.
 */
class OutFolderTest {

    /** Every file under {@code dir} (relative path to its bytes as text). */
    private static Map<String, String> contents(Path dir) throws Exception {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.put(dir.relativize(f).toString(), Files.readString(f));
            }
        }
        return all;
    }

    private static void assertOneSentence(Run r, String expected) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one sentence: " + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    /** The user's report.html, summary.json and provenance.json in the folder named (here, a server is up). */
    @Test
    void benchRefusesAFolderThatIsNotPssrBenchsAndLeavesItsFilesAlone(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("report.html"), "MINE\n");
        Files.writeString(dir.resolve("summary.json"), "MINE\n");
        Files.writeString(dir.resolve("provenance.json"), "{\"mine\":1}\n");
        Map<String, String> before = contents(dir);
        Combination c = new Combination(Registry.server("jdk"), Registry.engine("jstachio"), Registry.mode("virtual"));
        try (Servers.Started s = Servers.start(c, Duration.ofMillis(1))) {
            Run r = run("bench", "--target=" + s.uri("/"), "--connections=1", "--warmup=1s", "--duration=1s",
                    "--repeat=1", "--out=" + dir);
            assertOneSentence(r, "is not a PssrBench results folder");
        }
        assertEquals(before, contents(dir), "nothing replaced, nothing added");
    }

    @Test
    void stressAndBrowserRefuseAFolderThatIsNotPssrBenchs(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "MINE\n");
        Map<String, String> before = contents(dir);
        assertOneSentence(run("stress", "--server=jdk", "--scenario=aborts", "--aborts=1", "--out=" + dir),
                "is not a PssrBench results folder");
        assertOneSentence(run("browser", "--server=jdk", "--out=" + dir), "is not a PssrBench results folder");
        assertEquals(before, contents(dir));
    }

    /** A file named as the folder is refused as well, before anything is created beside it. */
    @Test
    void aFileIsNotAFolder(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("x"), "MINE\n");
        assertOneSentence(run("bench", "--repeat=1", "--out=" + file), "is a file, not a folder");
        assertEquals(Map.of("x", "MINE\n"), contents(dir));
    }

    /**
     * A stress results folder holds stress.csv: a second stress run into it is refused, so its rows are not dropped
     * while provenance.json would list both runs.
     */
    @Test
    void stressDoesNotDropAnEarlierRunsRows(@TempDir Path dir) throws Exception {
        Provenance.add(dir, Provenance.record("stress", "pssrbench stress (built in)", Map.of(), Map.of()));
        Files.writeString(dir.resolve("stress.csv"), "scenario,server,engine,mode,pass,rule,note\n"
                + "aborts,jdk,jstachio,virtual,true,all closed,\n");
        Map<String, String> before = contents(dir);
        assertOneSentence(run("stress", "--server=jdk", "--engine=jstachio", "--mode=virtual", "--scenario=aborts",
                "--aborts=1", "--out=" + dir), "already holds stress.csv");
        assertEquals(before, contents(dir));
    }

    /** provenance.json that PssrBench did not write is never appended to, whoever asks (the wrk2 scripts too). */
    @Test
    void provenanceIsNotAddedToTheUsersFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("provenance.json"), "{\"mine\":1}\n");
        assertOneSentence(run("provenance", "--out=" + dir, "--command=x", "--load-generator=y"),
                "was not written by PssrBench");
        assertEquals(Map.of("provenance.json", "{\"mine\":1}\n"), contents(dir));
    }

    /** A folder PssrBench wrote is recognised by its provenance.json, and one whose record is another's is not. */
    @Test
    void aResultsFolderIsRecognisedByItsProvenance(@TempDir Path dir) throws Exception {
        assertTrue(tables.ResultsFolder.isFresh(dir.resolve("new")));
        assertTrue(tables.ResultsFolder.isFresh(dir));
        Provenance.add(dir.resolve("ours"), Provenance.record("bench", "x", Map.of("--repeat", "1"), Map.of()));
        assertTrue(tables.ResultsFolder.isPssrBench(dir.resolve("ours")));
        for (String text : List.of("{\"mine\":1}", "not json", "[]", "{\"pssrbench\":\"1\",\"command\":\"bench\"}")) {
            Path theirs = Files.createDirectories(dir.resolve("theirs" + text.hashCode()));
            Files.writeString(theirs.resolve("provenance.json"), text);
            assertFalse(tables.ResultsFolder.isPssrBench(theirs), text);
        }
    }

    /** A sweep stopped before its first row left provenance.json only: report says so instead of refusing. */
    @Test
    void reportRendersAFolderStoppedBeforeItsFirstRow(@TempDir Path dir) throws Exception {
        Provenance.add(dir, Provenance.record("bench", "pssrbench bench (built in)", Map.of(), Map.of()));
        Provenance.finish(dir, Map.of("stopped", true, "windows_measured", 0));
        Run r = run("report", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("Nothing was measured in this folder yet"));

        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertOneSentence(run("report", empty.toString()), "has no summary.csv");
    }
}
