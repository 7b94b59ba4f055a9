package cli;

import base.UsageException;
import report.Report;
import report.StressReport;
import tables.BrowserCsv;

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
        description = "Write DIR/report.html from DIR/summary.csv and/or DIR/browser.csv, or DIR/stress.csv (and"
                + " DIR/provenance.json): charts and tables"
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
                && !Files.isRegularFile(dir.resolve(StressReport.FILE))
                && !tables.ResultsFolder.isPssrBench(dir)) {   // a run stopped before its first row: said so
            throw new UsageException(dir + " has no summary.csv, " + BrowserCsv.FILE + " or " + StressReport.FILE
                    + "; give a results folder written by bench, browser or stress.");
        }
        Path html;
        try {
            html = Report.write(dir, Registry.baselineId(), Registry.buffered().id());
        } catch (IOException e) {
            // Almost always the input (another version's columns, a broken CSV or JSON): the user's to fix. The
            // readers say which file, line and column in one sentence, the value cut; the cut here is only a bound
            // for what they do not word (a file system's message).
            String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new UsageException("cannot write a report from " + dir + ": "
                    + (why.length() > 500 ? why.substring(0, 499) + "\u2026" : why) + ".");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("report: " + html);
        out.flush();
        return 0;
    }
}
