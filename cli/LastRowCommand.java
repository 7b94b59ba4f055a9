package cli;

import base.Failure;
import base.UsageException;
import tables.Row;
import tables.Summary;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code last-row}: one named column of the last row of a summary.csv, for scripts, which then need neither a
 * column's position nor the validity rule: a row that is not valid is refused in one sentence (exit code 1).
 */
@Command(name = "last-row", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Print one column of the last row of a summary.csv, as written; refuse in one sentence (exit"
                + " code 1) when that row is not valid or the column is empty. Used by scripts/wrk2-sweep.sh to"
                + " read the closed-loop maximum.",
        footer = {"", "Example:", "  pssrbench last-row --column=req_per_s results/run1/summary.csv"})
final class LastRowCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "A summary.csv written by bench or scripts/wrk2-*.sh.")
    Path file;

    @Option(names = "--column", required = true, paramLabel = "NAME", description = "The column, by its name in the"
            + " header, e.g. req_per_s.")
    String column;

    @Option(names = "--allow-missed-rate", description = "Also take a row that is invalid only for missing its"
            + " target rate (requests completed, none failed): a run at a rate no server reaches gives the most the"
            + " server got through.")
    boolean allowMissedRate;

    @Override
    public Integer call() {
        if (!Summary.COLUMNS.contains(column)) {
            throw new UsageException("a summary.csv has no column '" + column + "'; its columns: "
                    + String.join(", ", Summary.COLUMNS) + ".");
        }
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no such file: " + file + ".");
        }
        List<Row> rows;
        try {
            rows = Summary.read(file);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse("")
                    + ".");
        }
        if (rows.isEmpty()) {
            throw new Failure(file + " holds no row yet.");
        }
        Row last = rows.getLast();
        if (!(last.valid() || allowMissedRate && last.validButForItsRate())) {
            throw new Failure("the last row of " + file + " (" + last.label() + ") is not valid: " + last.note()
                    + (last.note().endsWith(".") ? "" : "."));
        }
        String value = Summary.text(last, column);
        if (value.isEmpty()) {
            throw new Failure("the last row of " + file + " (" + last.label() + ") has no " + column
                    + ": it was not measured.");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(value);
        out.flush();
        return 0;
    }
}
