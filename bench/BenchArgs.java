package bench;

import base.Durations;
import http.Protocol;
import model.Page;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A bench configuration as bench's flags (after the word {@code bench}, the selection of combinations apart: it is
 * the command's), each only where it differs from its default, which bench parses back into an equal value
 * (BenchConfigTest): what a parent that starts bench writes, and what a log shows of a sweep.
 */
public final class BenchArgs {

    private BenchArgs() {
    }

    /** {@code c} as flags, each only where it differs from the defaults. */
    public static List<String> of(BenchConfig c) {
        BenchConfig d = BenchConfig.defaults();
        BenchConfig.Points points = c.points();
        BenchConfig.Windows windows = c.windows();
        BenchConfig.Servers servers = c.servers();
        BenchConfig.Load load = c.load();
        BenchConfig.Folder folder = c.folder();
        BenchConfig.Running running = c.running();
        List<String> args = new ArrayList<>();
        add(args, "--page", points.pages(), d.points().pages(), Page::id);
        add(args, "--connections", points.connections(), d.points().connections(), String::valueOf);
        add(args, "--protocol", points.protocols(), d.points().protocols(), Protocol::id);
        add(args, "--streams", points.streams(), d.points().streams(), String::valueOf);
        add(args, "--threads", points.threads(), d.points().threads(), String::valueOf);
        add(args, "--rate", points.rates(), d.points().rates(), r -> r == Math.rint(r) ? String.valueOf(r.longValue())
                : String.valueOf(r));
        add(args, "--repeat", windows.repeat(), d.windows().repeat());
        if (windows.seed() != null) {
            args.add("--seed=" + windows.seed());
        }
        add(args, "--warmup", windows.warmup(), d.windows().warmup());
        add(args, "--warmup-max", Durations.format(windows.warmupMax()), Durations.format(d.windows().warmupMax()));
        add(args, "--duration", Durations.format(windows.duration()), Durations.format(d.windows().duration()));
        add(args, "--settle", windows.settle(), d.windows().settle());
        add(args, "--windows", windows.windows(), d.windows().windows());
        add(args, "--precision", windows.precision(), d.windows().precision());
        if (!windows.precision().equals(BenchConfig.OFF)) {
            if (windows.repeat() != d.windows().repeat() && windows.precision().equals(d.windows().precision())) {
                args.add("--precision=" + windows.precision());   // --repeat alone would mean exactly --repeat
            }
            add(args, "--repeat-max", windows.repeatMax(), Math.max(windows.repeat(), BenchConfig.DEFAULT_REPEAT_MAX));
        }
        add(args, "--source-scheduler", servers.timers().id(), d.servers().timers().id());
        add(args, "--delay", Durations.format(servers.delay()), Durations.format(d.servers().delay()));
        add(args, "--load-threads", load.loadThreads(), d.load().loadThreads());
        add(args, "--server-cpus", servers.serverCpus(), null);
        add(args, "--client-cpus", servers.clientCpus(), null);
        add(args, "--out", folder.out(), null);
        flag(args, "--resume", folder.resume());
        flag(args, "--jfr", servers.jfr());
        add(args, "--driver", load.driver(), d.load().driver());
        add(args, "--export", load.export(), null);
        add(args, "--agents", load.agents(), d.load().agents(), Function.identity());
        flag(args, "--no-baseline", servers.noBaseline());
        flag(args, "--no-aot-cache", servers.noAotCache());
        add(args, "--server-jvm", String.join(" ", servers.serverJvm()), "");
        add(args, "--target", running.target(), null);
        add(args, "--label", running.label(), null);
        return args;
    }

    private static void add(List<String> args, String flag, Object value, Object byDefault) {
        if (value != null && !value.equals(byDefault)) {
            args.add(flag + "=" + value);
        }
    }

    private static <T> void add(List<String> args, String flag, List<T> values, List<T> byDefault,
                                Function<T, String> text) {
        if (!values.equals(byDefault)) {
            args.add(flag + "=" + String.join(",", values.stream().map(text).toList()));
        }
    }

    private static void flag(List<String> args, String flag, boolean set) {
        if (set) {
            args.add(flag);
        }
    }
}
