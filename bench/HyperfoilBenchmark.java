package bench;

import base.UsageException;
import load.LoadGenerator;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One bench point as a Hyperfoil benchmark (YAML, Hyperfoil 0.25's format): one GET of the page per session
 * iteration, a warm-up phase ({@code isWarmup: true}) and the measured phase after it. The closed loop is
 * {@code always} with one user per connection (each sends its next request when the previous response ended); the
 * open loop is {@code constantRate} at the point's rate with at most one session per connection, so that, as in
 * PssrBench's own generator, a request waits for a free connection rather than opening more. Hyperfoil measures
 * every open-loop request from its intended start (it is coordinated-omission aware). With {@code agents} (a
 * Hyperfoil cluster) the controller splits the users and the rate evenly across them.
 *
 * <p>The benchmark's name carries the point ({@link #name}, read back by {@link importers.HyperfoilImport}), since the
 * name is what Hyperfoil's JSON export keeps ({@code info.benchmark}).
 */
public final class HyperfoilBenchmark {

    /** The measured phase's name; the warm-up phase is {@value #WARMUP}. */
    public static final String MEASURE = "measure";
    public static final String WARMUP = "warmup";

    private HyperfoilBenchmark() {
    }

    /**
     * One agent of a cluster's benchmark, as {@code --agents} names it: {@code [NAME=][user@]host[:port]} (Hyperfoil's
     * inline form, which its SSH deployer reads) and optional {@code ;key=value} properties of Hyperfoil's agents
     * ({@code dir}, {@code cpu}, {@code extras}, {@code node} on Kubernetes, ...). With properties the agent is written
     * in Hyperfoil's properties form, its host, port and user among them, since the YAML takes one form or the other.
     * Two agents on one host need a {@code dir} each: Hyperfoil deploys them at once, and in one folder they would
     * copy the same jars over each other.
     */
    public record Agent(String name, String host, Map<String, String> properties) {
    }

    private static final Pattern AGENT_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern AGENT_HOST = Pattern.compile(
            "(?:([^@\\s;=,]+)@)?([A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+])(?::(\\d{1,5}))?");
    private static final Pattern PROPERTY = Pattern.compile("([A-Za-z][A-Za-z0-9_.-]*)=([^;]+)");

    /** {@code --agents}' entries as agents (agent-N where unnamed); a malformed one fails in one sentence. */
    public static List<Agent> agents(List<String> specs) {
        List<Agent> agents = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            String spec = specs.get(i);
            String[] parts = spec.split(";", -1);
            String host = parts[0];
            String name = "agent-" + (i + 1);
            int eq = host.indexOf('=');
            if (eq >= 0) {
                name = host.substring(0, eq);
                host = host.substring(eq + 1);
            }
            Matcher h = AGENT_HOST.matcher(host);
            if (!AGENT_NAME.matcher(name).matches() || !h.matches()) {
                throw new UsageException("--agents takes [NAME=][user@]host[:port][;key=value...] per agent, NAME of"
                        + " letters, digits, - and _ (for example a1=localhost:2222;dir=/tmp/hf-a1): '" + spec
                        + "' is not.");
            }
            if (!names.add(name)) {
                throw new UsageException("--agents names the agent '" + name + "' twice.");
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (int k = 1; k < parts.length; k++) {
                Matcher p = PROPERTY.matcher(parts[k]);
                if (!p.matches()) {
                    throw new UsageException("--agents takes properties as ;key=value after the host: '" + parts[k]
                            + "' in '" + spec + "' is not.");
                }
                if (properties.put(p.group(1), p.group(2)) != null) {
                    throw new UsageException("--agents gives the property " + p.group(1) + " twice in '" + spec + "'.");
                }
            }
            if (!properties.isEmpty()) {   // the properties form: the host's parts as properties too
                Map<String, String> all = new LinkedHashMap<>();
                all.put("host", h.group(2));
                if (h.group(3) != null) {
                    all.put("port", h.group(3));
                }
                if (h.group(1) != null) {
                    all.put("user", h.group(1));
                }
                for (var e : properties.entrySet()) {
                    if (all.put(e.getKey(), e.getValue()) != null) {
                        throw new UsageException("--agents gives the " + e.getKey() + " of '" + spec + "' twice:"
                                + " in [user@]host[:port] and as a property.");
                    }
                }
                properties = all;
            }
            agents.add(new Agent(name, host, java.util.Collections.unmodifiableMap(properties)));
        }
        return agents;
    }

    /** {@code pssr.SERVER.ENGINE.MODE.PAGE.cN[.rR]}: what {@link importers.HyperfoilImport#point} reads back. */
    static String name(Point p) {
        var c = p.combination();
        return String.join(".", "pssr", c.server().id(), c.engine().id(), c.mode().id(), p.page().id(),
                "c" + p.connections()) + (p.rate() > 0 ? ".r" + (long) p.rate() : "");
    }

    /**
     * The YAML of point {@code p} against the server at {@code base}; {@code agents} empty for the embedded engine,
     * else a cluster's agents as {@code --agents} gives them ({@link #agents});
     * {@code threads} Hyperfoil's event-loop threads (0: its default; on a cluster, each agent's own).
     */
    static String yaml(Point p, URI base, Duration warmup, Duration duration, Duration timeout, List<String> agents,
                       int threads) {
        return yamlAt(p, base.resolve(p.page().id()), warmup, duration, timeout, agents, threads);
    }

    /** As {@link #yaml} for the page at {@code page} (a foreign app's page has a path of its own). */
    static String yamlAt(Point p, URI page, Duration warmup, Duration duration, Duration timeout, List<String> agents,
                         int threads) {
        if (p.rate() > 0 && p.rate() != Math.floor(p.rate())) {
            throw new UsageException("--driver=hyperfoil takes whole requests per second in --rate (Hyperfoil's"
                    + " usersPerSec): " + p.rate() + " is not.");
        }
        String host = page.getScheme() + "://" + page.getRawAuthority();
        String path = page.getRawPath();
        StringBuilder y = new StringBuilder();
        y.append("# PssrBench point ").append(p.name()).append(": ").append(p.rate() > 0
                ? "open loop at " + (long) p.rate() + " requests/s" : "closed loop").append(", ")
                .append(p.connections()).append(" connections\n");
        y.append("name: ").append(name(p)).append('\n');
        if (!agents.isEmpty()) {
            y.append("agents:\n");
            for (Agent a : agents(agents)) {
                y.append("  ").append(a.name()).append(':');
                if (a.properties().isEmpty()) {
                    y.append(' ').append(quoted(a.host())).append('\n');
                } else {
                    y.append('\n');
                    a.properties().forEach((k, v) -> y.append("    ").append(k).append(": ").append(quoted(v))
                            .append('\n'));
                }
            }
        }
        if (threads > 0) {
            y.append("threads: ").append(threads).append('\n');
        }
        y.append("http:\n  host: ").append(host).append('\n')
                .append("  sharedConnections: ").append(p.connections()).append('\n');
        y.append("phases:\n");
        if (!warmup.isZero()) {
            phase(y, WARMUP, p, warmup, null, timeout, path);
        }
        phase(y, MEASURE, p, duration, warmup.isZero() ? "" : WARMUP, timeout, path);
        return y.toString();
    }

    /** {@code after}: null for the warm-up phase, else the phase it starts after ("" none). */
    private static void phase(StringBuilder y, String name, Point p, Duration length, String after,
                              Duration timeout, String path) {
        y.append("- ").append(name).append(":\n");
        if (p.rate() > 0) {
            y.append("    constantRate:\n      usersPerSec: ").append((long) p.rate()).append('\n')
                    .append("      maxSessions: ").append(p.connections()).append('\n');
        } else {
            y.append("    always:\n      users: ").append(p.connections()).append('\n');
        }
        y.append("      duration: ").append(length.toMillis()).append("ms\n");
        if (after == null) {   // the warm-up: Hyperfoil's export marks its statistics isWarmup
            y.append("      isWarmup: true\n");
        } else if (!after.isEmpty()) {
            y.append("      startAfter: ").append(after).append('\n');
        }
        y.append("      scenario:\n      - page:\n        - httpRequest:\n")
                .append("            GET: ").append(quoted(path)).append('\n')
                .append("            metric: ").append(p.page().id()).append('\n')
                .append("            timeout: ").append(timeout.toMillis()).append("ms\n");
    }

    /** A YAML double-quoted scalar: host names and paths are the user's. */
    private static String quoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** The warm-up the driver runs: the fixed one, or for --warmup=auto the adaptive rule's shortest (see docs). */
    static Duration warmup(Duration fixed, LoadGenerator.Steady steady) {
        return steady == null ? fixed : steady.least();
    }

    /** The point's label in a sentence: "closed loop" or "R200". */
    static String model(Point p) {
        return p.rate() > 0 ? String.format(Locale.ROOT, "R%d", (long) p.rate()) : "closed loop";
    }
}
