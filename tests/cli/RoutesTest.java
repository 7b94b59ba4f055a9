package cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tables.Row;
import tables.Summary;
import verify.ForeignServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bench --targets=FILE: each refusal of a routes file or of the flags beside it (one sentence naming the line, exit
 * 2, nothing asked of any app), the checked-in example file, and two routes measured in one command. In this JVM, on
 * loopback, in seconds.
 */
class RoutesTest {

    private static final String HEADER = "label,url,presentations,stocks,pid\n";
    private static final String NOWHERE = "http://127.0.0.1:1/";
    /** As ForeignTargetTest's short point: one connection, short windows, one repetition, the stocks page. */
    private static final String[] SHORT = {"--page=stocks", "--connections=1", "--warmup=300ms", "--duration=700ms",
            "--repeat=1", "--windows=1", "--seed=7", "--server-cpus=0"};

    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path f = dir.resolve("routes-" + Math.abs(text.hashCode()) + ".csv");
        Files.writeString(f, text);
        return f;
    }

    /** bench with {@code routes} and {@code more}: refused in one sentence containing {@code fragment}, exit 2. */
    private void refused(String fragment, String routes, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("bench", "--targets=" + file(routes), "--delay=1ms",
                "--out=" + dir.resolve("run")));
        args.addAll(List.of(more));
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        assertEquals(2, r.code(), args + " -> " + r.out() + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).contains(fragment), r.err());
        assertFalse(Files.exists(dir.resolve("run")), "nothing written");
    }

    @Test
    void eachBadLineIsRefusedInOneSentenceNamingItsLine() throws IOException {
        String good = "webflux-a," + NOWHERE + ",/p/a,/s/a,\n";
        refused("line 1: unknown column 'engine'; a routes file's columns are label, url, presentations, stocks, pid",
                "label,url,engine\nx," + NOWHERE + ",jstachio\n");
        refused("line 1: column stocks twice", "label,url,stocks,stocks\nx," + NOWHERE + ",/s,/s\n");
        refused("line 1: no url column", "label,stocks\nx,/s\n");
        refused("holds no route", HEADER);
        refused("line 3: label webflux-a is line 2's already; each route needs a label of its own",
                HEADER + good + "webflux-a," + NOWHERE + ",/p/b,/s/b,\n");
        refused("line 2: --target takes an http:// or https:// URL", HEADER + "x,ftp://127.0.0.1/,/p,/s,\n");
        refused("line 2: --target's host 169.254.169.254 is a cloud metadata service",
                HEADER + "x,http://169.254.169.254/,/p,/s,\n");
        refused("line 2: bench measures over clear-text HTTP/1.1", HEADER + "x,https://127.0.0.1:1/,/p,/s,\n");
        refused("line 3: route mvc-b has no path for page presentations, which --page asks for",
                HEADER + good + "mvc-b," + NOWHERE + ",,/s/b,\n", "--page=presentations,stocks");
        refused("line 2: --path's PATH is an absolute path", HEADER + "x," + NOWHERE + ",/p,s,\n");
        refused("line 2: --label takes lower-case letters", HEADER + "My App," + NOWHERE + ",/p,/s,\n");
        refused("line 2: --label=raw is a PssrBench engine's id", HEADER + "raw," + NOWHERE + ",/p,/s,\n");
        refused("line 2: pid takes the app's process id", HEADER + "x," + NOWHERE + ",/p,/s,me\n");
        refused("line 2: 4 cells where the header has 5", HEADER + "x," + NOWHERE + ",/p,/s\n");
    }

    @Test
    void theFlagsBesideARoutesFileAreRefusedInOneSentence() throws IOException {
        String routes = HEADER + "webflux-a," + NOWHERE + ",/p/a,/s/a,\n";
        refused("leave out --target", routes, "--target=" + NOWHERE);
        refused("leave out --label, --path and --target-pid", routes, "--label=x");
        for (String flag : List.of("--server=netty", "--engine=jstachio", "--mode=virtual", "--all")) {
            refused("leave out --server, --engine, --mode and --all", routes, flag);
        }
        refused("--threads sizes the pools of the servers bench starts", routes, "--threads=4");
        List<String> args = List.of("bench", "--targets=" + file(routes), "--out=" + dir.resolve("run"));
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--targets needs --delay"), r.err());
        r = CliTest.run("bench", "--targets=" + dir.resolve("none.csv"), "--delay=1ms");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("is not a readable file"), r.err());
    }

    /** The checked-in example lists the study's routes: every line passes every check but the requests. */
    @Test
    void theStudysExampleFileReadsWithEveryRoute() {
        List<Foreign> routes = Routes.read(Path.of("data/study-routes.csv"), List.of(model.Page.PRESENTATIONS,
                model.Page.STOCKS), false, Duration.ofMillis(1));
        assertTrue(routes.size() >= 16, routes.size() + " routes");
        assertTrue(routes.stream().anyMatch(f -> f.label().equals("webflux-htmlflow-suspending")
                && f.uris().get(model.Page.STOCKS).getRawPath().equals("/stocks/htmlFlow/suspending")), "a route");
    }

    /** Two apps' routes in one command: both checked, both measured, each with its rows and its provenance. */
    @Test
    void benchMeasuresEveryRouteOfTheFileInOneCommand() throws Exception {
        Path out = dir.resolve("run");
        try (ForeignServer webflux = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(1));
             ForeignServer quarkus = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(1))) {
            long pid = ProcessHandle.current().pid();   // the apps run in this JVM
            Path routes = file(HEADER + "webflux-a," + webflux.base() + ",," + ForeignServer.STOCKS + "," + pid + "\n"
                    + "quarkus-b," + quarkus.base() + "," + ForeignServer.PRESENTATIONS + "," + ForeignServer.STOCKS
                    + ",\n");
            List<String> args = new ArrayList<>(List.of("bench", "--targets=" + routes, "--delay=1ms",
                    "--out=" + out));
            args.addAll(List.of(SHORT));
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("bench: foreign app webflux-a at " + webflux.base()), r.out());
            assertTrue(r.out().contains("bench: foreign app quarkus-b at " + quarkus.base()), r.out());
        }
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(List.of("quarkus-b", "webflux-a"), rows.stream().map(Row::engine).sorted().toList(),
                rows.toString());
        for (Row row : rows) {
            assertEquals("foreign", row.server());
            assertEquals("foreign", row.mode());
            assertTrue(row.valid() && row.reqPerS() > 0, row.toString());
        }
        String provenance = Files.readString(out.resolve("provenance.json")).replace(" ", "");
        assertTrue(provenance.contains("\"label\":\"webflux-a\"") && provenance.contains("\"label\":\"quarkus-b\""),
                provenance);
        assertTrue(provenance.contains("\"pid\":" + ProcessHandle.current().pid()), provenance);
        assertTrue(Files.readString(out.resolve("report.html")).contains("quarkus-b"), "in the report");
    }

    /** verify --targets: every route checked, each page it has a path for; one failed route makes exit 1. */
    @Test
    void verifyChecksEveryRouteAndSaysWhichFailed() throws Exception {
        try (ForeignServer good = new ForeignServer(ForeignServer.Variant.GOOD, Duration.ofMillis(10));
             ForeignServer error = new ForeignServer(ForeignServer.Variant.ERROR, Duration.ofMillis(10))) {
            Path routes = file(HEADER + "good," + good.base() + ",," + ForeignServer.STOCKS + ",\n"
                    + "broken," + error.base() + "," + ForeignServer.PRESENTATIONS + "," + ForeignServer.STOCKS
                    + ",\n");
            CliTest.Run r = CliTest.run("verify", "--targets=" + routes, "--delay=10ms");
            assertEquals(1, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("verify: foreign app good passed"), r.out());
            assertTrue(r.out().contains("verify: foreign app broken FAILED on 2 of 2 pages"), r.out());
            assertTrue(r.out().contains("verify: 1 of 2 routes passed"), r.out());
            assertEquals(1, r.out().lines().filter(l -> l.endsWith("| OK")).count(), "good's one page: " + r.out());
        }
    }
}
