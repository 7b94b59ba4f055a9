package core;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One row per measured point in {@code results/<timestamp>/summary.csv}: fixed, unit-suffixed columns, shared by
 * every load generator (a tool that cannot measure a column leaves it empty).
 */
public final class Summary {

    public static final List<String> COLUMNS = List.of(
            "tool", "server", "engine", "mode", "page", "model", "connections", "rate", "duration_s", "requests",
            "errors", "valid", "req_per_s", "ttfb_p50_ms", "ttfb_p99_ms", "first_item_p50_ms", "ttlb_p50_ms",
            "ttlb_p90_ms", "ttlb_p99_ms", "ttlb_p999_ms", "ttlb_max_ms", "source_ms", "chunks_mean",
            "cpu_ms_per_req", "client_cpu_ms_per_req", "rss_peak_mb", "rss_mean_mb", "heap_mb", "threads_peak",
            "vthreads_peak", "gc_count", "gc_ms", "ceiling_fraction", "note");

    private final Map<String, String> values = new LinkedHashMap<>();

    public Summary set(String column, Object value) {
        if (!COLUMNS.contains(column)) {
            throw new IllegalArgumentException("no column " + column);
        }
        String text;
        if (value == null || (value instanceof Double d && d.isNaN())) {
            text = "";
        } else if (value instanceof Double d) {
            text = String.format(Locale.ROOT, "%.3f", d);
        } else {
            text = value.toString();
        }
        values.put(column, text);
        return this;
    }

    public String get(String column) {
        return values.getOrDefault(column, "");
    }

    /** The row as CSV (RFC 4180 quoting where needed), without the line break. */
    public String csv() {
        List<String> cells = new ArrayList<>();
        for (String column : COLUMNS) {
            String v = get(column);
            cells.add(v.contains(",") || v.contains("\"") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\""
                    : v);
        }
        return String.join(",", cells);
    }

    public static String header() {
        return String.join(",", COLUMNS);
    }

    /** The rows of a summary.csv written by this version (its header must match {@link #COLUMNS}). */
    public static List<Summary> read(Path file) throws IOException {
        CsvMapper csv = new CsvMapper();
        List<Summary> rows = new ArrayList<>();
        try (MappingIterator<Map<String, String>> it = csv.readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
            boolean first = true;
            while (it.hasNext()) {
                Map<String, String> cells = it.next();
                if (first && !List.copyOf(cells.keySet()).equals(COLUMNS)) {
                    throw new IOException(file + " has other columns than this version of PssrBench writes");
                }
                first = false;
                Summary row = new Summary();
                cells.forEach(row::set);
                rows.add(row);
            }
        }
        return rows;
    }

    /** Appends the row to {@code file}, writing the header first when the file is new or empty. */
    public void appendTo(Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        if (!fresh) {
            String first = Files.readAllLines(file, StandardCharsets.UTF_8).get(0);
            if (!first.equals(header())) {
                throw new IOException(file + " has other columns than this version of PssrBench writes");
            }
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            if (fresh) {
                out.write(header() + "\n");
            }
            out.write(csv() + "\n");
        }
    }

    /**
     * The one rule for a usable point, whatever the load generator: why it must not be used, or null. A point is
     * invalid with no completed request, with any error ({@code errorDetail} says which), or, at a target rate,
     * when the achieved rate is more than 5% away from it.
     */
    public static String invalidReason(long requests, long errors, String errorDetail, double achievedRate,
                                       double targetRate) {
        if (requests == 0) {
            return "no request completed";
        }
        if (errors > 0) {
            return "errors: " + errorDetail;
        }
        if (targetRate > 0 && Math.abs(achievedRate - targetRate) > 0.05 * targetRate) {
            return String.format(Locale.ROOT, "achieved %.1f req/s, more than 5%% from the target %.0f",
                    achievedRate, targetRate);
        }
        return null;
    }

    /** The row of one wrk or wrk2 run: they measure the time to the last byte; time to first byte stays empty. */
    public static Summary of(WrkReport run, Combination combination, Page page, double targetRate) {
        String invalid = run.invalidReason(targetRate);
        return new Summary()
                .set("tool", run.tool())
                .set("server", combination.server().id())
                .set("engine", combination.engine().id())
                .set("mode", combination.mode().id())
                .set("page", page.id())
                .set("model", targetRate > 0 ? "open" : "closed")
                .set("connections", run.connections())
                .set("rate", targetRate > 0 ? String.format(Locale.ROOT, "%.0f", targetRate) : "")
                .set("duration_s", run.durationS())
                .set("requests", run.requests())
                .set("errors", run.errors())
                .set("valid", invalid == null)
                .set("req_per_s", run.reqPerS())
                .set("ttlb_p50_ms", run.percentileMs(50))
                .set("ttlb_p90_ms", run.percentileMs(90))
                .set("ttlb_p99_ms", run.percentileMs(99))
                .set("ttlb_p999_ms", run.percentileMs(99.9))
                .set("ttlb_max_ms", run.latencyMaxMs())
                .set("note", invalid);
    }
}
