package cli;

import base.Durations;
import base.UsageException;
import http.Protocol;
import model.Engine;
import model.Page;
import site.Combination;
import site.Logs;
import site.ServeConfig;
import verify.Check;
import verify.Fetchers;
import verify.Verifier;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code verify}: start each selected combination, or reach a running one, and check both pages. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Start each selected combination (all by default) on a free loopback port and check both"
                + " pages: status and headers, the same bytes as every engine, the reference page, well-formed"
                + " HTML, progressive arrival and identical bodies under concurrency. Exits 1 if any check"
                + " fails.")
final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Selection selection;

    // Not serve's default (ServeConfig.DEFAULT_DELAY, 1ms): progressive arrival can be told from noise only at
    // Verifier.MIN_DELAY (10ms) and more, so verify starts its servers at a delay well above it.
    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = Verifier.DEFAULT_DELAY_TEXT,
            description = "Delay per item while verifying; large, so that progressive arrival shows"
                    + " (default: ${DEFAULT-VALUE}). With --target, the server's own delay applies."
                    + " Units: " + Durations.UNITS + ".")
    Duration delay;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "50",
            description = "Concurrent requests per page that must all return the same body"
                    + " (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--protocol", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "The protocol the servers started here speak and the client uses: h1, h1s (HTTP/1.1 over"
                    + " TLS), h2c (HTTP/2 by prior knowledge, with Netty's HTTP/2 client), h2 (HTTP/2 over TLS by"
                    + " ALPN); the servers that do not speak it are left out (default: ${DEFAULT-VALUE}). With"
                    + " --target, the server's own (its /info.json).")
    String protocol;

    @Option(names = "--targets", paramLabel = "FILE", description = "Check every route of this routes file (as"
            + " bench --targets: docs/bench.md) as a foreign app, each page it has a path for. Needs --delay.")
    java.nio.file.Path targets;

    @Override
    public Integer call() {
        if (concurrency < 1) {   // before --target is asked, as every usage error
            throw new UsageException("--concurrency must be at least 1.");
        }
        if (targets != null) {   // each route as a foreign app; 1 when any page of any route failed
            List<Foreign> routes = Routes.resolve(targets, selection, List.of(), delay, Cli.given(spec, "--delay"));
            Logs.configure();
            long failed = routes.stream().filter(r -> r.verify(spec.commandLine().getOut()) != 0).count();
            spec.commandLine().getOut().println("verify: " + (routes.size() - failed) + " of " + routes.size()
                    + " routes passed");
            return failed == 0 ? 0 : 1;
        }
        Foreign foreign = selection.foreign(delay, Cli.given(spec, "--delay"));
        if (foreign != null) {   // not a PssrBench serve: its pages against the reference, their arrival as measured
            Logs.configure();
            return foreign.verify(spec.commandLine().getOut());
        }
        Protocol asked = Protocol.Command.VERIFY.check(Protocol.byId(protocol));
        Target target = selection.target(delay, Cli.given(spec, "--delay"));
        Protocol speaks = target == null ? asked : target.protocol();
        if (target != null && Cli.given(spec, "--protocol") && speaks != asked) {
            throw new UsageException("the server at " + target.url() + " speaks " + speaks.id() + " (its "
                    + site.ServerInfo.PATH + "), not --protocol=" + asked.id() + "; leave out --protocol.");
        }
        List<Combination> chosen = target == null ? Registry.speaking(selection.combinations(List.of()), asked, false)
                : List.of(target.combination());
        Logs.configure();
        PrintWriter out = spec.commandLine().getOut();
        // The reference engine (the first: every served page must equal its bytes) and the engines verified: the
        // others' agreement is checked where they are served (and by the tests), and rendering them here would
        // compile every engine's templates for a check of one.
        List<Engine> engines = Stream.concat(Stream.of(Registry.ENGINES.get(0)),
                chosen.stream().map(Combination::engine)).distinct().toList();
        Verifier verifier = target == null ? new Verifier(engines, delay, concurrency, asked)
                : Verifier.ofRunning(engines, target.delay(), concurrency, speaks);
        if (target == null) {
            out.printf(Locale.ROOT, "verify: delay %s per item, %d concurrent requests per page%s%n",
                    Durations.format(delay), concurrency, asked == ServeConfig.DEFAULT_PROTOCOL ? ""
                            : ", over " + asked.id() + " (" + asked.description() + ")");
        } else {
            out.printf(Locale.ROOT, "verify: %s; %d concurrent requests per page%s%n", target.note(), concurrency,
                    speaks == ServeConfig.DEFAULT_PROTOCOL ? "" : ", over " + speaks.id());
        }
        if (!verifier.checksProgressive()) {
            out.println("verify: " + verifier.whyNotProgressive());
        }
        String pageHeads = String.join(" | ", Arrays.stream(Page.values())
                .map(p -> String.format(Locale.ROOT, "%-34s", p.id() + ": ttfb total chunks lag")).toList());
        // Columns as wide as the registry's longest ids, so that a new plug-in keeps the table aligned.
        String columns = "%-" + width(Registry.SERVERS.stream().map(s -> s.id())) + "s %-"
                + width(Registry.ENGINES.stream().map(e -> e.id())) + "s %-"
                + width(Registry.MODES.stream().map(m -> m.id())) + "s ";
        out.printf(Locale.ROOT, columns + "%s | result%n", "server", "engine", "mode", pageHeads);
        int failed = 0;
        for (Combination c : chosen) {
            // A running server over TLS: the client trusts --trust's certificates, or the default trust store.
            Verifier.Result r = target == null ? verifier.verify(c)
                    : verifier.verify(c, target.url(), Fetchers.of(speaks, target.trust()));
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, columns,
                    c.server().id(), c.engine().id(), c.mode().id()));
            for (Verifier.PageResult p : r.pages()) {
                row.append(String.format(Locale.ROOT, "%-34s | ", ms(p.ttfbMs(), "%.1f") + " "
                        + ms(p.totalMs(), "%.0f") + " " + p.chunks() + " " + ms(p.lagMs(), "%.1f")));
            }
            Check.Status status = r.status();
            row.append(status == Check.Status.FAIL ? "FAIL" : "OK");
            out.println(row);
            // Failures first: bench's CombinationCheck quotes the first indented line of a failed verify as why.
            r.allProblems().forEach(p -> out.println("    " + p));
            r.warnings().forEach(w -> out.println("    warning: " + w));
            out.flush();
            failed += status == Check.Status.FAIL ? 1 : 0;
        }
        out.println(failed == 0 ? "verify: all " + chosen.size() + " combinations passed"
                : "verify: " + failed + " of " + chosen.size() + " combinations FAILED");
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /** Milliseconds for a table cell; "-" for what was not measured. */
    private static String ms(double value, String format) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format + "ms", value);
    }

    private static int width(java.util.stream.Stream<String> ids) {
        return ids.mapToInt(String::length).max().orElse(0);
    }
}
