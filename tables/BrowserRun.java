package tables;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One page load in a browser, as {@code browser} measured it: a row of {@code browser-runs.csv} (the raw data behind
 * {@code browser.csv}). A milestone the page did not report is missing from {@code ms}.
 *
 * @param protocol  what the page was asked over ({@code serve --protocol}'s id: h1, h1s, h2), which the browser
 *                  reported it came over
 * @param run       1, 2, ... within its combination, protocol and page (warm-up loads are not recorded)
 * @param itemsSeen the item elements in the DOM when the page had loaded
 * @param status    the HTTP status of the page (the navigation entry's responseStatus; 0 when not reported)
 * @param problem   why this load does not count ("" when it does): a status other than 200, missing items or
 *                  milestones, a stylesheet that did not load, a browser error
 * @param foreignCpu the CPU the rest of the machine used during the load, in cores (everything but this JVM and
 *                   what it started: the servers, the driver and the browser); null where not known
 */
public record BrowserRun(String server, String engine, String mode, String page, String protocol, int run,
                         Map<Milestone, Double> ms, int itemsSeen, int status, String problem, Double foreignCpu) {

    /** The protocol of a load that names none: HTTP/1.1 in clear text, all browser measured before it had a choice. */
    public static final String DEFAULT_PROTOCOL = "h1";

    /** A load over HTTP/1.1 whose machine was watched. */
    public BrowserRun(String server, String engine, String mode, String page, int run, Map<Milestone, Double> ms,
                      int itemsSeen, int status, String problem, Double foreignCpu) {
        this(server, engine, mode, page, DEFAULT_PROTOCOL, run, ms, itemsSeen, status, problem, foreignCpu);
    }

    /** A load over HTTP/1.1 whose machine was not watched. */
    public BrowserRun(String server, String engine, String mode, String page, int run, Map<Milestone, Double> ms,
                      int itemsSeen, int status, String problem) {
        this(server, engine, mode, page, DEFAULT_PROTOCOL, run, ms, itemsSeen, status, problem, null);
    }

    public BrowserRun {
        Objects.requireNonNull(server);
        Objects.requireNonNull(engine);
        Objects.requireNonNull(mode);
        Objects.requireNonNull(page);
        protocol = protocol == null || protocol.isEmpty() ? DEFAULT_PROTOCOL : protocol;
        EnumMap<Milestone, Double> kept = new EnumMap<>(Milestone.class);
        ms.forEach((m, v) -> {
            if (v != null && !v.isNaN()) {
                kept.put(m, Double.valueOf(Row.decimal(v)));   // what the file keeps
            }
        });
        ms = Collections.unmodifiableMap(kept);
        problem = problem == null ? "" : problem;
        foreignCpu = foreignCpu == null || foreignCpu.isNaN() ? null : Double.valueOf(Row.decimal(foreignCpu));
    }

    /** Whether the rest of the machine used more than {@link Row#DISTURBED_FOREIGN_CPU} cores during the load. */
    public boolean disturbed() {
        return foreignCpu != null && Row.disturbs(foreignCpu, Double.NaN);
    }

    /** A load over HTTP/1.1 that failed before it could be timed. */
    public static BrowserRun failed(String server, String engine, String mode, String page, int run, String why) {
        return failed(server, engine, mode, page, DEFAULT_PROTOCOL, run, why);
    }

    /** A load over {@code protocol} that failed before it could be timed. */
    public static BrowserRun failed(String server, String engine, String mode, String page, String protocol, int run,
                                    String why) {
        return new BrowserRun(server, engine, mode, page, protocol, run, Map.of(), 0, 0, why, null);
    }

    /** Whether the load counts: no problem. */
    public boolean valid() {
        return problem.isEmpty();
    }

    /** The milestone's time, or NaN when not reported. */
    public double get(Milestone m) {
        Double v = ms.get(m);
        return v == null ? Double.NaN : v;
    }
}
