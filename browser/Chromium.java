package browser;

import base.Failure;
import base.UsageException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import tables.Milestone;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The system's headless Chromium, driven through its own chromedriver with Selenium: one browser (a fresh profile in
 * a temporary folder) that loads pages one at a time, each in a fresh tab with the cache disabled, and reads what the
 * page itself measured (its Performance API, and a script injected before the page's first byte that notes when the
 * item elements entered the DOM). The paths of both programs are given to Selenium, so Selenium Manager never looks
 * for, or downloads, a browser or a driver.
 */
public final class Chromium implements AutoCloseable {

    /**
     * The browser's flags, besides a fresh {@code --user-data-dir}: headless, no sandbox (it runs as root in
     * containers), no GPU, TCP only (no QUIC: HTTP/1.1, or HTTP/2 over TLS where the server offers it), none of the
     * background traffic of a first run (updates, sync, component downloads) that would share the machine with the
     * measurement; a desktop-sized window, which decides what the largest contentful paint is.
     */
    public static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--window-size=1280,900");

    /** What to install where neither is found: one sentence, said as is. */
    public static final String INSTALL = "no Chromium found: install it and its driver (Debian: apt-get install"
            + " chromium chromium-driver; elsewhere a Chromium or Chrome with the chromedriver of the same version on"
            + " PATH), or name them with --chromium and --chromedriver.";

    private static final List<String> BROWSER_NAMES = List.of("chromium", "chromium-browser", "google-chrome",
            "google-chrome-stable", "chrome");
    private static final String DRIVER_NAME = "chromedriver";
    /** Selenium logs a warning per session about its CDP version tables, which this class does not use. */
    private static final Logger SELENIUM = Logger.getLogger("org.openqa.selenium");

    /** The two programs. */
    public record Binaries(Path browser, Path driver) {
    }

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path profile;
    private final Binaries binaries;
    /** Ends the driver and the browser if this JVM ends without closing them (SIGKILL). */
    private final harness.Watchdog watchdog;

    private Chromium(ChromeDriverService service, ChromeDriver driver, Path profile, Binaries binaries,
                     harness.Watchdog watchdog) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
        this.binaries = binaries;
        this.watchdog = watchdog;
    }

    /**
     * The browser and its driver: the given paths (null: looked up on PATH, the browser under its usual names).
     *
     * @throws UsageException naming what to install when either is missing
     */
    public static Binaries find(Path browser, Path driver) {
        Path b = browser != null ? executable(browser, "--chromium") : onPath(BROWSER_NAMES);
        Path d = driver != null ? executable(driver, "--chromedriver") : onPath(List.of(DRIVER_NAME));
        if (b == null || d == null) {
            throw new UsageException(INSTALL);
        }
        return new Binaries(b, d);
    }

    /** Whether {@link #find} finds both on PATH (for tests that need a browser). */
    public static boolean installed() {
        return onPath(BROWSER_NAMES) != null && onPath(List.of(DRIVER_NAME)) != null;
    }

    private static Path executable(Path path, String flag) {
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new UsageException(flag + " names " + path + ", which is not an executable file.");
        }
        return path;
    }

    /** The browser alone ({@code browser}, else the first on PATH), for a tool that starts it itself (Lighthouse). */
    public static Path findBrowser(Path browser) {
        Path b = browser != null ? executable(browser, "--chromium") : onPath(BROWSER_NAMES);
        if (b == null) {
            throw new UsageException("no Chromium found: install it (Debian: apt-get install chromium), or name it"
                    + " with --chromium.");
        }
        return b;
    }

    static Path onPath(List<String> names) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : names) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** The flags that make the browser accept the certificates of {@code trustedKeys}, and no others. */
    public static List<String> certificateFlags(List<String> trustedKeys) {
        return trustedKeys.isEmpty() ? List.of()
                : List.of("--ignore-certificate-errors-spki-list=" + String.join(",", trustedKeys));
    }

    /** Starts the driver and a browser with a fresh profile; their output goes to {@code log}. */
    public static Chromium start(Binaries binaries, Path log) {
        return start(binaries, log, List.of());
    }

    /**
     * The same, the browser accepting the certificates whose public keys hash to {@code trustedKeys} (SHA-256 of
     * the SubjectPublicKeyInfo, base64: {@code --trust}'s, http.Tls#publicKeyHashes) beside its own trust store,
     * through Chromium's {@code --ignore-certificate-errors-spki-list} (which needs the profile of
     * {@code --user-data-dir}): exactly those keys, never every certificate.
     */
    public static Chromium start(Binaries binaries, Path log, List<String> trustedKeys) {
        SELENIUM.setLevel(Level.SEVERE);
        Path profile;
        try {
            profile = Files.createTempDirectory("pssrbench-chromium-");
        } catch (IOException e) {
            throw new Failure("cannot create a temporary folder for the browser's profile: " + e.getMessage() + ".");
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(binaries.driver().toFile()).usingAnyFreePort().withLogFile(log.toFile())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binaries.browser().toString());
        options.addArguments(FLAGS);
        // Also what makes --ignore-certificate-errors-spki-list count: Chromium ignores it without a --user-data-dir.
        options.addArguments("--user-data-dir=" + profile);
        options.addArguments(certificateFlags(trustedKeys));
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
            try {
                return new Chromium(service, driver, profile, binaries, harness.Watchdog.ending(binaries.driver()));
            } catch (IOException e) {   // no shell to watch them: not started at all rather than left behind
                driver.quit();
                throw new WebDriverException("no watchdog for the browser: " + e.getMessage(), e);
            }
        } catch (WebDriverException e) {
            service.stop();
            delete(profile);
            throw new Failure("the browser " + binaries.browser() + " did not start through " + binaries.driver()
                    + ": " + firstLine(e) + " (see " + log + ").");
        }
    }

    /** The browser's name and version, and its driver's, as they report them. */
    public String version() {
        Object chrome = driver.getCapabilities().getCapability("chrome");
        String driverVersion = chrome instanceof Map<?, ?> m && m.get("chromedriverVersion") != null
                ? String.valueOf(m.get("chromedriverVersion")).replaceAll(" \\(.*", "") : "?";
        // The driver calls every Chromium "chrome": the program's name tells which it is.
        String name = binaries.browser().getFileName().toString().contains("chromium") ? "Chromium" : "Chrome";
        return name + " " + driver.getCapabilities().getBrowserVersion() + " (chromedriver " + driverVersion + ")";
    }

    /**
     * One load's measurements, in milliseconds from the navigation's start; {@code nextHop} the protocol the page
     * came over as the browser reports it ("" when it did not); {@code problem} "" when it counts.
     */
    public record Loaded(Map<Milestone, Double> ms, int itemsSeen, int status, String nextHop, String problem) {
    }

    /**
     * The protocol Chromium reports a page came over ({@code PerformanceNavigationTiming.nextHopProtocol}, the ALPN
     * name) when it was asked over {@code protocol}: "h2" for HTTP/2, "http/1.1" for HTTP/1.1 in clear text or over
     * TLS. Not for h2c, which Chromium does not speak (it would load such a port over HTTP/1.1).
     */
    public static String nextHop(http.Protocol protocol) {
        if (protocol.http2() && !protocol.tls()) {
            throw new IllegalArgumentException("Chromium speaks HTTP/2 only over TLS, not " + protocol.id());
        }
        return protocol.http2() ? "h2" : "http/1.1";
    }

    /**
     * Why a load does not count for its protocol: the browser reported {@code seen}, not {@code expected} (a server
     * or a browser that fell back to HTTP/1.1 would otherwise be measured as HTTP/2); null when they agree.
     */
    static String protocolProblem(String seen, String expected) {
        return expected.equals(seen) ? null : "the page came over " + (seen == null || seen.isEmpty()
                ? "a protocol the browser did not report" : seen) + ", not " + expected;
    }

    /**
     * Loads {@code url} in a fresh tab with the cache disabled and returns what the page measured once its load
     * event has passed; {@code itemSelector} matches one element per item, {@code items} of them; the page must
     * come over {@code nextHop} ({@link #nextHop}).
     */
    public Loaded load(URI url, String itemSelector, int items, Duration timeout, String nextHop) {
        try {
            freshTab();
            driver.manage().timeouts().pageLoadTimeout(timeout);
            driver.executeCdpCommand("Network.enable", Map.of());
            driver.executeCdpCommand("Network.setCacheDisabled", Map.of("cacheDisabled", true));
            driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
                    PageScripts.OBSERVER.replace("$SELECTOR", json(itemSelector))
                            .replace("$ITEMS", String.valueOf(items))));
            driver.get(url.toString());   // returns after the load event (page load strategy "normal")
            Object result = ((JavascriptExecutor) driver).executeAsyncScript(PageScripts.READ);
            if (!(result instanceof Map<?, ?> r)) {
                return new Loaded(Map.of(), 0, 0, "", "the page returned no measurements");
            }
            Map<Milestone, Double> ms = new EnumMap<>(Milestone.class);
            for (Milestone m : Milestone.values()) {
                if (r.get(m.column()) instanceof Number n) {
                    ms.put(m, n.doubleValue());
                }
            }
            int seen = r.get("items") instanceof Number n ? n.intValue() : 0;
            int status = r.get("status") instanceof Number n ? n.intValue() : 0;
            String seenProtocol = r.get("next_hop") instanceof String p ? p : "";
            List<String> problems = new ArrayList<>();
            String wrongProtocol = protocolProblem(seenProtocol, nextHop);
            if (wrongProtocol != null) {
                problems.add(wrongProtocol);
            }
            if (status != 200) {
                problems.add("status " + status);
            }
            if (seen != items) {
                problems.add(seen + " item elements (" + itemSelector + "), not " + items);
            }
            List<String> missing = Stream.of(Milestone.values()).filter(m -> !ms.containsKey(m))
                    .map(Milestone::column).toList();
            if (!missing.isEmpty()) {
                problems.add("not reported: " + String.join(", ", missing));
            }
            if (r.get("unstyled") instanceof List<?> unstyled && !unstyled.isEmpty()) {
                problems.add("stylesheet not applied: " + unstyled.get(0));
            }
            return new Loaded(ms, seen, status, seenProtocol, String.join("; ", problems));
        } catch (WebDriverException e) {
            return new Loaded(Map.of(), 0, 0, "", "the browser failed: " + firstLine(e));
        }
    }

    /** Opens a new tab, closes the others and stays in the new one: every load starts from a fresh page. */
    private void freshTab() {
        List<String> old = new ArrayList<>(driver.getWindowHandles());
        driver.switchTo().newWindow(WindowType.TAB);
        String fresh = driver.getWindowHandle();
        for (String handle : old) {
            driver.switchTo().window(handle).close();
        }
        driver.switchTo().window(fresh);
    }

    /** The browser quits, the driver stops, the profile is deleted. */
    @Override
    public void close() {
        try {
            driver.quit();
        } catch (WebDriverException e) {
            // gone already
        } finally {
            service.stop();
            watchdog.close();
            delete(profile);
        }
    }

    private static void delete(Path folder) {
        for (int attempt = 0; attempt < 3; attempt++) {   // the browser's last writes may race the first attempt
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (IOException | java.io.UncheckedIOException e) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static String firstLine(WebDriverException e) {
        String message = String.valueOf(e.getMessage());
        return message.lines().findFirst().orElse(e.getClass().getSimpleName()).strip();
    }

    private static String json(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
