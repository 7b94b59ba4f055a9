package cli;

import base.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import importers.HyperfoilImport;
import tables.Provenance;
import tables.ResultsFolder;
import tables.Row;
import tables.Summary;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code hyperfoil-import}: the JSON exports of runs on a Hyperfoil cluster (of benchmarks that
 * {@code bench --driver=hyperfoil --export} wrote) as rows of a PssrBench results folder, for {@code report}.
 */
@Command(name = "hyperfoil-import", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Read Hyperfoil's JSON exports (its CLI's export -f JSON) of benchmarks written by bench"
                + " --driver=hyperfoil --export and append their measured phases to DIR/summary.csv as rows of tool"
                + " hyperfoil (no TTFB or first item: Hyperfoil times whole responses); then report renders them.")
final class HyperfoilImportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "The results folder (new, or one PssrBench wrote) to add the rows to.")
    Path out;

    @Parameters(arity = "1..*", paramLabel = "RUN.json", description = "Hyperfoil JSON exports, one per run.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        ResultsFolder.checkWritable(out, "--out");
        List<Row> rows = new ArrayList<>();
        List<String> shares = new ArrayList<>();   // each row's responses per agent, for the console
        Map<String, Object> sources = new LinkedHashMap<>();
        for (Path file : files) {   // all read and checked before anything is written
            if (!Files.isRegularFile(file)) {
                throw new UsageException("no such file: " + file + ".");
            }
            HyperfoilImport.Export export;
            try {
                export = HyperfoilImport.export(file);
            } catch (IOException | IllegalArgumentException e) {
                throw new UsageException(file + " is not a Hyperfoil JSON export: " + e.getMessage() + ".");
            }
            // A run the controller cancelled, or whose agents failed, has figures of a part of the load only (its
            // watchdogs' warnings are not failures: the row's note gives them)
            if (export.cancelled() || !export.errors().isEmpty()) {
                throw new UsageException(file + " is of a run that " + (export.errors().isEmpty() ? "was cancelled"
                        : "failed (" + export.errors().get(0) + ")") + ": run it again rather than import it.");
            }
            List<HyperfoilImport.Phase> phases = export.phases();
            if (phases.isEmpty()) {
                throw new UsageException(file + " has no measured phase (only warm-ups, or none).");
            }
            String name = export.benchmark();
            HyperfoilImport.Point point = HyperfoilImport.point(name);
            if (point == null) {
                throw new UsageException(file + " is of benchmark '" + name + "', not one bench --driver=hyperfoil"
                        + " --export named (pssr.SERVER.ENGINE.MODE.PAGE.cN[.rR]).");
            }
            for (HyperfoilImport.Phase phase : phases) {
                rows.add(phase.row(point, "imported from " + file.getFileName()
                        + (export.runId().isEmpty() ? "" : ", run " + export.runId()) + ", phase " + phase.phase()
                        + (export.warningsRemark().isEmpty() ? "" : "; " + export.warningsRemark())));
                shares.add(phase.agentsRemark().isEmpty() ? "" : " (" + phase.agentsRemark() + ")");
            }
            sources.put(file.toString(), name);
        }
        Files.createDirectories(out);
        Map<String, Object> more = new LinkedHashMap<>();
        more.put("imported", sources);
        Provenance.add(out, Provenance.record("hyperfoil-import", "Hyperfoil (a cluster's JSON export)",
                Provenance.flags(spec.commandLine().getParseResult()), more));
        PrintWriter console = spec.commandLine().getOut();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Summary.append(out.resolve("summary.csv"), row);
            console.printf(Locale.ROOT, "hyperfoil-import: %s %s %s %s %s c%d: %.1f req/s, p50 %.2f ms, p99 %.2f ms,"
                            + " %s errors%s%n", row.server(), row.engine(), row.mode(), row.page(), row.model(),
                    row.connections(), row.reqPerS(), row.decimal(tables.Metric.TTLB_P50_MS), row.decimal(tables.Metric.TTLB_P99_MS), row.errors(), shares.get(i));
        }
        console.flush();
        return 0;
    }
}
