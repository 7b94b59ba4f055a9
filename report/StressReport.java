package report;

import tables.CsvFile;
import tables.Provenance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stress section of report.html, from {@code stress.csv}: a table per scenario, a row per combination with
 * PASS or FAIL, the scenario's figures (the columns that scenario fills) and the note, the pass rule above it.
 * {@link Report} adds it to a bench report when the folder has both files; a folder with stress.csv alone gets a
 * report of its own ({@link #write}).
 */
public final class StressReport {

    public static final String FILE = "stress.csv";
    private static final Set<String> FIXED = Set.of("scenario", "server", "engine", "mode", "pass", "rule", "note");
    private static final Set<String> NAMES = Set.of("scenario", "server", "engine", "mode");

    private StressReport() {
    }

    /** The section, or "" when {@code folder} has no stress.csv. */
    public static String section(Path folder) throws IOException {
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return "";
        }
        Map<String, List<Map<String, String>>> byScenario = new LinkedHashMap<>();
        for (CsvFile.Line line : CsvFile.read(file).lines()) {
            // Names and free text cut before anything is laid out, as Report does for the other files.
            Map<String, String> row = new LinkedHashMap<>();
            line.cells().forEach((column, value) -> row.put(Charts.name(column),
                    NAMES.contains(column) ? Charts.name(value) : Charts.text(value)));
            byScenario.computeIfAbsent(row.get("scenario"), k -> new ArrayList<>()).add(row);
        }
        StringBuilder h = new StringBuilder("<h2 id=\"stress\">Stress</h2>\n<p>From <a href=\"stress.csv\">")
                .append("stress.csv</a>: each scenario on each combination in a server JVM of its own; the server")
                .append(" logs are in logs/.</p>\n");
        for (var e : byScenario.entrySet()) {
            List<Map<String, String>> rows = e.getValue();
            List<String> figures = new ArrayList<>();
            for (String column : rows.get(0).keySet()) {
                if (!FIXED.contains(column) && rows.stream().anyMatch(r -> !r.getOrDefault(column, "").isEmpty())) {
                    figures.add(column);
                }
            }
            h.append("<section>\n<h3>").append(esc(e.getKey())).append("</h3>\n<p>Passes when: ")
                    .append(esc(rows.get(0).getOrDefault("rule", ""))).append("</p>\n")
                    .append("<div class=\"wide\"><table class=\"stress\">\n<tr><th>server</th><th>engine</th>")
                    .append("<th>mode</th><th>result</th>");
            figures.forEach(f -> h.append("<th>").append(esc(f)).append("</th>"));
            h.append("<th>note</th></tr>\n");
            for (Map<String, String> r : rows) {
                boolean pass = "true".equals(r.get("pass"));
                h.append("<tr><td>").append(esc(r.get("server"))).append("</td><td>")
                        .append(esc(r.get("engine"))).append("</td><td>").append(esc(r.get("mode")))
                        .append("</td><td class=\"").append(pass ? "pass" : "fail").append("\">")
                        .append(pass ? "PASS" : "FAIL").append("</td>");
                figures.forEach(f -> h.append("<td>").append(esc(r.getOrDefault(f, ""))).append("</td>"));
                h.append("<td>").append(esc(r.getOrDefault("note", ""))).append("</td></tr>\n");
            }
            h.append("</table></div>\n</section>\n");
        }
        return h.append(SoakChart.html(folder)).toString();
    }

    /** HTML-escaped text (this file's own: Report uses this class, so it must not use Report). */
    private static String esc(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /** Writes {@code folder/report.html} for a folder that has stress.csv and no summary.csv. */
    public static Path write(Path folder) throws IOException {
        Path provenance = folder.resolve(Provenance.FILE);
        String title = "PssrBench stress " + folder.toAbsolutePath().normalize().getFileName();
        String html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
                + esc(title) + "</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em}"
                + "table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;padding:2px 6px}"
                + ".pass{color:#060;font-weight:bold}.fail{color:#b00;font-weight:bold}.wide{overflow-x:auto}"
                + "pre{background:#f6f6f6;padding:.5em;font-size:.8em}"
                + ".charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;width:480px}"
                + "figure svg{display:block;width:100%;height:auto}\n</style>\n</head>\n<body>\n<h1>"
                + esc(title) + "</h1>\n" + section(folder) + "<h2 id=\"provenance\">Provenance</h2>\n"
                // as written, a byte that is not UTF-8 read as U+FFFD (CsvFile says why)
                + (Files.isRegularFile(provenance) ? "<pre>" + esc(new String(Files.readAllBytes(provenance),
                        StandardCharsets.UTF_8)) + "</pre>"
                        : "<p>No provenance.json in this folder.</p>")
                + "\n</body>\n</html>\n";
        Path file = folder.resolve("report.html");
        base.AtomicFile.write(file, html);
        return file;
    }
}
