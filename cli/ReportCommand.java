package cli;

import records.BrowserCsv;
import records.Report;
import core.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code report}: a results folder's report.html. */
@Command(name = "report", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = "Write DIR/report.html from DIR/summary.csv and/or DIR/browser.csv (and DIR/provenance.json):"
                + " charts and tables"
                + " in one self-contained file that opens offline.")
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR",
            description = "A results folder written by bench, browser or scripts/wrk2-*.sh.")
    Path dir;

    @Override
    public Integer call() {
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no such folder: " + dir + "; give a results folder written by bench.");
        }
        if (!Files.isRegularFile(dir.resolve("summary.csv")) && !Files.isRegularFile(dir.resolve(BrowserCsv.FILE))
                && !records.ResultsFolder.isPssrBench(dir)) {   // a run stopped before its first row: said so
            throw new UsageException(dir + " has no summary.csv or " + BrowserCsv.FILE + "; give a results folder"
                    + " written by bench or browser.");
        }
        Path html;
        try {
            html = Report.write(dir, Registry.baselineId(), Registry.buffered().id());
        } catch (IOException e) {
            // Almost always the input (another version's columns, a broken CSV or JSON): the user's to fix.
            throw new UsageException("cannot write a report from " + dir + ": "
                    + e.getMessage().lines().findFirst().orElse("") + ".");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("report: " + html);
        out.flush();
        return 0;
    }
}
