package cli;

import report.BenchFolder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code compare} on the command line: its exit codes (0, 1 when the gate fails, 2 for bad input) and messages. */
class CompareCommandTest {

    private static CliTest.Run run(String... args) {
        return CliTest.run(args);
    }

    /** Bad input: exit 2, one line on stderr, nothing on stdout. */
    private static void refused(String expected, String... args) {
        CliTest.Run r = run(args);
        assertEquals(new CliTest.Run(2, "", "pssrbench: " + expected + "\n"), r, String.join(" ", args));
    }

    /** Every file under dir with its content, to see that compare changed nothing. */
    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                try {
                    all.put(dir.relativize(f).toString(), Files.readString(f));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return all;
    }

    @Test
    void theGateFailsOnlyWhenAChangeIsSignificantlyWorseThanTheThreshold(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path same = new BenchFolder().write(dir.resolve("same"));
        Path slower = new BenchFolder().slower(1.25).noise(3).write(dir.resolve("slower"));
        Map<String, String> before = contents(dir);

        CliTest.Run identical = run("compare", a.toString(), same.toString(), "--threshold=10");
        assertEquals(0, identical.code(), identical.err());
        assertEquals("", identical.err());
        assertTrue(identical.out().startsWith("A: " + a + "\nB: " + same + "\n\nreq_per_s (higher is better)"),
                identical.out());
        assertTrue(identical.out().endsWith("gate --threshold=10%: passed, no change significantly worse than"
                + " 10%.\n"), identical.out());

        CliTest.Run failed = run("compare", a.toString(), slower.toString(), "--threshold=10");
        assertEquals(1, failed.code(), failed.out());
        assertEquals("", failed.err());
        assertTrue(failed.out().contains("\ngate --threshold=10%: FAILED, 16 changes significantly worse than 10%:\n"
                + "  nima jstachio virtual presentations c16  req_per_s  "), failed.out());

        CliTest.Run loose = run("compare", a.toString(), slower.toString(), "--threshold=30%");
        assertEquals(0, loose.code(), loose.out());
        assertTrue(loose.out().contains("gate --threshold=30%: passed"), loose.out());

        CliTest.Run noGate = run("compare", a.toString(), slower.toString(), "--metric=req_per_s");
        assertEquals(0, noGate.code(), noGate.out());
        assertEquals(2, noGate.out().lines().filter(l -> l.matches(".* worse +p=0\\.008 n=5\\+5")).count(),
                noGate.out());
        assertTrue(!noGate.out().contains("ttlb_p50_ms") && !noGate.out().contains("gate"), noGate.out());

        CliTest.Run baseline = run("compare", dir.resolve("a").toString(), "--baseline=nima/jstachio/virtual");
        assertEquals(2, baseline.code(), "a folder of one combination has nothing to rank");

        assertEquals(before, contents(dir), "compare writes nothing");
    }

    @Test
    void badInputIsRefusedInOneSentence(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path b = new BenchFolder().write(dir.resolve("b"));
        Path slow = new BenchFolder().delay("5ms").write(dir.resolve("slow"));
        Path three = new BenchFolder().combinations("nima/raw/virtual", "nima/jstachio/virtual")
                .write(dir.resolve("three"));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Path other = new BenchFolder().combinations("nima/thymeleaf/virtual").write(dir.resolve("other"));

        refused("compare takes two results folders, A and B, or one with --baseline=SERVER/ENGINE/MODE.", "compare",
                a.toString());
        refused(empty + " has no runs.csv (measured before repetitions, or not a results folder of bench), and"
                + " compare reads every repetition from it.", "compare", a.toString(), empty.toString());
        refused("no such folder: " + dir.resolve("nowhere") + "; give a results folder written by bench.", "compare",
                dir.resolve("nowhere").toString(), b.toString());
        refused("A (" + a + ") and B (" + slow + ") measured different things: delay 1ms in A, 5ms in B.", "compare",
                a.toString(), slow.toString());
        refused("A (" + a + ") and B (" + other + ") have no point in common: A measured nima/jstachio/virtual, B"
                + " measured nima/thymeleaf/virtual; to rank combinations, measure them in one run and give that folder"
                + " alone with --baseline=SERVER/ENGINE/MODE.", "compare", a.toString(), other.toString());
        refused("unknown metric 'rps'; valid metrics: req_per_s, ttfb_p50_ms, ttfb_p99_ms, first_item_p50_ms,"
                + " ttlb_p50_ms, ttlb_p95_ms, ttlb_p99_ms, cpu_ms_per_req.", "compare", a.toString(), b.toString(), "--metric=rps");
        for (String bad : List.of("-5", "0", "abc", "NaN")) {
            refused("--threshold takes a positive percentage, e.g. 5, not '" + bad + "'.", "compare", a.toString(),
                    b.toString(), "--threshold=" + bad);
        }
        refused("--baseline compares the combinations of one folder: give A only, not " + b + ".", "compare",
                a.toString(), b.toString(), "--baseline=nima/jstachio/virtual");
        refused("--baseline takes SERVER/ENGINE/MODE, e.g. nima/raw/virtual, not 'nima'.", "compare", three.toString(),
                "--baseline=nima");
        refused("no combination nima/raw/blocking in " + three + "; it holds nima/jstachio/virtual, nima/raw/virtual.",
                "compare", three.toString(), "--baseline=nima/raw/blocking");
        refused(a + " holds only nima/jstachio/virtual: no other combination to compare with it.", "compare",
                a.toString(), "--baseline=nima/jstachio/virtual");

        CliTest.Run ranked = run("compare", three.toString(), "--baseline=nima/raw/virtual", "--threshold=5");
        assertEquals(new CliTest.Run(0, ranked.out(), ""), ranked);
        assertTrue(ranked.out().startsWith("A: " + three + ", baseline nima/raw/virtual\n"), ranked.out());
    }
}
