package cli;

import base.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code list}: every valid combination, for scripts, or the matrix's tables (docs/matrix.md); or the pages, for scripts. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Print every valid combination, one per line: server engine mode.")
final class ListCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "lines",
            description = "lines (for scripts) or markdown (the tables of docs/matrix.md) (default: ${DEFAULT-VALUE}).")
    String format;

    // The wrk2 scripts read the pages from here rather than keep a list of their own.
    @Option(names = "--pages", description = "Print the page ids instead, one per line (for scripts).")
    boolean pages;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (pages) {
            if (Cli.given(spec, "--format")) {
                throw new UsageException("--pages prints page ids, one per line: leave out --format.");
            }
            java.util.Arrays.stream(model.Page.values()).forEach(p -> out.println(p.id()));
            out.flush();
            return 0;
        }
        switch (format) {
            case "lines" -> Registry.combinations().forEach(out::println);
            case "markdown" -> out.print(Matrix.markdown());
            default -> throw new UsageException("unknown --format '" + format + "'; valid formats: lines,"
                    + " markdown.");
        }
        out.flush();
        return 0;
    }
}
