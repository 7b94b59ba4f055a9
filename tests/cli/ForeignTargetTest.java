package cli;

import site.Combination;
import site.ServeConfig;
import site.Servers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tables.Row;
import tables.Summary;
import verify.ForeignServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A foreign app as --target: how its flags combine, verify of its pages, bench's guard, and its rows beside a
 * PssrBench combination's in one results folder and report. Everything in this JVM, on loopback, in seconds.
 */
class ForeignTargetTest {

    private static final String PATHS_P = "--path=presentations=" + ForeignServer.PRESENTATIONS;
    private static final String PATHS_S = "--path=stocks=" + ForeignServer.STOCKS;
    /** A short bench point: one connection, a short warm-up and window, one repetition, the stocks page. */
    private static final String[] SHORT = {"--page=stocks", "--connections=1", "--warmup=300ms", "--duration=700ms",
            "--repeat=1", "--windows=1", "--seed=7",
            // Not pinned: bench pins its own JVM (here the test's) when the machine has 4 cores or more.
            "--server-cpus=0"};

    private static void refused(String fragment, String... args) {
        CliTest.Run r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.out() + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).contains(fragment), r.err());
    }

    @Test
    void theFlagsCombineInOneWayAndEveryOtherIsOneSentence() {
        String nowhere = "--target=http://127.0.0.1:1/";
        refused("describe a foreign app at --target: give --target=URL too", "verify", "--label=app");
        refused("go with --label=NAME", "bench", nowhere, PATHS_S);
        refused("--label takes lower-case letters", "verify", nowhere, "--label=My App", "--delay=1ms");
        refused("--label=raw is a PssrBench engine's id", "verify", nowhere, "--label=raw", "--delay=1ms");
        refused("leave out --server, --engine, --mode and --all", "bench", nowhere, "--label=app", "--delay=1ms",
                "--server=netty");
        refused("a foreign app needs --delay, the per-item delay it runs with", "verify", nowhere, "--label=app");
        refused("unknown page 'home'", "verify", nowhere, "--label=app", "--delay=1ms", "--path=home=/x");
        refused("--path's PATH is an absolute path", "verify", nowhere, "--label=app", "--delay=1ms",
                "--path=stocks=stocks");
        refused("--path names page stocks twice", "verify", nowhere, "--label=app", "--delay=1ms", PATHS_S,
                "--path=stocks=/s");
        refused("--target-pid=0 names no running process", "bench", nowhere, "--label=app", "--delay=1ms",
                "--target-pid=0");
    }

    @Test
    void aPssrBenchServeIsNotAForeignApp() {
        Combination c = Registry.combinations().get(0);
        try (Servers.Started s = Servers.start(c, ServeConfig.DEFAULT_DELAY)) {
            refused("is a PssrBench serve (it runs " + c.server().id(), "verify", "--target=" + s.uri("/"),
                    "--label=app", "--delay=1ms");
        }
    }

    @Test
    void verifySaysEachPageEqualsTheReferenceAndHowItArrived() throws Exception {
        Duration delay = verify.Verifier.MIN_DELAY;
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.GOOD, delay)) {
            CliTest.Run r = CliTest.run("verify", "--target=" + app.base(), "--label=webflux-jstachio-virtual",
                    "--delay=10ms", PATHS_P, PATHS_S);
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("foreign app webflux-jstachio-virtual at " + app.base()), r.out());
            List<String> pages = r.out().lines().filter(l -> l.endsWith("| OK")).toList();
            assertEquals(2, pages.size(), r.out());
            pages.forEach(l -> assertTrue(l.contains("equals the reference page under the published normalisation"
                    + " (not byte-identical)") && l.contains(", progressive (first item"), l));
        }
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.ERROR, delay)) {
            CliTest.Run r = CliTest.run("verify", "--target=" + app.base(), "--label=app", "--delay=10ms", PATHS_P,
                    PATHS_S);
            assertEquals(1, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("answered 500, an error page, not 200"), r.out());
        }
    }

    /** Another page at the path: refused in one sentence before anything is measured or written. */
    @Test
    void benchRefusesATargetThatAnswersAnotherPage(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.WRONG_PAGE, Duration.ofMillis(2))) {
            List<String> args = new ArrayList<>(List.of("bench", "--target=" + app.base(), "--label=app",
                    "--delay=2ms", PATHS_S, "--out=" + out));
            args.addAll(List.of(SHORT));
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertEquals(1, r.code(), r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("the foreign app app at " + app.base() + " is not measured: GET "
                    + ForeignServer.STOCKS + " answered 200 with another page than stocks"), r.err());
            assertFalse(Files.exists(out), "nothing written");
        }
    }

    /**
     * A PssrBench combination measured at its --target, then the foreign app into the same folder (--resume: the
     * points the folder does not hold yet): both rows in summary.csv, one report, the app in provenance.json.
     */
    @Test
    void benchPutsTheForeignAppsRowsBesideACombinationsInOneFolder(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        Combination c = Registry.combinations().get(0);
        try (Servers.Started s = Servers.start(c, ServeConfig.DEFAULT_DELAY);
             ForeignServer app = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(1))) {
            List<String> own = new ArrayList<>(List.of("bench", "--target=" + s.uri("/"), "--out=" + out));
            own.addAll(List.of(SHORT));
            CliTest.Run first = CliTest.run(own.toArray(String[]::new));
            assertEquals(0, first.code(), first.out() + first.err());
            long pid = ProcessHandle.current().pid();   // the app runs in this JVM
            List<String> foreign = new ArrayList<>(List.of("bench", "--target=" + app.base(), "--label=webflux-app",
                    "--delay=1ms", PATHS_S, "--target-pid=" + pid, "--resume", "--out=" + out));
            foreign.addAll(List.of(SHORT));
            CliTest.Run second = CliTest.run(foreign.toArray(String[]::new));
            assertEquals(0, second.code(), second.out() + second.err());
        }
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(2, rows.size(), rows.toString());
        Row stand = rows.stream().filter(r -> r.server().equals(c.server().id())).findFirst().orElseThrow();
        Row app = rows.stream().filter(r -> r.server().equals("foreign")).findFirst().orElseThrow();
        assertTrue(stand.valid(), stand.note());
        assertEquals("webflux-app", app.engine());
        assertEquals("foreign", app.mode());
        assertTrue(app.valid(), app.note());
        assertTrue(app.reqPerS() > 0, app.toString());
        assertNotNull(app.decimal(tables.Metric.TTFB_P50_MS));
        assertTrue(app.decimal(tables.Metric.FIRST_ITEM_P50_MS) >= app.decimal(tables.Metric.TTFB_P50_MS) && app.decimal(tables.Metric.FIRST_ITEM_P50_MS) <= app.decimal(tables.Metric.TTLB_P50_MS),
                app.toString());
        assertNotNull(app.decimal(tables.Metric.RSS_PEAK_MB), "its RSS from /proc");
        assertNotNull(app.whole(tables.Metric.THREADS_PEAK), "its threads from /proc");
        assertTrue(app.note().contains("pid " + ProcessHandle.current().pid()), app.note());
        String report = Files.readString(out.resolve("report.html"));
        assertTrue(report.contains("webflux-app") && report.contains(c.engine().id()), "both in one report");
        String provenance = Files.readString(out.resolve("provenance.json"));
        assertTrue(provenance.contains("\"label\" : \"webflux-app\"") || provenance.contains("\"label\":\"webflux-app\""),
                provenance);
        assertTrue(provenance.contains(ForeignServer.STOCKS), provenance);
    }

    /** browser of a foreign app: its pages loaded alone in Chromium, rows named by its label, in the folder's report. */
    @Test
    @Tag("slow")   // Chromium, a process of its own: the full tier's, as the quick one is in-process
    void browserLoadsAForeignAppsPagesAlone(@TempDir Path dir) throws Exception {
        try {
            browser.Chromium.find(null, null);
        } catch (base.UsageException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "no Chromium here: " + e.getMessage());
        }
        Path out = dir.resolve("run");
        try (ForeignServer app = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(20))) {
            CliTest.Run r = CliTest.run("browser", "--target=" + app.base(), "--label=webflux-app", "--delay=20ms",
                    PATHS_P, "--page=presentations", "--runs=1", "--out=" + out);
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("browser: foreign app webflux-app presentations run 1/1: fcp"), r.out());
        }
        String csv = Files.readString(out.resolve(tables.BrowserCsv.FILE));
        assertTrue(csv.contains("foreign,webflux-app,foreign,presentations"), csv);
        assertTrue(Files.readString(out.resolve("report.html")).contains("webflux-app"));
    }
}
