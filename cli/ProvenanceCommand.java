package cli;

import base.UsageException;
import tables.Provenance;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code provenance}: the wrk2 scripts' way to {@link Provenance}, so that their results folders carry the same
 * provenance.json as bench's, computed by the same code.
 */
@Command(name = "provenance", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Add a run's record to DIR/provenance.json, the format bench writes: PssrBench's version and"
                + " git revision, the JDK, OS, CPU, cores, load average and every library's version, read here,"
                + " with the command, load generator and flags given. With --finish, add the end time and load"
                + " average to the latest record. Used by scripts/wrk2-*.sh.",
        footer = {"", "Example:", "  pssrbench provenance --out=results/run1 --command=scripts/wrk2-cell.sh"
                + " --load-generator='/usr/local/bin/wrk2: wrk 4.0.0 [epoll]' -- --rate=800 --duration=40s",
                "  pssrbench provenance --out=results/run1 --finish"})
final class ProvenanceCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The results folder.")
    Path out;

    @Option(names = "--command", paramLabel = "NAME", description = "What measured, e.g. scripts/wrk2-cell.sh.")
    String command;

    @Option(names = "--load-generator", paramLabel = "TEXT", description = "The load generator: path and version.")
    String loadGenerator;

    @Option(names = "--warmup-generator", paramLabel = "TEXT",
            description = "What warmed the server up, if not the load generator itself.")
    String warmupGenerator;

    @Parameters(paramLabel = "FLAG", description = "After --, the command's flags as the user wrote them:"
            + " --name=value, or --name for a switch.")
    List<String> flags;

    @Option(names = "--finish", description = "Add the end time and load average to the latest record instead.")
    boolean finish;

    @Override
    public Integer call() throws IOException {
        Path file = out.resolve(Provenance.FILE);
        if (finish) {
            if (command != null || loadGenerator != null || warmupGenerator != null || flags != null) {
                throw new UsageException("--finish completes the latest record: give it only --out.");
            }
            if (!Files.isRegularFile(file)) {
                throw new UsageException("no " + file + " to finish; write it first, without --finish.");
            }
            Provenance.finish(out);
        } else {
            if (command == null || loadGenerator == null) {
                throw new UsageException("a record needs --command and --load-generator (or give --finish).");
            }
            Map<String, Object> written = new LinkedHashMap<>();
            for (String flag : flags == null ? List.<String>of() : flags) {
                if (!flag.startsWith("-")) {
                    throw new UsageException("the flags after -- are written --name=value or --name, not '" + flag
                            + "'.");
                }
                int equals = flag.indexOf('=');
                if (equals > 0 && flag.startsWith("--target=")) {   // the scripts' server: recorded, so no password
                    TargetUrl.refuseCredentials(flag.substring(equals + 1));
                }
                written.put(equals < 0 ? flag : flag.substring(0, equals), equals < 0 ? "true"
                        : flag.substring(equals + 1));
            }
            Provenance.add(out, Provenance.record(command, loadGenerator, written,
                    warmupGenerator == null ? Map.of() : Map.of("warmup_generator", warmupGenerator)));
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("provenance: " + file);
        o.flush();
        return 0;
    }
}
