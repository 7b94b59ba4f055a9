package cli;

import base.Durations;
import base.UsageException;
import browser.BrowserBench;
import browser.Chromium;
import browser.ForeignBrowser;
import browser.LighthouseBench;
import harness.Signals;
import http.Protocol;
import model.Page;
import site.Combination;
import site.Demo;
import site.Logs;
import tables.BrowserCsv;
import tables.Provenance;
import tables.ResultsFolder;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code browser}: the pages loaded in headless Chromium, progressive beside buffered. */
@Command(name = "browser", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Load each selected combination's pages in headless Chromium (by default every engine and"
                + " mode on ${bundle:registry.server}), beside the same server and engine in the buffered mode, and"
                + " record from navigation start: TTFB, first and largest contentful paint, when the first and the"
                + " last item were in the DOM, DOMContentLoaded and load; medians and spread in --out/browser.csv."
                + " Needs Chromium and its chromedriver (Debian: apt-get install chromium chromium-driver).")
final class BrowserCommand implements Callable<Integer> {

    /** Below this per item, a browser cannot tell progressive arrival from noise. */
    private static final Duration VISIBLE = Duration.ofMillis(20);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Selection selection;

    @Option(names = "--page", split = ",", paramLabel = "ID", defaultValue = "presentations,stocks",
            description = "Pages (default: ${DEFAULT-VALUE}).")
    List<String> pages;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "Measured loads per combination and page, each in a fresh tab without cache, after one"
                    + " unmeasured load (default: ${DEFAULT-VALUE}; with --lighthouse, "
                    + LighthouseBench.DEFAULT_RUNS + ").")
    int runs;

    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = BrowserBench.DEFAULT_DELAY_TEXT,
            description = "Per-item delay of the servers started here, where streaming is visible (default:"
                    + " ${DEFAULT-VALUE}). Units: " + Durations.UNITS + ".")
    Duration delay;

    @Option(names = "--protocol", split = ",", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "What the servers started here speak and the pages are loaded over, a comma list of h1,"
                    + " h1s (HTTP/1.1 over TLS) and h2 (HTTP/2 over TLS; Chromium speaks HTTP/2 only over TLS): each"
                    + " combination and its buffered counterpart over each, side by side; a server that does not"
                    + " speak one is left out of it (default: ${DEFAULT-VALUE}).")
    List<String> protocols;

    @Option(names = "--chromium", paramLabel = "PATH",
            description = "The Chromium or Chrome to run (default: chromium, chromium-browser or google-chrome on"
                    + " PATH).")
    Path chromium;

    @Option(names = "--chromedriver", paramLabel = "PATH",
            description = "Its chromedriver, of the same version (default: chromedriver on PATH).")
    Path chromedriver;

    @Option(names = "--lighthouse", description = "Load the pages with Google Lighthouse (its npm package, installed"
            + " by scripts/install-lighthouse) instead, with its throttling, and record its performance score, FCP,"
            + " LCP, Speed Index and total blocking time per load in --out/lighthouse-runs.csv (medians in"
            + " lighthouse.csv), each load's JSON report in --out/lighthouse/; HTTP/1.1 only.")
    boolean lighthouse;

    @Option(names = "--lighthouse-throttling", paramLabel = "ID", defaultValue = LighthouseBench.DEFAULT_THROTTLING,
            description = "Lighthouse's --throttling-method: simulate (its standard, what its scores are calibrated"
                    + " for), devtools (the browser throttled while it loads) or provided (none) (default:"
                    + " ${DEFAULT-VALUE}).")
    String lighthouseThrottling;

    @Option(names = "--lighthouse-home", paramLabel = "DIR",
            description = "The folder whose node_modules holds Lighthouse (default: $PSSRBENCH_LIGHTHOUSE, else"
                    + " ~/.cache/pssrbench/lighthouse, where scripts/install-lighthouse puts it).")
    Path lighthouseHome;

    @Option(names = "--out", paramLabel = "DIR", description = "Results folder (default: results/<UTC timestamp>);"
            + " may be a bench results folder, whose report then shows both.")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<Page<?>> chosenPages = pages.stream().<Page<?>>map(Page::byId).distinct().toList();
        if (runs < 1) {
            throw new UsageException("--runs takes a whole number of at least 1.");
        }
        if (delay.isZero() || delay.isNegative()) {
            throw new UsageException("--delay must be longer than 0 for a browser to see items arrive.");
        }
        List<Protocol> overs = parseProtocols(protocols);
        if (lighthouse && !overs.equals(List.of(Protocol.H1))) {
            throw new UsageException("--lighthouse loads pages over h1 only: leave out --protocol.");
        }
        if (lighthouse && selection.describesForeign()) {
            throw new UsageException("--lighthouse measures PssrBench's combinations or a --target beside its"
                    + " buffered counterpart, not a foreign app: leave out --label.");
        }
        if (!lighthouse && (Cli.given(spec, "--lighthouse-throttling") || lighthouseHome != null)) {
            throw new UsageException("--lighthouse-throttling and --lighthouse-home go with --lighthouse.");
        }
        LighthouseBench.checkThrottling(lighthouseThrottling);
        if (lighthouse && !Cli.given(spec, "--runs")) {
            runs = LighthouseBench.DEFAULT_RUNS;
        }
        if (Cli.given(spec, "--protocol") && (selection.target != null || selection.describesForeign())) {
            throw new UsageException("--protocol chooses what the servers started here speak; a --target is loaded"
                    + " over its own http:// URL: leave out --protocol.");
        }
        // Before the browser is looked for: a protocol no selected server speaks is a usage error like the others.
        List<String> leftOut = selection.target != null || selection.describesForeign() ? List.of()
                : speaking(selection.combinations(List.of(Registry.SERVERS.get(0).id())), overs);
        Path folder = out != null ? out : Path.of("results", DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC).format(Instant.now()));
        ResultsFolder.checkWritable(folder, "--out");
        String file = lighthouse ? LighthouseBench.FILE : BrowserCsv.FILE;
        if (Files.exists(folder.resolve(file))) {
            throw new UsageException(folder + " already holds " + file + "; choose another --out.");
        }
        Path chrome = lighthouse ? Chromium.findBrowser(chromium) : null;   // Lighthouse needs no chromedriver
        Chromium.Binaries binaries = lighthouse ? null : Chromium.find(chromium, chromedriver);
        if (selection.describesForeign()) {
            return foreign(folder, chosenPages, binaries);
        }
        // The last check, after every usage error: one request to a running server, before anything is written.
        Target running = selection.target(delay, Cli.given(spec, "--delay"));
        List<Combination> chosen = running == null
                ? selection.combinations(List.of(Registry.SERVERS.get(0).id())) : List.of(running.combination());
        leftOut.forEach(line -> spec.commandLine().getOut().println("browser: " + line));
        URI target = running == null ? null : running.url();
        java.util.function.Function<Page<?>, URI> bufferedTarget = null;
        Duration measuredDelay = running == null ? delay : running.delay();
        if (running != null) {
            spec.commandLine().getOut().println("browser: " + running.note());
            if (!running.combination().mode().wholePage()) {
                if (running.info() == null || running.info().bufferedPath(chosenPages.get(0).id()) == null) {
                    throw new UsageException("the server at " + target + " serves no buffered counterpart to compare"
                            + " with: start it with serve --demo, which also answers " + Demo.BUFFERED + "/PAGE"
                            + " rendered by the same engine in the buffered mode.");
                }
                var info = running.info();
                bufferedTarget = page -> target.resolve(info.bufferedPath(page.id()));
            }
            if (measuredDelay.compareTo(VISIBLE) < 0) {
                spec.commandLine().getOut().println("browser: at " + Durations.format(measuredDelay) + " per item"
                        + " a browser cannot tell progressive from buffered; serve with --delay="
                        + BrowserBench.DEFAULT_DELAY_TEXT + " (or --demo) to see it.");
            }
        }
        Logs.configure();
        Map<String, Object> flags = Provenance.flags(spec.commandLine().getParseResult());
        flags.put("selected", chosen.stream().map(Combination::toString).toList());
        if (running != null) {   // which server was measured, and where: the URL as checked, its host resolved
            flags.put("measured", running.note());
        }
        if (lighthouse) {
            return lighthouse(new LighthouseBench.Plan(chosen, Registry.buffered(), chosenPages, runs, measuredDelay,
                    folder, chrome, lighthouseHome, lighthouseThrottling, flags, target, bufferedTarget));
        }
        BrowserBench bench = new BrowserBench(new BrowserBench.Plan(chosen, Registry.buffered(), chosenPages, runs,
                measuredDelay, folder, binaries, flags, target, bufferedTarget, Registry.baselineId(),
                running == null ? overs : List.of(Protocol.H1),
                selection.trust == null ? List.of() : http.Tls.publicKeyHashes(selection.trust)),
                spec.commandLine().getOut());
        Runnable restoreSignals = Signals.onTermination(bench::stop);
        try {
            int invalid = bench.run();
            if (invalid < 0) {   // 130: as shells report Ctrl-C; browser has no --resume
                spec.commandLine().getErr().println("pssrbench: stopped; the loads finished so far are kept in "
                        + folder + " (each row says how many runs it has).");
                spec.commandLine().getErr().flush();
                return 130;
            }
            return invalid == 0 ? 0 : 1;
        } finally {
            restoreSignals.run();
        }
    }

    /** browser --lighthouse: Lighthouse and Node found (or refused in one sentence) before anything is written. */
    private int lighthouse(LighthouseBench.Plan plan) throws Exception {
        LighthouseBench bench = new LighthouseBench(plan, spec.commandLine().getOut());
        Runnable restoreSignals = Signals.onTermination(bench::stop);
        try {
            int invalid = bench.run();
            if (invalid < 0) {
                spec.commandLine().getErr().println("pssrbench: stopped; the loads finished so far are kept in "
                        + plan.out() + ".");
                spec.commandLine().getErr().flush();
                return 130;
            }
            return invalid == 0 ? 0 : 1;
        } finally {
            restoreSignals.run();
        }
    }

    /**
     * The protocols asked, in their order, once each; h2c (or an unknown id) refused in one sentence: Chromium
     * speaks HTTP/2 only over TLS, so it would load an h2c port over HTTP/1.1 and measure h1 under h2c's name.
     */
    static List<Protocol> parseProtocols(List<String> ids) {
        List<Protocol> asked = ids.stream().map(String::strip).map(Protocol::byId).distinct().toList();
        asked.forEach(Protocol.Command.BROWSER::check);
        return asked;
    }

    /**
     * What is left out, a line each (a server that does not speak a protocol is not measured over it, as serve
     * would refuse it); a protocol none of the selected servers speaks is a usage error naming those that do.
     */
    static List<String> speaking(List<Combination> chosen, List<Protocol> protocols) {
        List<site.Server> servers = chosen.stream().map(Combination::server).distinct().toList();
        List<String> lines = new java.util.ArrayList<>();
        for (Protocol p : protocols) {
            Registry.speaking(chosen, p, false);
            List<site.Server> without = servers.stream().filter(s -> !s.protocols().contains(p)).toList();
            if (!without.isEmpty()) {
                lines.add(String.join(", ", without.stream().map(s -> s.id()).toList()) + " left out over " + p.id()
                        + ", which " + (without.size() == 1 ? "it does" : "they do") + " not speak");
            }
        }
        return lines;
    }

    /**
     * A foreign app's pages (--target with --label): checked by the same guard as bench's before any load, then
     * loaded alone, with no buffered counterpart (the app serves none).
     */
    private int foreign(Path folder, List<Page<?>> chosenPages, Chromium.Binaries binaries) throws Exception {
        Foreign foreign = selection.foreign(delay, Cli.given(spec, "--delay"));
        foreign.guard(chosenPages);
        spec.commandLine().getOut().println("browser: " + foreign.note() + "; loaded alone: a foreign app serves"
                + " no buffered counterpart to compare with");
        Logs.configure();
        Map<String, Object> flags = Provenance.flags(spec.commandLine().getParseResult());
        flags.put("measured", foreign.note());
        flags.put("foreign", foreign.provenance());
        ForeignBrowser run = new ForeignBrowser(new ForeignBrowser.Plan(foreign.label(), foreign.uris(), chosenPages,
                runs, foreign.delay(), folder, binaries, flags, Registry.baselineId(), Registry.buffered().id()),
                spec.commandLine().getOut());
        Runnable restoreSignals = Signals.onTermination(run::stop);
        try {
            int invalid = run.run();
            if (invalid < 0) {
                spec.commandLine().getErr().println("pssrbench: stopped; the loads finished so far are kept in "
                        + folder + ".");
                spec.commandLine().getErr().flush();
                return 130;
            }
            return invalid == 0 ? 0 : 1;
        } finally {
            restoreSignals.run();
        }
    }
}
