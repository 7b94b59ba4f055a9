package cli;

import base.UsageException;
import stats.Compare;
import stats.CompareText;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code compare}: two results folders, or the combinations of one against a baseline, repetition by repetition. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Compare every point results folder B measured with the same point in A, from every"
                + " repetition in their runs.csv: each side's median with its interval, the change B/A with its 95%%"
                + " interval and a Mann–Whitney p, ~ when the change is not significant at 5%%. With --baseline and"
                + " one folder, compare each combination with the baseline at the same page, connections and rate.",
                "Folders that measured different things (pages, connections, rates, delay, source scheduler), or"
                        + " that share no point, are refused. Reads the folders only."},
        footer = {"", "Examples:", "  pssrbench compare results/before results/after --threshold=5",
                "  pssrbench compare results/run1 --baseline=nima/raw/virtual --metric=req_per_s,ttlb_p99_ms"})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "A results folder written by bench (the reference).")
    Path a;

    @Parameters(index = "1", arity = "0..1", paramLabel = "B", description = "The results folder to compare with A.")
    Path b;

    @Option(names = "--baseline", paramLabel = "SERVER/ENGINE/MODE", description = "Compare the combinations of"
            + " folder A with this one of A instead (give no B), e.g. nima/raw/virtual.")
    String baseline;

    @Option(names = "--threshold", paramLabel = "PCT", description = "Exit with code 1 when a metric got"
            + " significantly worse (p < 0.05) by more than PCT percent at any point (PCT such as 5).")
    String threshold;

    @Option(names = "--metric", split = ",", paramLabel = "METRIC", description = "Only these metrics (default:"
            + " all of req_per_s, ttfb_p50_ms, ttfb_p99_ms, first_item_p50_ms, ttlb_p50_ms, ttlb_p99_ms,"
            + " cpu_ms_per_req).")
    List<String> metric;

    @Override
    public Integer call() {
        List<String> metrics = Compare.metrics(metric);
        Double limit = threshold == null ? null : threshold(threshold);
        Compare.Result result;
        if (baseline != null) {
            if (b != null) {
                throw new UsageException("--baseline compares the combinations of one folder: give A only, not "
                        + b + ".");
            }
            if (!baseline.matches("[^/\\s]+/[^/\\s]+/[^/\\s]+")) {
                throw new UsageException("--baseline takes SERVER/ENGINE/MODE, e.g. nima/raw/virtual, not '"
                        + baseline + "'.");
            }
            result = Compare.baseline(a, baseline, metrics);
        } else if (b == null) {
            throw new UsageException("compare takes two results folders, A and B, or one with"
                    + " --baseline=SERVER/ENGINE/MODE.");
        } else {
            result = Compare.folders(a, b, metrics);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(CompareText.of(result));
        if (limit != null) {
            out.print(CompareText.gate(result, limit));
        }
        out.flush();
        return limit != null && !result.failures(limit).isEmpty() ? 1 : 0;
    }

    /** A positive percentage, {@code 5} or {@code 5%}. */
    private static double threshold(String text) {
        String number = text.endsWith("%") ? text.substring(0, text.length() - 1) : text;
        try {
            double pct = Double.parseDouble(number);
            if (pct > 0 && pct < Double.POSITIVE_INFINITY) {
                return pct;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new UsageException("--threshold takes a positive percentage, e.g. 5, not '" + text + "'.");
    }
}
