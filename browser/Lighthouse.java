package browser;

import base.UsageException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Google Lighthouse's command line (its npm package, run by Node) loading one page in the Debian Chromium, headless,
 * with Lighthouse's own throttling, its JSON report kept as the raw data of the load. Lighthouse is not a library of
 * the build (it is JavaScript): scripts/install-lighthouse installs the pinned version under
 * {@link #DEFAULT_HOME}, where this class looks first.
 */
final class Lighthouse {

    /** Where scripts/install-lighthouse puts it (npm --prefix), outside the repository. */
    static final Path DEFAULT_HOME = Path.of(System.getProperty("user.home"), ".cache", "pssrbench", "lighthouse");
    /** What names another install's folder (the one that holds node_modules), as --lighthouse-home does. */
    static final String HOME_ENV = "PSSRBENCH_LIGHTHOUSE";
    /**
     * What the browser is started with: headless (as browser's Selenium runs), no sandbox (CI runs as root, which
     * Chromium's sandbox refuses), no GPU (none here). Lighthouse emulates the device and window itself.
     */
    static final List<String> CHROME_FLAGS = List.of("--headless=new", "--no-sandbox", "--disable-gpu");
    /**
     * Lighthouse's --throttling-method values: simulated (its standard, the one its scores are calibrated for, and
     * so the default), the browser's own (DevTools) throttling, and none.
     */
    static final String DEFAULT_THROTTLING = "simulate";
    static final List<String> THROTTLINGS = List.of(DEFAULT_THROTTLING, "devtools", "provided");
    /** Where Lighthouse's npm package keeps its command line, under the install's folder. */
    private static final String CLI = "node_modules/lighthouse/cli/index.js";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One load as the report says it: NaN where the report has no such figure. */
    record Result(double score, double fcpMs, double lcpMs, double speedIndexMs, double tbtMs, double observedFcpMs,
                  double observedLcpMs, double observedSpeedIndexMs, String problem) {
    }

    private final Path node;
    private final Path cli;
    private final Path chrome;
    private final String throttling;
    private final String version;
    private final String nodeVersion;

    private Lighthouse(Path node, Path cli, Path chrome, String throttling) throws IOException, InterruptedException {
        this.node = node;
        this.cli = cli;
        this.chrome = chrome;
        this.throttling = throttling;
        this.version = output(List.of(node.toString(), cli.toString(), "--version"));
        this.nodeVersion = output(List.of(node.toString(), "--version"));
    }

    /**
     * Lighthouse in {@code home} (null: $PSSRBENCH_LIGHTHOUSE, else {@link #DEFAULT_HOME}), Node on PATH, and the
     * browser at {@code chrome}; fails fast, in one sentence naming how to install it, when Node or Lighthouse is
     * missing.
     */
    static Lighthouse find(Path home, Path chrome, String throttling) throws IOException, InterruptedException {
        checkThrottling(throttling);
        Path node = Chromium.onPath(List.of("node", "nodejs"));
        if (node == null) {
            throw new UsageException("--lighthouse needs Node.js 18.16 or later on PATH: install it (Debian: apt-get"
                    + " install nodejs npm), then Lighthouse with scripts/install-lighthouse.");
        }
        String env = System.getenv(HOME_ENV);
        Path folder = home != null ? home : env != null && !env.isBlank() ? Path.of(env) : DEFAULT_HOME;
        Path cli = folder.resolve(CLI);
        if (!Files.isRegularFile(cli)) {
            throw new UsageException("no Lighthouse in " + folder + ": install it with scripts/install-lighthouse"
                    + " (npm, into " + DEFAULT_HOME + "), or name the folder that holds its node_modules with"
                    + " --lighthouse-home or $" + HOME_ENV + ".");
        }
        return new Lighthouse(node, cli, chrome, throttling);
    }

    /** Refuses a throttling Lighthouse does not name, in one sentence naming those it does. */
    static void checkThrottling(String throttling) {
        if (!THROTTLINGS.contains(throttling)) {
            throw new UsageException("--lighthouse-throttling takes one of " + String.join(", ", THROTTLINGS)
                    + ", not " + throttling + ".");
        }
    }

    String version() {
        return version;
    }

    String nodeVersion() {
        return nodeVersion;
    }

    String throttling() {
        return throttling;
    }

    Path cli() {
        return cli;
    }

    /**
     * Loads {@code url} once with a fresh browser (Lighthouse starts and ends its own), the performance category
     * alone, and keeps the report at {@code report} and Lighthouse's own output at {@code log}; a load that did not
     * give a report (or gave one with Lighthouse's runtime error) says why in {@link Result#problem()}.
     */
    Result load(URI url, Path report, Path log, Duration timeout) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(node.toString(), cli.toString(), url.toString(),
                "--only-categories=performance", "--throttling-method=" + throttling, "--output=json",
                "--output-path=" + report.toAbsolutePath(), "--chrome-flags=" + String.join(" ", CHROME_FLAGS)));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("CHROME_PATH", chrome.toString());
        Process p = pb.start();
        // Node and the Chromium it starts outlive this JVM killed with SIGKILL (found running after it): Node does
        // not watch its standard input, and chrome-launcher starts Chromium detached, in a process group of its own.
        // Both end on the SIGINT the watchdog sends, as on Ctrl-C (chrome-launcher's handler kills that group).
        try (harness.Watchdog watchdog = harness.Watchdog.interrupting(p.toHandle())) {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                return failed("Lighthouse did not finish in " + timeout.toSeconds() + " s (its output: " + log + ")");
            }
        }
        if (!Files.isRegularFile(report)) {
            return failed("Lighthouse exited with " + p.exitValue() + " and no report (its output: " + log + ")");
        }
        return read(JSON.readTree(report.toFile()));
    }

    /** The figures of a Lighthouse JSON report (lhr): the simulated (or throttled) metrics and the observed ones. */
    static Result read(JsonNode lhr) {
        JsonNode audits = lhr.path("audits");
        JsonNode observed = audits.path("metrics").path("details").path("items").path(0);
        String problem = lhr.path("runtimeError").path("message").asText(null);
        JsonNode score = lhr.path("categories").path("performance").path("score");
        if (problem == null && !score.isNumber()) {
            problem = "the report has no performance score";
        }
        return new Result(number(score), number(audits.path("first-contentful-paint").path("numericValue")),
                number(audits.path("largest-contentful-paint").path("numericValue")),
                number(audits.path("speed-index").path("numericValue")),
                number(audits.path("total-blocking-time").path("numericValue")),
                number(observed.path("observedFirstContentfulPaint")),
                number(observed.path("observedLargestContentfulPaint")),
                number(observed.path("observedSpeedIndex")), problem);
    }

    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    private static Result failed(String problem) {
        double n = Double.NaN;
        return new Result(n, n, n, n, n, n, n, n, problem);
    }

    /** The first line a command prints (a version), blank when it prints nothing or does not end in 30 s. */
    static String output(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
        return new String(out, StandardCharsets.UTF_8).strip().lines().findFirst().orElse("");
    }
}
