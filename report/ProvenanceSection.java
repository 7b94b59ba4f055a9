package report;

import tables.Provenance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The provenance section of report.html: provenance.json as it is, a key/value table with readable labels for the
 * keys PssrBench writes, so that a key added to the file shows without a change here.
 */
final class ProvenanceSection {

    private static final Map<String, String> LABELS = Map.ofEntries(Map.entry("pssrbench",
                    "PssrBench version"), Map.entry("git", "git revision"), Map.entry("started", "date (start, UTC)"),
            Map.entry("finished", "date (end, UTC)"), Map.entry("load_generator", "load generator"),
            Map.entry("warmup_generator", "warm-up"), Map.entry("java", "JDK"), Map.entry("java_vendor", "JDK vendor"),
            Map.entry("os", "OS"), Map.entry("cpu", "CPU"), Map.entry("cores", "cores"), Map.entry("load_average",
                    "load average (/proc/loadavg at start)"), Map.entry("load_average_after",
                    "load average (/proc/loadavg at the end)"), Map.entry("server_cpus", "server CPU pinning"),
            Map.entry("server_jvm_flags", "server JVM flags"), Map.entry("delay", "data source delay per item"),
            Map.entry("source_scheduler", "data source scheduler"),
            Map.entry(Provenance.LATER_RUNS, "later runs into this folder"),
            Map.entry("repeat", "repetitions per point"), Map.entry("warmup", "warm-up per point"),
            Map.entry("duration", "measured window"), Map.entry("seed", "shuffle seed"),
            Map.entry("disturbed_when", "disturbed when"));

    private ProvenanceSection() {
    }

    /**
     * One short line for the top of the report, from bench's records in provenance.json: whether the server and the
     * load generator shared the CPUs or were pinned apart, the repetitions per point, the warm-up and the measured
     * window; a value that a later run into the folder changed follows the first, "then" the later. Empty when the
     * records have none of these (an earlier version's folder, another tool's).
     */
    static String setup(JsonNode provenance) {
        if (provenance == null) {
            return "";
        }
        List<JsonNode> records = new ArrayList<>(List.of(provenance));
        provenance.path(Provenance.LATER_RUNS).forEach(records::add);
        List<String> parts = new ArrayList<>();
        String cpus = values(records, r -> r.path("flags").path("cpu_sets"));
        if (!cpus.isEmpty()) {
            parts.add("CPUs: " + cpus);
        }
        String repeat = values(records, r -> r.path("repeat"));
        if (!repeat.isEmpty()) {
            parts.add("repetitions per point: " + repeat);
        }
        String warmup = values(records, r -> r.path("warmup"));
        if (!warmup.isEmpty()) {
            parts.add("warm-up: " + warmup);
        }
        String window = values(records, r -> r.path("duration"));
        if (!window.isEmpty()) {
            parts.add("measured window: " + window);
        }
        return parts.isEmpty() ? "" : "<p class=\"setup\">" + esc(String.join(" \u00b7 ", parts)) + "</p>\n";
    }

    /** The distinct texts of one key over the records, in order: "a", or "a, then b". */
    private static String values(List<JsonNode> records, java.util.function.Function<JsonNode, JsonNode> key) {
        List<String> texts = new ArrayList<>();
        for (JsonNode r : records) {
            JsonNode v = key.apply(r);
            String text = v.isMissingNode() || v.isNull() ? "" : scalar(v);
            if (!text.isEmpty() && !texts.contains(text)) {
                texts.add(text);
            }
        }
        return String.join(", then ", texts);
    }

    /** The section; {@code provenance} null: the folder has no provenance.json, which it says. */
    static String section(JsonNode provenance) {
        return "<h2 id=\"provenance\">Provenance</h2>\n"
                + (provenance == null ? "<p>No provenance.json in this folder.</p>\n" : keyValues(provenance));
    }

    /**
     * Any JSON object as a key/value table, nested objects as nested tables: new provenance keys need no code. Lists
     * of objects (the later runs into a folder) and the long list of libraries fold away (details, no script).
     */
    private static String keyValues(JsonNode node) {
        StringBuilder h = new StringBuilder("<table class=\"kv\">\n");
        for (var field : node.properties()) {
            JsonNode v = field.getValue();
            h.append("<tr><th>").append(esc(LABELS.getOrDefault(field.getKey(), field.getKey())))
                    .append("</th><td>");
            if (v.isArray() && v.size() > 0 && v.get(0).isObject()) {
                int n = 0;
                for (JsonNode item : v) {
                    h.append(folded(++n + ": " + item.path("command").asText("") + ", "
                            + item.path("started").asText(""), keyValues(item)));
                }
            } else if (v.isObject() && field.getKey().equals("libraries")) {
                h.append(folded(v.size() + " libraries", keyValues(v)));
            } else {
                h.append(v.isObject() ? keyValues(v) : esc(scalar(v)));
            }
            h.append("</td></tr>\n");
        }
        return h.append("</table>\n").toString();
    }

    private static String folded(String summary, String content) {
        return "<details><summary>" + esc(summary) + "</summary>\n" + content + "</details>\n";
    }

    private static String scalar(JsonNode v) {
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> items.add(item.isValueNode() ? item.asText() : item.toString()));
            return String.join(", ", items);
        }
        return v.isNull() ? "" : v.asText();
    }

    private static String esc(String text) {
        return Charts.esc(text);
    }
}
