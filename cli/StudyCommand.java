package cli;

import base.UsageException;
import report.Study;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code study}: the published study's claims against a results folder, as docs/study.md. */
@Command(name = "study", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = "Write the published study's claims (Pereira & Carvalho 2025 and its companion: every figure"
                + " their evaluation quotes) beside a results folder's figures on the frameworks' stand-in servers,"
                + " each with a verdict: confirmed, contradicted, not comparable or not measured (docs/study.md).")
final class StudyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--from", paramLabel = "DIR", required = true,
            description = "A results folder written by bench; one without a summary.csv gives every claim as not"
                    + " measured.")
    Path from;

    @Option(names = "--out", paramLabel = "FILE", description = "The Markdown file to write (default: DIR/study.md).")
    Path out;

    @Override
    public Integer call() {
        if (!Files.isDirectory(from)) {
            throw new UsageException("no such folder: " + from + "; give --from a results folder written by bench.");
        }
        Path file = out == null ? from.resolve("study.md") : out;
        try {
            Study.write(from, file, Registry.baselineId());
        } catch (IOException e) {
            // As report: almost always the input (a broken summary.csv), which the reader words in one sentence.
            String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new UsageException("cannot write " + file + " from " + from + ": "
                    + (why.length() > 500 ? why.substring(0, 499) + "\u2026" : why) + ".");
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("study: " + file);
        o.flush();
        return 0;
    }
}
