package cli;

import base.UsageException;
import importers.WrkReport;
import model.Page;
import site.Combination;
import tables.Row;
import tables.Summary;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code wrk-row}: one wrk2 (or wrk) run's output as a summary.csv row, for scripts/wrk2-*.sh. */
@Command(name = "wrk-row", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Read the text output of one wrk2 (or Debian wrk) run and append its row to a summary.csv;"
                + " keep its percentile spectra as .hgrm files. Used by scripts/wrk2-*.sh.")
final class WrkRowCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--raw", required = true, paramLabel = "FILE", description = "The run's output.")
    Path raw;

    @Option(names = "--server", required = true, paramLabel = "ID", description = "The server measured.")
    String server;

    @Option(names = "--engine", required = true, paramLabel = "ID", description = "The engine measured.")
    String engine;

    @Option(names = "--mode", required = true, paramLabel = "ID", description = "The mode measured.")
    String mode;

    @Option(names = "--page", required = true, paramLabel = "ID", description = "The page measured.")
    String page;

    @Option(names = "--rate", paramLabel = "REQ_PER_S", defaultValue = "0",
            description = "The target rate of a wrk2 run; 0 for a closed-loop run (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--csv", required = true, paramLabel = "FILE",
            description = "The summary.csv to append to (created with its header if new).")
    Path csv;

    @Option(names = "--hgrm", paramLabel = "PREFIX",
            description = "Write PREFIX.hgrm (and PREFIX-uncorrected.hgrm) when the output has spectra.")
    Path hgrm;

    @Override
    public Integer call() throws IOException {
        Combination combination = new Combination(Registry.server(server), Registry.engine(engine),
                Registry.mode(mode));
        Page p = Page.byId(page);
        if (!Files.isRegularFile(raw)) {
            throw new UsageException("no such file: " + raw + ".");
        }
        WrkReport run;
        try {
            run = WrkReport.parse(Files.readString(raw));
        } catch (IllegalArgumentException e) {
            throw new UsageException(raw + ": " + e.getMessage() + ".");
        }
        Row row = run.row(combination, p, rate);
        Summary.append(csv, row);
        if (hgrm != null) {
            if (!run.spectrum().isEmpty()) {
                base.AtomicFile.write(Path.of(hgrm + ".hgrm"), run.spectrum());
            }
            if (!run.uncorrectedSpectrum().isEmpty()) {
                base.AtomicFile.write(Path.of(hgrm + "-uncorrected.hgrm"), run.uncorrectedSpectrum());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s %s %s c%d %s: %.1f req/s, p50 %.2f ms, p99 %.2f ms, %d errors: %s%n",
                run.tool(), combination, p.id(), run.connections(),
                rate > 0 ? String.format(Locale.ROOT, "R%.0f", rate) : "closed loop", run.reqPerS(),
                run.percentileMs(50), run.percentileMs(99), run.errors(),
                row.valid() ? "valid" : "INVALID (" + row.note() + ")");
        out.flush();
        return 0;
    }
}
