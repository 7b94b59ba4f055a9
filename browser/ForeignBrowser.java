package browser;

import http.Protocol;
import model.Page;
import report.Report;
import tables.BrowserCsv;
import tables.BrowserRow;
import tables.BrowserRun;
import tables.Milestone;
import tables.Provenance;
import tables.Row;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code browser} of a foreign app ({@code --target --label}): its pages loaded in headless Chromium, one unmeasured
 * load then {@code runs} measured ones each, the same milestones as for PssrBench's combinations. Alone, not beside
 * a buffered counterpart: a foreign app serves none, so its rows have no ratio to buffered (fcp/buf stays empty).
 * Rows are {@code server=foreign, engine=LABEL, mode=foreign}, as bench's.
 */
public final class ForeignBrowser {

    /** What to load: the app's label and page URLs, at the delay it runs with. */
    public record Plan(String label, Map<Page<?>, URI> uris, List<Page<?>> pages, int runs, Duration delay,
                       Path out, Chromium.Binaries binaries, Map<String, Object> flags, String baseline,
                       String bufferedMode) {
    }

    private final Plan plan;
    private final PrintWriter console;
    private volatile boolean stopped;

    public ForeignBrowser(Plan plan, PrintWriter console) {
        this.plan = plan;
        this.console = console;
    }

    /** Ends the run soon, from any thread (Ctrl-C): the load under way finishes, what is finished is kept. */
    public void stop() {
        stopped = true;
    }

    /** Runs it; returns the number of rows that are not valid, or -1 when it was stopped before the end. */
    public int run() throws IOException {
        Files.createDirectories(plan.out().resolve("logs"));
        List<BrowserRow> rows = new ArrayList<>();
        List<BrowserRun> loads = new ArrayList<>();
        try (Chromium chromium = Chromium.start(plan.binaries(),
                plan.out().resolve("logs/chromedriver-" + Row.FOREIGN + "-" + plan.label() + ".log"))) {
            String version = chromium.version();
            writeProvenance(version);
            for (Page<?> page : plan.pages()) {
                if (stopped) {
                    break;
                }
                load(chromium, page, 0);   // warm-up: the app's and the browser's first use
                List<BrowserRun> runs = new ArrayList<>();
                for (int run = 1; run <= plan.runs() && !stopped; run++) {
                    runs.add(load(chromium, page, run));
                }
                loads.addAll(runs);
                rows.add(BrowserRow.of(Row.FOREIGN, plan.label(), Row.FOREIGN, page.id(), Protocol.H1.id(),
                        page.items().size(), plan.delay().toNanos() / 1e6, runs, null, "foreign app "
                                + plan.label() + " at " + plan.uris().get(page) + ": no buffered counterpart to"
                                + " compare with"));
                BrowserCsv.write(plan.out(), rows, loads);
            }
            Provenance.finish(plan.out(), Map.of("stopped", stopped, "loads_measured", loads.size()));
        }
        BrowserCsv.write(plan.out(), rows, loads);
        console.println("browser: report in " + Report.write(plan.out(), plan.baseline(), plan.bufferedMode())
                .toAbsolutePath());
        console.flush();
        return stopped ? -1 : (int) rows.stream().filter(r -> !r.valid()).count();
    }

    private BrowserRun load(Chromium chromium, Page<?> page, int run) {
        int items = page.items().size();
        Duration timeout = plan.delay().multipliedBy(items).plusSeconds(30);
        // An app at --target is reached over http:// (TargetUrl takes no other), where Chromium speaks HTTP/1.1.
        Chromium.Loaded l = chromium.load(plan.uris().get(page), page.itemSelector(), items, timeout,
                Chromium.nextHop(Protocol.H1));
        // The app is not PssrBench's: its CPU is not told from the rest of the machine's (no foreign CPU).
        BrowserRun r = new BrowserRun(Row.FOREIGN, plan.label(), Row.FOREIGN, page.id(), Protocol.H1.id(), run,
                l.ms(), l.itemsSeen(), l.status(), l.problem(), null);
        if (run > 0) {
            console.printf(Locale.ROOT, "browser: foreign app %s %s run %d/%d: %s%n", plan.label(), page.id(), run,
                    plan.runs(), r.valid() ? String.format(Locale.ROOT, "fcp %.0f ms, first item %.0f ms, last item"
                            + " %.0f ms, load %.0f ms", r.get(Milestone.FCP), r.get(Milestone.FIRST_ITEM),
                            r.get(Milestone.LAST_ITEM), r.get(Milestone.LOAD)) : "failed: " + r.problem());
            console.flush();
        }
        return r;
    }

    private void writeProvenance(String browserVersion) throws IOException {
        BrowserOutput.provenance(plan.out(), browserVersion, plan.binaries(), List.of(), plan.delay(), plan.runs(),
                plan.flags(), Map.of());
    }
}
