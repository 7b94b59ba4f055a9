package cli;

import base.UsageException;
import site.Combination;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Which combinations verify and bench take: comma lists checked against the registry, or --all; --target
 * names one combination that is already running elsewhere. A picocli mixin: both commands declare it with
 * {@code @Mixin}.
 */
final class Selection {
    @Option(names = "--server", split = ",", paramLabel = "ID",
            description = "Servers, comma-separated: ${bundle:registry.servers}.")
    List<String> servers = List.of();

    @Option(names = "--engine", split = ",", paramLabel = "ID",
            description = "Engines, comma-separated: ${bundle:registry.engines} (default: all).")
    List<String> engines = List.of();

    @Option(names = "--mode", split = ",", paramLabel = "ID",
            description = "Modes, comma-separated: ${bundle:registry.modes} (default: all).")
    List<String> modes = List.of();

    @Option(names = "--all", description = "Every valid combination.")
    boolean all;

    @Option(names = "--target", paramLabel = "URL", description = "A server that is already running at URL"
            + " instead of one started here; its combination and delay come from its /info.json (--server,"
            + " --engine and --mode may be left out, or must match). Checked before any connection: http or https,"
            + " no credentials, never a link-local or cloud metadata address, on this machine unless --allow-remote.")
    String target;

    @Option(names = "--trust", paramLabel = "PEM_FILE", description = "With an https:// --target: trust exactly the"
            + " certificates of this PEM file (a self-signed serve's --tls-cert) instead of the default trust store;"
            + " host names are still checked.")
    Path trust;

    @Option(names = "--allow-remote", description = "Let --target name a server on another machine: its requests"
            + " cross the network, and the results say which host was measured.")
    boolean allowRemote;

    @Option(names = "--label", paramLabel = "NAME", description = "Measure the server at --target as a foreign app"
            + " (not a PssrBench serve) named NAME in the rows and charts: its pages must equal the reference"
            + " pages under the published normalisation. Needs --delay, the per-item delay it runs with.")
    String label;

    @Option(names = "--path", paramLabel = "PAGE=PATH", description = "Where the foreign app at --target serves a"
            + " page, e.g. presentations=/presentations/jstachio/virtualSync (repeatable; default: /PAGE).")
    List<String> paths = List.of();

    @Option(names = "--target-pid", paramLabel = "PID", description = "The foreign app's process on this machine,"
            + " whose CPU, RSS and threads are read from /proc while it is measured.")
    Long targetPid;

    /** Whether any of the flags that describe a foreign app is given. */
    boolean describesForeign() {
        return label != null || !paths.isEmpty() || targetPid != null;
    }

    /**
     * The foreign app at --target ({@link Foreign}), or null when none of its flags is given (then --target, if
     * any, is a PssrBench serve or a combination taken on trust). {@code delay}: the command's --delay.
     */
    Foreign foreign(Duration delay, boolean delayGiven) {
        if (!describesForeign()) {
            return null;
        }
        if (trust != null) {
            throw new UsageException("--trust is for a PssrBench serve at --target: a foreign app over https is"
                    + " checked against the default trust store.");
        }
        return Foreign.resolve(target, allowRemote, label, paths, targetPid,
                all || !servers.isEmpty() || !engines.isEmpty() || !modes.isEmpty(), delay, delayGiven);
    }

    /** The selected combinations; {@code defaultServers} when no --server is given (empty: every server). */
    List<Combination> combinations(List<String> defaultServers) {
        if (all && !(servers.isEmpty() && engines.isEmpty() && modes.isEmpty())) {
            throw new UsageException("--all selects every combination: leave out --server, --engine and --mode.");
        }
        return all ? Registry.combinations()
                : Registry.select(servers.isEmpty() ? defaultServers : servers, engines, modes);
    }

    /**
     * The server at --target (null without it), what it runs checked against the flags: one request to it.
     * {@code delay} is the command's --delay, {@code delayGiven} whether the user gave it.
     */
    Target target(Duration delay, boolean delayGiven) {
        if (target == null) {
            if (allowRemote) {
                throw new UsageException("--allow-remote goes with --target, which names the server on another"
                        + " machine.");
            }
            if (trust != null) {
                throw new UsageException("--trust goes with --target=https://…, the server whose certificate it"
                        + " trusts.");
            }
            return null;
        }
        if (all || servers.size() > 1 || engines.size() > 1 || modes.size() > 1) {
            throw new UsageException("--target is one running server: give at most one --server, --engine and"
                    + " --mode (none: they are taken from the server).");
        }
        return Target.resolve(target, allowRemote, first(servers), first(engines), first(modes), delay, delayGiven,
                trust);
    }

    private static String first(List<String> ids) {
        return ids.isEmpty() ? null : ids.get(0);
    }
}
