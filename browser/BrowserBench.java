package browser;

import base.Durations;
import harness.ServerProcess;
import http.Protocol;
import model.Mode;
import model.Page;
import report.Report;
import site.Combination;
import site.Demo;
import tables.BrowserCsv;
import tables.BrowserRow;
import tables.BrowserRun;
import tables.Milestone;
import tables.Provenance;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code browser}: each selected combination's pages loaded in headless Chromium, beside the same server and engine in
 * the buffered mode, the two kinds of load interleaved (progressive, buffered, progressive, ...) so that a change in
 * the machine's load touches both alike. Per server, engine and protocol (each protocol in turn, so that one pair's
 * protocols are measured close in time): one buffered server JVM, one server JVM per progressive mode in turn, all
 * speaking that protocol, one browser; per page, one unmeasured load of each (the servers' and the browser's first
 * use, and the connection's handshake), then {@code runs} measured loads of each. Rows are written after each group,
 * so an interrupted run keeps what it finished.
 */
public final class BrowserBench {

    /**
     * browser's --delay as written: one at which each item's arrival shows in a browser (a paint takes a frame,
     * ~17 ms). Not serve's default ({@link site.ServeConfig#DEFAULT_DELAY}) on purpose.
     */
    public static final String DEFAULT_DELAY_TEXT = "200ms";

    /** What browser can load pages over: Chromium speaks HTTP/2 only over TLS, so not h2c. */
    public static final List<Protocol> PROTOCOLS = Protocol.Command.BROWSER.protocols();

    /**
     * What to measure. {@code target} null: servers started here, over each of {@code protocols} their server speaks
     * ({@link #PROTOCOLS}); else the one combination runs there, its buffered counterpart at {@code bufferedTarget}
     * (null when the combination is the buffered one), over {@code protocols}' one. {@code trustedKeys}: the
     * public-key hashes of --trust's certificates, which the browser accepts for an https:// target (empty: its own
     * trust store alone).
     */
    public record Plan(List<Combination> combinations, Mode buffered, List<Page<?>> pages, int runs, Duration delay,
                       Path out, Chromium.Binaries binaries, Map<String, Object> flags, URI target,
                       Function<Page<?>, URI> bufferedTarget, String baseline, List<Protocol> protocols,
                       List<String> trustedKeys) {
        public Plan {
            protocols = List.copyOf(protocols);
            trustedKeys = List.copyOf(trustedKeys);
            if (protocols.isEmpty() || !PROTOCOLS.containsAll(protocols)) {
                throw new IllegalArgumentException("browser loads pages over " + Protocol.ids(PROTOCOLS) + ", not "
                        + Protocol.ids(protocols));
            }
        }
    }

    /** Server start-up and stop, browser start, per server JVM (measured on a 2-core machine: 3 to 6 s). */
    static final double SETUP_SECONDS = 6;
    /**
     * Beyond the items' time, a load's own: a fresh tab and the navigation (about 0.3 s), then the reading, which
     * waits for 250 ms without a new paint after the load event (PageScripts.READ) and a frame or more for the paints
     * to be reported. The estimate once counted 0.4 s, without that wait, and undershot.
     */
    static final double LOAD_SECONDS = 0.7;
    /** This JVM's own start and the report written at the end, once per run: the estimate once left them out. */
    static final double START_SECONDS = 5;

    private final Plan plan;
    private final PrintWriter console;
    private final List<BrowserRow> rows = new ArrayList<>();
    private final List<BrowserRun> loads = new ArrayList<>();
    private volatile boolean stopped;

    public BrowserBench(Plan plan, PrintWriter console) {
        this.plan = plan;
        this.console = console;
    }

    /** Ends the run soon, from any thread (Ctrl-C): the load under way finishes, what is finished is kept. */
    public void stop() {
        stopped = true;
    }

    /**
     * One server and engine over one protocol: the progressive combinations to measure, and the buffered one beside
     * them (measured alone when no progressive one is selected).
     */
    private record Group(String server, String engine, Protocol protocol, List<Combination> progressive,
                         Combination buffered) {

        /** What tells this group's files apart: nothing over h1 (the names browser has always used), else "-h2". */
        String suffix() {
            return protocol == Protocol.H1 ? "" : "-" + protocol.id();
        }
    }

    /**
     * The run's time in seconds, said before it starts: {@code progressive}, per server and engine, how many
     * progressive combinations are measured beside its buffered one (0: the buffered one alone). Each is loaded
     * {@code runs} times and once to warm up, alternating with the buffered one.
     */
    static double estimateSeconds(List<Integer> progressive, List<Page<?>> pages, int runs, Duration delay,
                                  boolean target) {
        double loadSeconds = pages.stream().mapToDouble(p -> p.items().size() * delay.toNanos() / 1e9
                + LOAD_SECONDS).sum();
        double seconds = START_SECONDS;
        for (int n : progressive) {
            int kinds = n * 2 + (n == 0 ? 1 : 0);
            seconds += kinds * (runs + 1) * loadSeconds + (target ? SETUP_SECONDS : (n + 1) * SETUP_SECONDS);
        }
        return seconds;
    }

    /**
     * The line said before the run: what it measures and about how long it takes; over which protocols only when not
     * HTTP/1.1 alone, as browser always measured.
     */
    static String summary(int pairs, int combinations, List<Protocol> protocols, int pages, int runs, Duration delay,
                          double seconds) {
        long minutes = (long) Math.ceil(seconds / 60);
        return String.format(Locale.ROOT, "browser: %s, %s beside buffered%s, %s, %s each at %s per item: about %s",
                count(pairs, "server and engine pair"), count(combinations, "combination"),
                protocols.equals(List.of(Protocol.H1)) ? "" : " over " + Protocol.ids(protocols), count(pages, "page"),
                count(runs, "run"), Durations.format(delay), count(minutes, "minute"));
    }

    private static String count(long n, String singular) {
        return n + " " + singular + (n == 1 ? "" : "s");
    }

    /** Runs it; returns the number of rows that are not valid, or -1 when it was stopped before the end. */
    public int run() throws IOException, InterruptedException {
        Files.createDirectories(plan.out().resolve("logs"));
        List<Group> groups = groups();
        Map<String, Group> pairs = new LinkedHashMap<>();   // a pair's groups differ by protocol alone
        groups.forEach(g -> pairs.putIfAbsent(g.server() + " " + g.engine(), g));
        console.println(summary(pairs.size(), pairs.values().stream().mapToInt(g -> Math.max(1,
                g.progressive().size())).sum(), plan.protocols(), plan.pages().size(), plan.runs(), plan.delay(),
                estimateSeconds(groups.stream().map(g -> g.progressive().size()).toList(), plan.pages(),
                        plan.runs(), plan.delay(), plan.target() != null)));
        console.flush();
        String browserVersion = null;
        try (BrowserServers servers = BrowserServers.of(plan.target(), plan.bufferedTarget(), plan.delay(),
                plan.out().resolve("logs"), plan.protocols())) {
            for (Group g : groups) {
                if (stopped) {
                    break;
                }
                try (Chromium chromium = Chromium.start(plan.binaries(), plan.out().resolve("logs/chromedriver-"
                        + g.server() + "-" + g.engine() + g.suffix() + ".log"), keys(servers))) {
                    if (browserVersion == null) {
                        browserVersion = chromium.version();
                        writeProvenance(browserVersion, servers);
                    }
                    measure(g, chromium, servers);
                }
                BrowserCsv.write(plan.out(), rows, loads);
            }
        }
        if (browserVersion != null) {
            Provenance.finish(plan.out(), Map.of("stopped", stopped, "loads_measured", loads.size()));
        }
        BrowserCsv.write(plan.out(), rows, loads);
        BrowserOutput.table(console, rows, plan.out());
        console.println("browser: report in " + Report.write(plan.out(), plan.baseline(), plan.buffered().id())
                .toAbsolutePath());
        console.flush();
        if (stopped) {
            return -1;
        }
        return (int) rows.stream().filter(r -> !r.valid()).count();
    }

    /**
     * The selection by server and engine in its order, each pair over each protocol its server speaks in turn (a
     * server that does not speak one is left out of it, as serve would refuse it; BrowserCommand said so).
     */
    private List<Group> groups() {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Combination c : plan.combinations()) {
            for (Protocol p : plan.protocols()) {
                if (!c.server().protocols().contains(p)) {
                    continue;
                }
                String key = c.server().id() + " " + c.engine().id() + " " + p.id();
                Group g = groups.computeIfAbsent(key, k -> new Group(c.server().id(), c.engine().id(), p,
                        new ArrayList<>(), new Combination(c.server(), c.engine(), plan.buffered())));
                if (!c.mode().wholePage()) {
                    g.progressive().add(c);
                }
            }
        }
        return List.copyOf(groups.values());
    }

    private void measure(Group g, Chromium chromium, BrowserServers servers) throws IOException,
            InterruptedException {
        Map<Page<?>, List<BrowserRun>> bufferedLoads = new LinkedHashMap<>();
        plan.pages().forEach(p -> bufferedLoads.put(p, new ArrayList<>()));
        Map<Combination, Map<Page<?>, List<BrowserRun>>> progressiveLoads = new LinkedHashMap<>();
        try (BrowserServers.Served buffered = servers.serve(g.buffered(), g.protocol(), g.suffix())) {
            if (g.progressive().isEmpty()) {
                for (Page<?> page : plan.pages()) {
                    load(chromium, g, g.buffered(), buffered, page, 0);   // warm-up
                    for (int run = 1; run <= plan.runs() && !stopped; run++) {
                        bufferedLoads.get(page).add(load(chromium, g, g.buffered(), buffered, page, run));
                    }
                }
            }
            int bufferedRun = 0;
            for (Combination c : g.progressive()) {
                if (stopped) {
                    break;
                }
                Map<Page<?>, List<BrowserRun>> mine = new LinkedHashMap<>();
                progressiveLoads.put(c, mine);
                int firstBuffered = bufferedRun;
                try (BrowserServers.Served progressive = servers.serve(c, g.protocol(), g.suffix())) {
                    for (Page<?> page : plan.pages()) {
                        List<BrowserRun> runs = mine.computeIfAbsent(page, p -> new ArrayList<>());
                        load(chromium, g, c, progressive, page, 0);   // warm-up: the servers' and browser's first use
                        load(chromium, g, g.buffered(), buffered, page, 0);
                        for (int run = 1; run <= plan.runs() && !stopped; run++) {
                            runs.add(load(chromium, g, c, progressive, page, run));
                            bufferedLoads.get(page).add(load(chromium, g, g.buffered(), buffered, page,
                                    firstBuffered + run));
                        }
                    }
                } catch (IOException e) {   // the server did not start: its rows say why
                    for (Page<?> page : plan.pages()) {
                        mine.put(page, List.of(BrowserRun.failed(c.server().id(), c.engine().id(), c.mode().id(),
                                page.id(), g.protocol().id(), 1, "the server did not start: " + e.getMessage())));
                    }
                }
                bufferedRun += plan.runs();
            }
        } catch (IOException e) {   // the buffered server did not start: nothing of this group can be compared
            for (Combination c : g.progressive().isEmpty() ? List.of(g.buffered()) : g.progressive()) {
                for (Page<?> page : plan.pages()) {
                    loads.add(BrowserRun.failed(c.server().id(), c.engine().id(), c.mode().id(), page.id(),
                            g.protocol().id(), 1, "the buffered server did not start: " + e.getMessage()));
                    rows.add(BrowserRow.of(c.server().id(), c.engine().id(), c.mode().id(), page.id(),
                            g.protocol().id(), page.items().size(), millis(plan.delay()), List.of(loads.getLast()),
                            Map.of(), null));
                }
            }
            return;
        }
        for (Page<?> page : plan.pages()) {
            BrowserRow bufferedRow = BrowserRow.of(g.server(), g.engine(), plan.buffered().id(), page.id(),
                    g.protocol().id(), page.items().size(), millis(plan.delay()), bufferedLoads.get(page), null,
                    plan.target() != null && plan.bufferedTarget() != null ? "from " + Demo.BUFFERED + page.path()
                            + " of the server at " + plan.target() + " (serve --demo)" : null);
            for (var e : progressiveLoads.entrySet()) {
                Combination c = e.getKey();
                List<BrowserRun> runs = e.getValue().getOrDefault(page, List.of());
                loads.addAll(runs);
                rows.add(BrowserRow.of(c.server().id(), c.engine().id(), c.mode().id(), page.id(), g.protocol().id(),
                        page.items().size(), millis(plan.delay()), runs, bufferedRow.medians(), null));
            }
            loads.addAll(bufferedLoads.get(page));
            rows.add(bufferedRow);
        }
    }

    /** One load ({@code run} 0: a warm-up, not kept), which must come over its group's protocol. */
    private BrowserRun load(Chromium chromium, Group g, Combination c, BrowserServers.Served server, Page<?> page,
                           int run) {
        int items = page.items().size();
        Duration timeout = plan.delay().multipliedBy(items).plusSeconds(30);
        harness.CpuWatch.Mark before = harness.CpuWatch.markTree();
        Chromium.Loaded l = chromium.load(server.url(page), page.itemSelector(), items, timeout,
                Chromium.nextHop(g.protocol()));
        // What the rest of the machine did meanwhile: this JVM, the servers and the browser are the measured ones.
        harness.CpuWatch.Conditions during = harness.CpuWatch.between(before, harness.CpuWatch.markTree());
        BrowserRun r = new BrowserRun(c.server().id(), c.engine().id(), c.mode().id(), page.id(), g.protocol().id(),
                run, l.ms(), l.itemsSeen(), l.status(), l.problem(),
                plan.target() == null ? during.foreignCores() : Double.NaN);   // a --target server is not ours
        if (run > 0) {
            console.printf(Locale.ROOT, "browser: %s%s %s run %d/%d: %s%n", c, g.suffix().isEmpty() ? ""
                    : " over " + g.protocol().id(), page.id(), run,
                    plan.runs() * (c.mode().wholePage() ? Math.max(1, progressiveCount(c)) : 1),
                    r.valid() ? String.format(Locale.ROOT, "fcp %.0f ms, first item %.0f ms, last item %.0f ms,"
                            + " load %.0f ms", r.get(Milestone.FCP), r.get(Milestone.FIRST_ITEM),
                            r.get(Milestone.LAST_ITEM), r.get(Milestone.LOAD)) : "failed: " + r.problem());
            console.flush();
        }
        return r;
    }

    /** How many progressive combinations the buffered one of {@code c}'s server and engine is measured beside. */
    private int progressiveCount(Combination c) {
        return (int) plan.combinations().stream().filter(o -> o.server() == c.server() && o.engine() == c.engine()
                && !o.mode().wholePage()).count();
    }

    private static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }

    /** This run's record in provenance.json: the browser's (BrowserOutput), the protocols, the servers' JVM flags. */
    private void writeProvenance(String browserVersion, BrowserServers servers) throws IOException {
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("protocols", plan.protocols().stream().map(Protocol::id).toList());
        if (servers.tlsNote() != null) {
            more.put("tls", servers.tlsNote());
        }
        if (plan.target() == null) {
            Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
            plan.combinations().forEach(c -> jvmFlags.put(c.server().id(), ServerProcess.jvmFlags(c.server())));
            more.put("server_jvm_flags", jvmFlags);
        } else {
            more.put("target", plan.target().toString());
        }
        BrowserOutput.provenance(plan.out(), browserVersion, plan.binaries(), Chromium.certificateFlags(keys(servers)), plan.delay(),
                plan.runs(), plan.flags(), more);
    }

    /** The certificates the browser accepts: the one of the servers started here, and --trust's for a target. */
    private List<String> keys(BrowserServers servers) {
        List<String> keys = new ArrayList<>(servers.trustedKeys());
        keys.addAll(plan.trustedKeys());
        return keys;
    }
}
