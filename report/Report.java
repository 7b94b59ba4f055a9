package report;

import base.AtomicFile;
import stats.Repetitions;
import tables.BrowserCsv;
import tables.BrowserRow;
import tables.Provenance;
import tables.ResultsFolder;
import tables.Row;
import tables.Summary;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfree.chart.StandardChartTheme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code report}: one self-contained {@code report.html} from a results folder (summary.csv, provenance.json).
 * Charts are drawn by JFreeChart onto JFreeSVG and inlined, the page has no script and no external resource, so it
 * opens offline, from an archive or a mail attachment, exactly as it was written. This class is the page: its head,
 * what the folder holds, and its sections in order, each written by a class of its own ({@link BrowserReport},
 * {@link BenchSection} with {@link BenchCharts}, {@link TimelineChart}, {@link StressReport},
 * {@link ProvenanceSection}). What a reader came
 * for comes first: the charts start on the first screen of a laptop, under a few lines on the folder and the setup,
 * and the provenance (versions, machine, flags) is last.
 */
public final class Report {

    private Report() {
    }

    /**
     * Writes {@code folder/report.html} from {@code folder/summary.csv} and {@code folder/browser.csv} (either may
     * be missing) and provenance.json when present; {@code baseline} is the id of the baseline engine
     * (drawn grey, first in tables and legends). A folder with neither but a stress.csv gets the page that stress
     * writes ({@link StressReport#write}).
     *
     * @throws IOException a file that cannot be read, in one sentence naming it, the line and the column
     *                     ({@link tables.CsvFile}, {@link Provenance#read}), or none of the three files
     */
    public static Path write(Path folder, String baseline) throws IOException {
        return write(folder, baseline, "buffered");
    }

    /** The same; {@code bufferedMode}: the id of the buffered mode, listed after the progressive ones. */
    public static Path write(Path folder, String baseline, String bufferedMode) throws IOException {
        // AWT lays the charts' text out with font metrics; on a machine without a display (a benchmark host, CI)
        // it must not try to open one. It takes effect only before AWT's first use in this JVM, so set it first.
        System.setProperty("java.awt.headless", "true");
        Path summary = folder.resolve("summary.csv");
        Path browser = folder.resolve(BrowserCsv.FILE);
        if (!Files.isRegularFile(summary) && !Files.isRegularFile(browser)) {
            if (Files.isRegularFile(folder.resolve(StressReport.FILE))) {
                return StressReport.write(folder);
            }
            // A run stopped before its first row leaves its provenance record only: a report that says so.
            if (!ResultsFolder.isPssrBench(folder)) {
                throw new IOException(folder + " has no summary.csv, " + BrowserCsv.FILE + " or "
                        + StressReport.FILE);
            }
        }
        // Names and notes are cut here, once, before anything is laid out (Charts.name, Charts.text).
        List<Row> rows = Files.isRegularFile(summary) ? Summary.read(summary).stream()
                .map(r -> r.withText(Charts::name, Charts::text)).toList() : null;
        List<BrowserRow> browserRows = Files.isRegularFile(browser) ? BrowserCsv.read(browser).stream()
                .map(r -> r.withText(Charts::name, Charts::text)).toList() : null;
        Path provenanceFile = folder.resolve(Provenance.FILE);
        JsonNode provenance = Files.isRegularFile(provenanceFile) ? Provenance.read(provenanceFile) : null;
        Path html = folder.resolve("report.html");
        AtomicFile.write(html, html(folder, rows, baseline, browserRows, bufferedMode, provenance));
        return html;
    }

    private static String html(Path folder, List<Row> summaryRows, String baseline, List<BrowserRow> browserRows,
                        String bufferedMode, JsonNode provenance) {
        Path name = folder.toAbsolutePath().normalize().getFileName();
        String title = "PssrBench report" + (name == null ? "" : " " + name);
        List<Row> rows = summaryRows == null ? List.of() : summaryRows;
        long valid = rows.stream().filter(Row::valid).count();
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n")
                .append("<h1>").append(esc(title)).append("</h1>\n");
        if (summaryRows != null) {
            h.append("<p>").append(rows.size()).append(" points, ")
                    .append(valid).append(" valid, from <a href=\"summary.csv\">summary.csv</a> (every column")
                    .append(Files.exists(folder.resolve("summary.json")) ? "; also summary.json" : "")
                    .append(Files.isRegularFile(folder.resolve(Repetitions.FILE)) ? "; every repetition in <a href=\""
                            + Repetitions.FILE + "\">" + Repetitions.FILE + "</a>" : "")
                    .append(Files.isRegularFile(folder.resolve(Repetitions.REPLACED_FILE)) ? "; the earlier windows"
                            + " of the repetitions a --resume measured again in <a href=\""
                            + Repetitions.REPLACED_FILE + "\">" + Repetitions.REPLACED_FILE + "</a>" : "")
                    .append(Files.isDirectory(folder.resolve("hgrm")) ? "; the full latency spectra in hgrm/" : "")
                    .append(").</p>\n");
        }
        if (browserRows != null) {
            h.append("<p>").append(browserRows.size()).append(" combinations and pages loaded in a browser, ")
                    .append(browserRows.stream().filter(BrowserRow::valid).count()).append(" valid, from <a href=\"")
                    .append(BrowserCsv.FILE).append("\">").append(BrowserCsv.FILE).append("</a> (every load in <a")
                    .append(" href=\"").append(BrowserCsv.RUNS_FILE).append("\">").append(BrowserCsv.RUNS_FILE)
                    .append("</a>): <a href=\"#browser\">in a browser</a>.</p>\n");
        }
        if (summaryRows == null && browserRows == null) {
            h.append("<p>Nothing was measured in this folder yet: the run recorded below stopped before its first"
                    + " row (bench continues it with <code>--resume</code>).</p>\n");
        }
        h.append(ProvenanceSection.setup(provenance));
        StandardChartTheme theme = Charts.theme();   // one look for every chart of the page
        BenchSection bench = summaryRows == null ? null : new BenchSection(rows, baseline, theme);
        String stress;
        try {
            stress = summaryRows == null ? "" : StressReport.section(folder);   // a stress run into the same folder
        } catch (IOException e) {
            stress = "<h2 id=\"stress\">Stress</h2>\n<p>stress.csv could not be read: " + esc(e.getMessage())
                    + "</p>\n";
        }
        String timeline = TimelineChart.section(folder, theme);   // from bench --jfr's recordings, where kept
        h.append("<nav><b>On this page:</b><ul>\n")
                .append(browserRows == null ? "" : "<li><a href=\"#browser\">in a browser</a></li>\n")
                .append(bench == null ? "" : bench.contents())
                .append(timeline.isEmpty() ? "" : "<li><a href=\"#timeline\">timeline</a></li>\n")
                .append(stress.isEmpty() ? "" : "<li><a href=\"#stress\">stress</a></li>\n")
                .append("<li><a href=\"#provenance\">provenance</a></li>\n</ul></nav>\n");
        if (browserRows != null) {
            h.append(BrowserReport.section(browserRows, bufferedMode, theme));
        }
        if (bench != null) {
            h.append(bench.guide()).append(bench.points()).append(timeline).append(stress).append(bench.invalid());
        } else {
            h.append(timeline);
        }
        h.append(ProvenanceSection.section(provenance));   // last: what a reader checks, not what they came for
        return h.append("</body>\n</html>\n").toString();
    }

    private static String esc(String text) {
        return Charts.esc(text);
    }

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5rem auto;max-width:1400px;
            padding:0 1rem;color:#222;line-height:1.45}
            h1{font-size:1.7rem;margin:.2rem 0 .6rem}
            h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
            .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:1rem}
            figure{margin:0;border:1px solid #e3e3e3}
            figure.wide{max-width:900px;margin-bottom:1rem}
            figure svg{display:block;width:100%;height:auto}
            .scroll{overflow-x:auto}
            table{border-collapse:collapse;font-size:.85rem}
            th,td{border:1px solid #ddd;padding:.15rem .45rem;text-align:left;vertical-align:top}
            thead th{background:#f3f3f3;position:sticky;top:0}
            td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            table.points td:last-child{min-width:16rem}
            tr.disturbed td{background:#fff8e5}
            tr.bad td{background:#fff1f0}
            td.disturbed{color:#c00000;font-weight:600}
            p.method{font-size:.9rem;color:#444;max-width:70rem}
            p.setup{background:#f6f6f6;border-left:3px solid #999;padding:.3rem .6rem}
            nav ul{display:inline;padding:0;margin:0 0 0 .4rem}
            nav li{display:inline;margin-right:1.1rem}
            details.how{margin:.8rem 0}
            details.how summary{cursor:pointer;color:#124e8c}
            details.how p{font-size:.9rem;max-width:70rem}
            table.kv th{background:#f8f8f8;font-weight:600}
            """;
}
