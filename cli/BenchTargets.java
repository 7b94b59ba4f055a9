package cli;

import base.UsageException;
import bench.BenchConfig;
import bench.ForeignApp;
import model.Page;
import site.Combination;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What bench measures, resolved after the flags agree with each other: the combinations it starts (on the first
 * server when none is named), a server already running at --target ({@code running}), or foreign apps
 * ({@code foreign}: --target with --label, or every route of a --targets file, in the file's order), with the
 * configuration as it applies to them ({@code config}: a running PssrBench serve's pool size, from its /info.json).
 * These are bench's last checks: each running server is asked once, after every usage error.
 */
record BenchTargets(BenchConfig config, List<Combination> chosen, Target running, List<Foreign> foreign) {

    /**
     * {@code routes}: --targets (null without it); {@code delay}: the command's --delay, {@code delayGiven} whether
     * the user gave it; {@code threadsGiven}: whether --threads is given.
     */
    static BenchTargets resolve(BenchConfig config, Selection selection, Path routes, Duration delay,
                                boolean delayGiven, boolean threadsGiven) {
        List<Foreign> foreign;
        if (routes != null) {
            foreign = Routes.resolve(routes, selection, config.points().pages(), delay, delayGiven);
        } else {
            Foreign one = selection.foreign(delay, delayGiven);
            foreign = one == null ? List.of() : List.of(one);
        }
        Target running = !foreign.isEmpty() ? null : selection.target(delay, delayGiven);
        List<Combination> chosen = !foreign.isEmpty() ? List.of() : running == null
                ? selection.combinations(List.of(Registry.SERVERS.get(0).id())) : List.of(running.combination());
        if (running != null) {
            BenchProtocols.spokenBy(running, config.points().protocols());
            if (running.config() != null) {   // the pool size it runs with, as its /info.json tells
                config = config.with(config.points().withThreads(List.of(running.config().threads())));
            }
        } else {
            BenchProtocols.spokenBy(chosen, config.points().protocols());
        }
        if (threadsGiven && chosen.stream().noneMatch(c -> c.serving().onPlatformPool())) {
            throw new UsageException("--threads sizes a platform pool, and none of the selected combinations runs on"
                    + " one: select the blocking mode (or a javalin mode but virtual and buffered).");
        }
        return new BenchTargets(config, chosen, running, List.copyOf(foreign));
    }

    /** Whether bench starts no server: it measures a running one or foreign apps. */
    boolean elsewhere() {
        return running != null || !foreign.isEmpty();
    }

    /**
     * Each foreign app's pages checked ({@link Foreign#app}) before anything is measured or written; their bodies are
     * the verified ones the load generator compares every response with.
     */
    @SuppressWarnings("rawtypes")
    List<ForeignApp> apps(List<Page> pages) {
        return foreign.stream().map(f -> f.app(pages)).toList();
    }

    /**
     * What provenance.json records of what was measured: {@code measured} (one note, or one per route of a routes
     * file) and {@code foreign} (the app's record, or one per route).
     */
    void record(Map<String, Object> flags, boolean routes) {
        if (running != null) {   // which server was measured, and where: the URL as checked, its host resolved
            flags.put("measured", running.note());
        }
        if (!foreign.isEmpty()) {
            flags.put("measured", routes ? foreign.stream().map(Foreign::note).toList() : foreign.get(0).note());
            flags.put("foreign", routes ? foreign.stream().map(Foreign::provenance).toList()
                    : foreign.get(0).provenance());
        }
    }

    /** What the console says of it before the sweep: the running server, or each foreign app. */
    void say(PrintWriter out) {
        if (running != null) {
            out.println("bench: " + running.note());
        }
        foreign.forEach(f -> out.println("bench: " + f.note()));
    }
}
