package browser;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tables.BrowserCsv;
import tables.BrowserRow;
import tables.Milestone;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code browser} through the packaged jar, in the system's headless Chromium, against one combination with few runs
 * and a short delay: the physical facts of progressive rendering, as a browser sees them. Skipped, with the reason,
 * where no Chromium is installed (.ci/run installs it).
 */
class BrowserIT {

    /** Per item: long enough for a frame or two between items, short enough for a quick test. */
    private static final int DELAY_MS = 150;
    private static final int ITEMS = 10;   // presentations

    private static Path jar;

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    /** The packaged jar, found once (LighthouseIT runs its commands through this class too). */
    private static Path jar() {
        if (jar == null) {
            findJar();
        }
        return jar;
    }

    private static void assumeChromium() {
        Assumptions.assumeTrue(Chromium.installed(), "no Chromium and chromedriver on PATH, so browser is not run:"
                + " apt-get install chromium chromium-driver (.ci/run installs them)");
    }

    static List<String> java(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar().toString()));
        command.addAll(List.of(args));
        return command;
    }

    record Done(int code, String out, String err) {
    }

    static Done run(ProcessBuilder pb) throws Exception {
        Process p = pb.start();
        CompletableFuture<String> out = harness.Drain.of(p.getInputStream());
        CompletableFuture<String> err = harness.Drain.of(p.getErrorStream());
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            throw new AssertionError("browser did not finish in 5 minutes: " + out.getNow("") + err.getNow(""));
        }
        return new Done(p.exitValue(), out.get(), err.get());
    }

    private static BrowserRow row(List<BrowserRow> rows, String mode) {
        return rows.stream().filter(r -> r.mode().equals(mode)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + mode + " row in " + rows));
    }

    private static double p50(BrowserRow r, Milestone m) {
        double v = r.p50(m);
        assertFalse(Double.isNaN(v), m + " measured: " + r);
        return v;
    }

    /** The facts, from the rows of one progressive combination and its buffered counterpart. */
    private static void assertPhysics(List<BrowserRow> rows, String mode, String output) {
        BrowserRow progressive = row(rows, mode);
        BrowserRow buffered = row(rows, "buffered");
        assertTrue(progressive.valid() && buffered.valid(), output);
        double lastExists = ITEMS * DELAY_MS;   // item i exists i delays after the request: the last at items x delay
        assertTrue(p50(progressive, Milestone.FCP) < lastExists / 2, "progressive: the first paint comes well before"
                + " the last item could exist: " + progressive);
        assertTrue(p50(buffered, Milestone.FCP) >= lastExists, "buffered: the first paint comes after the last item"
                + " exists: " + buffered);
        double first = p50(progressive, Milestone.FIRST_ITEM);
        assertTrue(first >= DELAY_MS && first < 2 * DELAY_MS, "progressive: the first item is in the DOM about one"
                + " delay after navigation start (" + DELAY_MS + " ms): " + first);
        assertTrue(p50(progressive, Milestone.LAST_ITEM) >= lastExists, progressive.toString());
        assertTrue(p50(buffered, Milestone.FIRST_ITEM) >= lastExists, "buffered: no item before the last exists: "
                + buffered);
        assertTrue(progressive.ratio(Milestone.FCP) < 0.5, progressive.toString());
        assertEquals(p50(buffered, Milestone.FCP), progressive.bufferedP50().get(Milestone.FCP), 1e-9,
                "each progressive row carries its buffered counterpart");
    }

    @Test
    void progressiveFirstPaintComesLongBeforeTheLastItemAndBufferedAfterIt(@TempDir Path out) throws Exception {
        assumeChromium();
        Done d = run(new ProcessBuilder(java("browser", "--server=nima", "--engine=jstachio", "--mode=virtual",
                "--page=presentations", "--runs=2", "--delay=" + DELAY_MS + "ms", "--out=" + out)));
        String output = d.out() + d.err();
        assertEquals(0, d.code(), output);
        List<BrowserRow> rows = BrowserCsv.read(out.resolve(BrowserCsv.FILE));
        assertEquals(List.of("virtual", "buffered"), rows.stream().map(BrowserRow::mode).toList(), output);
        rows.forEach(r -> assertEquals(2, r.runs(), r.toString()));
        assertPhysics(rows, "virtual", output);
        assertEquals(5, Files.readAllLines(out.resolve(BrowserCsv.RUNS_FILE)).size(), "a line per measured load");

        var provenance = new ObjectMapper().readTree(out.resolve("provenance.json").toFile());
        assertEquals("browser", provenance.path("command").asText());
        assertTrue(provenance.path("browser").asText().matches("(Chromium|Chrome) \\d+\\..*"), provenance.toString());
        assertTrue(provenance.has("load_average_after"), provenance.toString());
        var report = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        assertEquals(1, report.select("section svg").size(), "a chart for the page");
        assertTrue(d.out().contains("browser: report in "), d.out());
        try (var logs = Files.list(out.resolve("logs"))) {
            assertTrue(logs.anyMatch(p -> p.getFileName().toString().startsWith("chromedriver")), "driver log kept");
        }
    }

    /**
     * Over HTTP/2: the servers started over TLS with the run's certificate, which the browser accepts by its key alone
     * (not every certificate), and every load proven to have come over h2 (a load over another protocol does not
     * count, and its row is not valid). The page streams over h2 as over HTTP/1.1.
     */
    @Test
    void overHttp2ThePagesComeOverH2AndStillStream(@TempDir Path out) throws Exception {
        assumeChromium();
        Done d = run(new ProcessBuilder(java("browser", "--server=nima", "--engine=jstachio", "--mode=virtual",
                "--page=presentations", "--runs=1", "--delay=" + DELAY_MS + "ms", "--protocol=h2", "--out=" + out)));
        String output = d.out() + d.err();
        assertEquals(0, d.code(), output);
        List<BrowserRow> rows = BrowserCsv.read(out.resolve(BrowserCsv.FILE));
        assertEquals(List.of("virtual h2", "buffered h2"), rows.stream().map(r -> r.mode() + " " + r.protocol())
                .toList(), output);
        assertPhysics(rows, "virtual", output);
        List<String> loads = Files.readAllLines(out.resolve(BrowserCsv.RUNS_FILE));
        assertEquals(3, loads.size(), "a line per measured load: " + loads);
        loads.stream().skip(1).forEach(l -> assertTrue(l.contains(",presentations,h2,1,") && l.contains(",true,"),
                l));

        var provenance = new ObjectMapper().readTree(out.resolve("provenance.json").toFile());
        List<String> flags = new ArrayList<>();
        provenance.path("browser_flags").forEach(f -> flags.add(f.asText()));
        assertTrue(flags.stream().anyMatch(f -> f.matches("--ignore-certificate-errors-spki-list=[A-Za-z0-9+/]{43}=")),
                "the certificate accepted by its key: " + flags);
        assertFalse(flags.contains("--ignore-certificate-errors"), "not every certificate: " + flags);
        assertEquals("h2", provenance.path("protocols").path(0).asText(), provenance.toString());
    }

    @Test
    void aDemoServerIsMeasuredAtItsOwnDelayAgainstItsBufferedPages(@TempDir Path out) throws Exception {
        assumeChromium();
        Process server = new ProcessBuilder(java("serve", "--demo", "--port=0", "--server=netty",
                "--engine=htmlflow", "--mode=reactive", "--delay=" + DELAY_MS + "ms")).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String first = lines.readLine();
            Matcher url = Pattern.compile("serving (http://\\S+/) ").matcher(String.valueOf(first));
            assertTrue(url.find(), first);
            assertTrue(String.valueOf(lines.readLine()).contains("demo at " + url.group(1) + "demo"));
            Done d = run(new ProcessBuilder(java("browser", "--target=" + url.group(1), "--page=presentations",
                    "--runs=1", "--out=" + out)));
            String output = d.out() + d.err();
            assertEquals(0, d.code(), output);
            List<BrowserRow> rows = BrowserCsv.read(out.resolve(BrowserCsv.FILE));
            assertEquals(List.of("reactive", "buffered"), rows.stream().map(BrowserRow::mode).toList(), output);
            assertTrue(row(rows, "buffered").note().contains("/buffered/presentations"), rows.toString());
            assertPhysics(rows, "reactive", output);
        } finally {
            server.destroy();
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "the demo server stops");
        }
    }

    @Test
    void withoutABrowserItSaysWhatToInstallInOneSentence(@TempDir Path out) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(java("browser", "--engine=jstachio", "--mode=virtual",
                "--out=" + out));
        pb.environment().put("PATH", out.toString());   // nothing there
        Done d = run(pb);
        assertEquals(2, d.code(), d.out() + d.err());
        assertEquals("pssrbench: " + Chromium.INSTALL + "\n", d.err());
        assertFalse(Files.exists(out.resolve(BrowserCsv.FILE)), "nothing written");
    }
}
