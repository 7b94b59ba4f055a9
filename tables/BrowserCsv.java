package tables;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code browser.csv} (one {@link BrowserRow} per combination and page) and {@code browser-runs.csv} (one
 * {@link BrowserRun} per load, the raw data), in named, unit-suffixed, lower-case columns: times in milliseconds
 * from the navigation's start with three decimals, an empty cell for what was not measured.
 */
public final class BrowserCsv {

    public static final String FILE = "browser.csv";
    public static final String RUNS_FILE = "browser-runs.csv";

    private BrowserCsv() {
    }

    /** The columns of browser.csv: per milestone its median, minimum, maximum, buffered median and ratio. */
    public static final List<String> COLUMNS = columns();

    /** The columns of browser-runs.csv. */
    public static final List<String> RUN_COLUMNS = runColumns();

    private static List<String> columns() {
        List<String> c = new ArrayList<>(List.of("server", "engine", "mode", "page", "protocol", "items", "delay_ms",
                "runs", "valid"));
        for (Milestone m : Milestone.values()) {
            String s = m.column();
            c.addAll(List.of(s + "_p50_ms", s + "_min_ms", s + "_max_ms", s + "_buffered_p50_ms", s + "_ratio"));
        }
        c.addAll(List.of("foreign_cpu_max", "disturbed", "note"));
        return List.copyOf(c);
    }

    private static List<String> runColumns() {
        List<String> c = new ArrayList<>(List.of("server", "engine", "mode", "page", "protocol", "run"));
        for (Milestone m : Milestone.values()) {
            c.add(m.column() + "_ms");
        }
        c.addAll(List.of("items_seen", "status", "valid", "foreign_cpu", "note"));
        return List.copyOf(c);
    }

    /** Writes both files into {@code folder} ({@link CsvWriter}), replacing what they held. */
    public static void write(Path folder, List<BrowserRow> rows, List<BrowserRun> runs) throws IOException {
        Files.createDirectories(folder);
        List<List<String>> lines = new ArrayList<>();
        for (BrowserRow r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.server(), r.engine(), r.mode(), r.page(), r.protocol(),
                    String.valueOf(r.items()), Row.decimal(r.delayMs()), String.valueOf(r.runs()),
                    String.valueOf(r.valid())));
            for (Milestone m : Milestone.values()) {
                BrowserRow.Stat s = r.stats().get(m);
                cells.add(s == null ? "" : Row.decimal(s.p50()));
                cells.add(s == null ? "" : Row.decimal(s.min()));
                cells.add(s == null ? "" : Row.decimal(s.max()));
                Double b = r.bufferedP50().get(m);
                cells.add(b == null ? "" : Row.decimal(b));
                cells.add(number(r.ratio(m)));
            }
            cells.add(r.foreignCpuMax() == null ? "" : Row.decimal(r.foreignCpuMax()));
            cells.add(r.foreignCpuMax() == null ? "" : String.valueOf(r.disturbed()));
            cells.add(r.note());
            lines.add(cells);
        }
        base.AtomicFile.write(folder.resolve(FILE), CsvWriter.text(COLUMNS, lines));

        List<List<String>> raw = new ArrayList<>();
        for (BrowserRun r : runs) {
            List<String> cells = new ArrayList<>(List.of(r.server(), r.engine(), r.mode(), r.page(), r.protocol(),
                    String.valueOf(r.run())));
            for (Milestone m : Milestone.values()) {
                cells.add(number(r.get(m)));
            }
            cells.addAll(List.of(String.valueOf(r.itemsSeen()), String.valueOf(r.status()), String.valueOf(r.valid()),
                    r.foreignCpu() == null ? "" : Row.decimal(r.foreignCpu()), r.problem()));
            raw.add(cells);
        }
        base.AtomicFile.write(folder.resolve(RUNS_FILE), CsvWriter.text(RUN_COLUMNS, raw));
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : Row.decimal(v);
    }

    /**
     * The rows of a browser.csv (its header {@link #COLUMNS}); a milestone whose median, minimum or maximum is
     * missing (or not finite, {@link CsvFile}) is not measured.
     */
    public static List<BrowserRow> read(Path file) throws IOException {
        CsvFile csv = CsvFile.read(file);
        if (!csv.lines().isEmpty() && !csv.header().equals(COLUMNS)) {
            throw new IOException(file + " has other columns than this version of PssrBench writes");
        }
        List<BrowserRow> rows = new ArrayList<>();
        for (CsvFile.Line c : csv.lines()) {
            Map<Milestone, BrowserRow.Stat> stats = new EnumMap<>(Milestone.class);
            Map<Milestone, Double> buffered = new EnumMap<>(Milestone.class);
            for (Milestone m : Milestone.values()) {
                String s = m.column();
                Double p50 = c.decimal(s + "_p50_ms");
                Double min = c.decimal(s + "_min_ms");
                Double max = c.decimal(s + "_max_ms");
                if (p50 != null && min != null && max != null) {
                    stats.put(m, new BrowserRow.Stat(p50, min, max));
                }
                Double b = c.decimal(s + "_buffered_p50_ms");
                if (b != null) {
                    buffered.put(m, b);
                }
            }
            rows.add(new BrowserRow(c.text("server"), c.text("engine"), c.text("mode"), c.text("page"),
                    c.text("protocol"), c.count("items"), c.requiredDecimal("delay_ms"), c.count("runs"),
                    c.flag("valid"), stats, buffered, c.text("note"), c.decimal("foreign_cpu_max")));
        }
        return rows;
    }
}
