package browser;

import base.Durations;
import tables.BrowserRow;
import tables.Milestone;
import tables.Provenance;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a browser run says at its end and records about itself: the table of medians on the console, and its record
 * in provenance.json (for PssrBench's combinations and for a foreign app alike, so that both name the browser, its
 * driver and its flags the same way).
 */
final class BrowserOutput {

    private BrowserOutput() {
    }

    /** The rows' medians, a line each (with its note under it), then where the results are. */
    static void table(PrintWriter console, List<BrowserRow> rows, Path out) {
        String format = "%-8s %-9s %-9s %-13s %-8s %5s %8s %8s %8s %10s %10s %8s %8s%n";
        console.printf(Locale.ROOT, "%n" + format, "server", "engine", "mode", "page", "protocol", "runs", "ttfb",
                "fcp", "lcp", "first item", "last item", "fcp/buf", "valid");
        for (BrowserRow r : rows) {
            console.printf(Locale.ROOT, format, r.server(), r.engine(), r.mode(), r.page(), r.protocol(), r.runs(),
                    text(r.p50(Milestone.TTFB)), text(r.p50(Milestone.FCP)), text(r.p50(Milestone.LCP)),
                    text(r.p50(Milestone.FIRST_ITEM)), text(r.p50(Milestone.LAST_ITEM)),
                    Double.isNaN(r.ratio(Milestone.FCP)) ? "-" : String.format(Locale.ROOT, "%.2f",
                            r.ratio(Milestone.FCP)), r.valid());
            if (!r.note().isEmpty()) {
                console.println("    " + r.note());
            }
        }
        console.println("(medians in milliseconds from navigation start; fcp/buf: the first contentful paint over"
                + " the buffered mode's, over the same protocol)");
        console.println("browser: results in " + out.toAbsolutePath());
        console.flush();
    }

    private static String text(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /**
     * This run's record in provenance.json (beside a bench's, under later_runs, when the folder has one): the delay,
     * the runs, the browser, its driver and every flag it was given ({@code browserFlags} beyond
     * {@link Chromium#FLAGS}), then {@code more}.
     */
    static void provenance(Path out, String browserVersion, Chromium.Binaries binaries, List<String> browserFlags,
                           Duration delay, int runs, Map<String, Object> commandFlags, Map<String, Object> more)
            throws IOException {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("delay", Durations.format(delay));
        record.put("runs", runs);
        record.put("browser", browserVersion);
        record.put("browser_binary", binaries.browser().toString());
        record.put("browser_driver", binaries.driver().toString());
        List<String> flags = new ArrayList<>(Chromium.FLAGS);
        flags.addAll(browserFlags);
        record.put("browser_flags", flags);
        record.putAll(more);
        Provenance.add(out, Provenance.record("browser", browserVersion + " headless, through Selenium "
                + Provenance.libraries().getOrDefault("org.seleniumhq.selenium:selenium-chrome-driver", "?"),
                commandFlags, record));
    }
}
