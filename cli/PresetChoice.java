package cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * bench's --preset and --estimate-only (a picocli mixin): the preset's flags ({@link Presets}) are applied by parsing
 * the command line again with them, so that each means what the same flag typed out means, the given ones
 * replacing the preset's; the sweep's provenance then records the flags as they were run.
 */
final class PresetChoice {

    @Option(names = "--preset", paramLabel = "ID", description = "A named sweep: study (the published study's"
            + " approaches, pages, user counts 1 to 128, data source and server JVM flags on every server;"
            + " docs/bench.md lists what it sets). Flags given beside it replace its own; which may be: docs/bench.md.")
    String id;

    @Option(names = "--estimate-only", description = "Print the sweep's plan and estimated time, and stop: no server"
            + " is started and nothing is written.")
    boolean estimateOnly;

    /** Whether the preset's flags were parsed in (a field picocli does not reset when it parses again). */
    private boolean applied;

    /**
     * With --preset, the command line parsed again with the preset's flags before the given ones (once): a given
     * flag that does not combine with a preset is refused in one sentence. A bare --resume of a preset's sweep is
     * parsed again with the flags that sweep was run with.
     */
    void apply(CommandLine.Model.CommandSpec spec) {
        if (applied) {
            return;
        }
        Map<String, List<String>> given = new LinkedHashMap<>();
        for (CommandLine.Model.OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            List<String> values = new ArrayList<>();
            if (o.arity().max() == 0) {
                values.add(null);   // a flag without a value, such as --resume
            } else {
                values.addAll(o.originalStringValues());
            }
            given.put(o.longestName(), values);
        }
        List<String> args;
        if (id != null) {
            args = Presets.expand(Presets.byId(id), given);
        } else {
            args = resumed(spec, given);
            if (args == null) {
                return;
            }
        }
        applied = true;
        spec.commandLine().parseArgs(args.toArray(String[]::new));
    }

    /**
     * {@code bench --resume --out=DIR} alone, where DIR's sweep was a preset's: the flags that sweep began with (its
     * provenance record's, the preset's expanded), the folder and --resume given; null in any other case (then the
     * flags given are the sweep's, as before presets).
     */
    private static List<String> resumed(CommandLine.Model.CommandSpec spec, Map<String, List<String>> given) {
        if (!given.containsKey("--resume") || !given.containsKey("--out") || given.size() != 2) {
            return null;
        }
        java.nio.file.Path file = java.nio.file.Path.of(given.get("--out").get(0)).resolve(tables.Provenance.FILE);
        com.fasterxml.jackson.databind.JsonNode flags;
        try {
            flags = java.nio.file.Files.isRegularFile(file) ? tables.Provenance.read(file).path("flags") : null;
        } catch (java.io.IOException e) {
            return null;   // the run's own checks refuse an unreadable folder in their sentence
        }
        if (flags == null || !flags.has("--preset")) {
            return null;
        }
        List<String> args = new ArrayList<>();
        flags.properties().forEach(f -> {
            CommandLine.Model.OptionSpec o = spec.findOption(f.getKey());
            if (o != null && !given.containsKey(f.getKey())) {
                args.add(o.arity().max() == 0 ? f.getKey() : f.getKey() + "=" + f.getValue().asText());
            }
        });
        args.add("--resume");
        args.add("--out=" + given.get("--out").get(0));
        return args;
    }

    /**
     * With --estimate-only, prints the plan line of the sweep {@code config} makes of {@code chosen} (the baselines
     * added unless {@code elsewhere}, a server running elsewhere, or --no-baseline) into {@code folder}, and returns
     * true: nothing is started or written. Without it, false.
     */
    boolean estimated(bench.BenchConfig config, java.nio.file.Path folder, List<site.Combination> chosen,
                      boolean elsewhere, PrintWriter out) throws java.io.IOException {
        if (!estimateOnly) {
            return false;
        }
        bench.BenchConfig.Windows w = config.windows();
        bench.DryRun.print(new bench.Sweep(config.with(w.withSeed(w.seed() == null ? 0 : w.seed()))
                .with(new bench.BenchConfig.Folder(folder, config.folder().resume())),
                config.servers().noBaseline() || elsewhere ? chosen
                : bench.Sweep.withBaselines(chosen, Registry.ENGINES, Registry.SERVERS)), out);
        out.flush();
        return true;
    }

    /**
     * The run's opening lines with a preset: what its selection names and the registry cannot run, per server,
     * once (nothing is left out silently).
     */
    void sayLeftOut(Selection s, PrintWriter out) {
        if (id == null) {
            return;
        }
        List<String> lines = Presets.leftOut(
                s.servers.isEmpty() ? Registry.SERVERS.stream().map(x -> x.id()).toList() : s.servers,
                s.engines.isEmpty() ? Registry.ENGINES.stream().map(x -> x.id()).toList() : s.engines,
                s.modes.isEmpty() ? Registry.MODES.stream().map(x -> x.id()).toList() : s.modes);
        lines.forEach(l -> out.println("bench: --preset=" + id + " leaves out what the registry cannot run, " + l));
        out.flush();
    }
}
