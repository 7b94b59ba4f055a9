package browser;

import bench.ServerProcess;
import core.Combination;
import core.Demo;
import core.Durations;
import core.Mode;
import core.Page;
import records.BrowserCsv;
import records.BrowserRow;
import records.BrowserRun;
import records.Milestone;
import records.Provenance;
import records.Report;

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
 * the machine's load touches both alike. Per server and engine: one buffered server JVM, one server JVM per
 * progressive mode in turn, one browser; per page, one unmeasured load of each (the servers' and the browser's first
 * use), then {@code runs} measured loads of each. Rows are written after each server and engine, so an interrupted
 * run keeps what it finished.
 */
public final class BrowserBench {

    /**
     * browser's --delay as written: one at which each item's arrival shows in a browser (a paint takes a frame,
     * ~17 ms). Not serve's default ({@link core.ServeConfig#DEFAULT_DELAY}) on purpose.
     */
    public static final String DEFAULT_DELAY_TEXT = "200ms";

    /**
     * What to measure. {@code target} null: servers started here; else the one combination runs there, its buffered
     * counterpart at {@code bufferedTarget} (null when the combination is the buffered one). {@code trustedKeys}: the
     * public-key hashes of --trust's certificates, which the browser accepts for an https:// target (empty: its own
     * trust store alone).
     */
    public record Plan(List<Combination> combinations, Mode buffered, List<Page<?>> pages, int runs, Duration delay,
                       Path out, Chromium.Binaries binaries, Map<String, Object> flags, URI target,
                       Function<Page<?>, URI> bufferedTarget, String baseline, List<String> trustedKeys) {
    }

    /** Server start-up and stop, browser start, per server JVM (measured on a 2-core machine: 3 to 6 s). */
    static final double SETUP_SECONDS = 6;
    /**
     * Beyond the items' time, a load's own: a fresh tab and the navigation (about 0.3 s), then the reading, which
     * waits for 250 ms without a new paint after the load event (Chromium.READ) and a frame or more for the paints
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

    /** One server and engine: the progressive combinations to measure, and whether buffered is selected itself. */
    private record Group(String server, String engine, List<Combination> progressive, Combination buffered) {
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

    /** The line said before the run: what it measures and about how long it takes. */
    static String summary(int pairs, int combinations, int pages, int runs, Duration delay, double seconds) {
        long minutes = (long) Math.ceil(seconds / 60);
        return String.format(Locale.ROOT, "browser: %s, %s beside buffered, %s, %s each at %s per item: about %s",
                count(pairs, "server and engine pair"), count(combinations, "combination"), count(pages, "page"),
                count(runs, "run"), Durations.format(delay), count(minutes, "minute"));
    }

    private static String count(long n, String singular) {
        return n + " " + singular + (n == 1 ? "" : "s");
    }

    /** Runs it; returns the number of rows that are not valid, or -1 when it was stopped before the end. */
    public int run() throws IOException, InterruptedException {
        Files.createDirectories(plan.out().resolve("logs"));
        List<Group> groups = groups();
        console.println(summary(groups.size(), groups.stream().mapToInt(g -> Math.max(1, g.progressive().size()))
                .sum(), plan.pages().size(), plan.runs(), plan.delay(), estimateSeconds(groups.stream()
                .map(g -> g.progressive().size()).toList(), plan.pages(), plan.runs(), plan.delay(),
                plan.target() != null)));
        console.flush();
        String browserVersion = null;
        for (Group g : groups) {
            if (stopped) {
                break;
            }
            try (Chromium chromium = Chromium.start(plan.binaries(),
                    plan.out().resolve("logs/chromedriver-" + g.server() + "-" + g.engine() + ".log"),
                    plan.trustedKeys())) {
                if (browserVersion == null) {
                    browserVersion = chromium.version();
                    writeProvenance(browserVersion);
                }
                measure(g, chromium);
            }
            BrowserCsv.write(plan.out(), rows, loads);
        }
        if (browserVersion != null) {
            Provenance.finish(plan.out(), Map.of("stopped", stopped, "loads_measured", loads.size()));
        }
        BrowserCsv.write(plan.out(), rows, loads);
        printTable();
        console.println("browser: report in " + Report.write(plan.out(), plan.baseline(), plan.buffered().id())
                .toAbsolutePath());
        console.flush();
        if (stopped) {
            return -1;
        }
        return (int) rows.stream().filter(r -> !r.valid()).count();
    }

    /** The selection by server and engine, in its order. */
    private List<Group> groups() {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Combination c : plan.combinations()) {
            String key = c.server().id() + " " + c.engine().id();
            Group g = groups.computeIfAbsent(key, k -> new Group(c.server().id(), c.engine().id(), new ArrayList<>(),
                    new Combination(c.server(), c.engine(), plan.buffered())));
            if (!c.mode().wholePage()) {
                g.progressive().add(c);
            }
        }
        return List.copyOf(groups.values());
    }

    /** A server: started here, or the one at --target (then closing it does nothing). */
    private interface Served extends AutoCloseable {
        URI url(Page<?> page);

        @Override
        void close() throws InterruptedException;
    }

    private Served serve(Combination c) throws IOException, InterruptedException {
        if (plan.target() != null) {
            boolean buffered = c.mode().wholePage() && plan.bufferedTarget() != null;
            return new Served() {
                public URI url(Page<?> page) {
                    return buffered ? plan.bufferedTarget().apply(page) : plan.target().resolve(page.path());
                }

                public void close() {
                }
            };
        }
        ServerProcess server = ServerProcess.serve(core.ServeConfig.of(c, plan.delay()), plan.out().resolve("logs/"
                + c.server().id() + "-" + c.engine().id() + "-" + c.mode().id() + ".server.log"));
        return new Served() {
            public URI url(Page<?> page) {
                return server.base().resolve(page.path().substring(1));
            }

            public void close() throws InterruptedException {
                server.close();
            }
        };
    }

    private void measure(Group g, Chromium chromium) throws IOException, InterruptedException {
        Map<Page<?>, List<BrowserRun>> bufferedLoads = new LinkedHashMap<>();
        plan.pages().forEach(p -> bufferedLoads.put(p, new ArrayList<>()));
        Map<Combination, Map<Page<?>, List<BrowserRun>>> progressiveLoads = new LinkedHashMap<>();
        try (Served buffered = serve(g.buffered())) {
            if (g.progressive().isEmpty()) {
                for (Page<?> page : plan.pages()) {
                    load(chromium, g.buffered(), buffered, page, 0);   // warm-up
                    for (int run = 1; run <= plan.runs() && !stopped; run++) {
                        bufferedLoads.get(page).add(load(chromium, g.buffered(), buffered, page, run));
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
                try (Served progressive = serve(c)) {
                    for (Page<?> page : plan.pages()) {
                        List<BrowserRun> runs = mine.computeIfAbsent(page, p -> new ArrayList<>());
                        load(chromium, c, progressive, page, 0);   // warm-up: the servers' and browser's first use
                        load(chromium, g.buffered(), buffered, page, 0);
                        for (int run = 1; run <= plan.runs() && !stopped; run++) {
                            runs.add(load(chromium, c, progressive, page, run));
                            bufferedLoads.get(page).add(load(chromium, g.buffered(), buffered, page,
                                    firstBuffered + run));
                        }
                    }
                } catch (IOException e) {   // the server did not start: its rows say why
                    for (Page<?> page : plan.pages()) {
                        mine.put(page, List.of(BrowserRun.failed(c.server().id(), c.engine().id(), c.mode().id(),
                                page.id(), 1, "the server did not start: " + e.getMessage())));
                    }
                }
                bufferedRun += plan.runs();
            }
        } catch (IOException e) {   // the buffered server did not start: nothing of this group can be compared
            for (Combination c : g.progressive().isEmpty() ? List.of(g.buffered()) : g.progressive()) {
                for (Page<?> page : plan.pages()) {
                    loads.add(BrowserRun.failed(c.server().id(), c.engine().id(), c.mode().id(), page.id(), 1,
                            "the buffered server did not start: " + e.getMessage()));
                    rows.add(BrowserRow.of(c.server().id(), c.engine().id(), c.mode().id(), page.id(),
                            page.items().size(), millis(plan.delay()), List.of(loads.getLast()), Map.of(), null));
                }
            }
            return;
        }
        for (Page<?> page : plan.pages()) {
            BrowserRow bufferedRow = BrowserRow.of(g.server(), g.engine(), plan.buffered().id(), page.id(),
                    page.items().size(), millis(plan.delay()), bufferedLoads.get(page), null,
                    plan.target() != null && plan.bufferedTarget() != null ? "from " + Demo.BUFFERED + page.path()
                            + " of the server at " + plan.target() + " (serve --demo)" : null);
            for (var e : progressiveLoads.entrySet()) {
                Combination c = e.getKey();
                List<BrowserRun> runs = e.getValue().getOrDefault(page, List.of());
                loads.addAll(runs);
                rows.add(BrowserRow.of(c.server().id(), c.engine().id(), c.mode().id(), page.id(),
                        page.items().size(), millis(plan.delay()), runs, bufferedRow.medians(), null));
            }
            loads.addAll(bufferedLoads.get(page));
            rows.add(bufferedRow);
        }
    }

    /** One load ({@code run} 0: a warm-up, not kept). */
    private BrowserRun load(Chromium chromium, Combination c, Served server, Page<?> page, int run) {
        int items = page.items().size();
        Duration timeout = plan.delay().multipliedBy(items).plusSeconds(30);
        bench.CpuWatch.Mark before = bench.CpuWatch.markTree();
        Chromium.Loaded l = chromium.load(server.url(page), page.itemSelector(), items, timeout);
        // What the rest of the machine did meanwhile: this JVM, the servers and the browser are the measured ones.
        bench.CpuWatch.Conditions during = bench.CpuWatch.between(before, bench.CpuWatch.markTree());
        BrowserRun r = new BrowserRun(c.server().id(), c.engine().id(), c.mode().id(), page.id(), run, l.ms(),
                l.itemsSeen(), l.status(), l.problem(),
                plan.target() == null ? during.foreignCores() : Double.NaN);   // a --target server is not ours
        if (run > 0) {
            console.printf(Locale.ROOT, "browser: %s %s run %d/%d: %s%n", c, page.id(), run,
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

    private void printTable() {
        String format = "%-8s %-9s %-9s %-13s %5s %8s %8s %8s %10s %10s %8s %8s%n";
        console.printf(Locale.ROOT, "%n" + format, "server", "engine", "mode", "page", "runs", "ttfb", "fcp", "lcp",
                "first item", "last item", "fcp/buf", "valid");
        for (BrowserRow r : rows) {
            console.printf(Locale.ROOT, format, r.server(), r.engine(), r.mode(), r.page(), r.runs(),
                    text(r.p50(Milestone.TTFB)), text(r.p50(Milestone.FCP)), text(r.p50(Milestone.LCP)),
                    text(r.p50(Milestone.FIRST_ITEM)), text(r.p50(Milestone.LAST_ITEM)),
                    Double.isNaN(r.ratio(Milestone.FCP)) ? "-" : String.format(Locale.ROOT, "%.2f",
                            r.ratio(Milestone.FCP)), r.valid());
            if (!r.note().isEmpty()) {
                console.println("    " + r.note());
            }
        }
        console.println("(medians in milliseconds from navigation start; fcp/buf: the first contentful paint over"
                + " the buffered mode's)");
        console.println("browser: results in " + plan.out().toAbsolutePath());
        console.flush();
    }

    private static String text(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /** This run's record in provenance.json (beside a bench's, under later_runs, when the folder has one). */
    private void writeProvenance(String browserVersion) throws IOException {
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("delay", Durations.format(plan.delay()));
        more.put("runs", plan.runs());
        more.put("browser", browserVersion);
        more.put("browser_binary", plan.binaries().browser().toString());
        more.put("browser_driver", plan.binaries().driver().toString());
        more.put("browser_flags", Chromium.FLAGS);
        if (plan.target() == null) {
            Map<String, List<String>> jvmFlags = new LinkedHashMap<>();
            plan.combinations().forEach(c -> jvmFlags.put(c.server().id(), ServerProcess.jvmFlags(c.server())));
            more.put("server_jvm_flags", jvmFlags);
        } else {
            more.put("target", plan.target().toString());
        }
        Provenance.add(plan.out(), Provenance.record("browser", browserVersion + " headless, through Selenium "
                + seleniumVersion(), plan.flags(), more));
    }

    private static String seleniumVersion() {
        return Provenance.libraries().getOrDefault("org.seleniumhq.selenium:selenium-chrome-driver", "?");
    }
}
