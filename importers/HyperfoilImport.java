package importers;

import tables.Row;
import tables.RowBuilder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Hyperfoil's JSON export of a run ({@code export -f JSON} in Hyperfoil's CLI, written by its controller's
 * JsonWriter, run schema v3.0 in 0.25): its measured phases' figures as PssrBench rows. Each entry of {@code stats}
 * has the phase, the metric, {@code isWarmup} and {@code total.summary}: counts, response times in nanoseconds
 * ({@code percentileResponseTime} keyed "50.0", "90.0", "99.0", "99.9", "99.99") and the HTTP status counts under
 * {@code extensions.http}. Warm-up phases are skipped. The benchmark's name ({@code info.benchmark}) says which point
 * it measured, as {@code bench --driver=hyperfoil} names it: {@code pssr.SERVER.ENGINE.MODE.PAGE.cN[.rR]}.
 *
 * <p>Hyperfoil times the whole response only: these rows have no time to first byte and no first item, and no body
 * check (Hyperfoil counts statuses, not wrong bodies); their note says so.
 */
public final class HyperfoilImport {

    /** The tool column of Hyperfoil's rows. */
    public static final String TOOL = "hyperfoil";

    /** What every Hyperfoil row's note says about the columns it leaves empty. */
    public static final String NOTE = "Hyperfoil: no time to first byte or first item (it times whole responses"
            + " only), bodies not checked";

    /** The point a benchmark's name names. */
    public record Point(String server, String engine, String mode, String page, int connections, double rate) {
    }

    /**
     * One export: the benchmark's name, the controller's run id ("" in the embedded runner's file), whether the run
     * was cancelled, the errors the controller recorded that are not its watchdogs' warnings (an agent that died,
     * ...), how often its watchdogs warned, and the measured phases. The controller lists the watchdogs' warnings among
     * the run's errors ({@code info.errors}); the run goes on regardless: the jitter watchdog's (an agent's thread
     * was not scheduled for longer than its threshold, 100 ms) and the CPU watchdog's (an agent's CPU busier than 80%).
     * Both say the load generator was short of CPU, which the row's note repeats.
     */
    public record Export(String benchmark, String runId, boolean cancelled, List<String> errors, int jitterWarnings,
                         int cpuWarnings, List<Phase> phases) {

        /** "Hyperfoil's watchdogs warned ..." when they did, else "". */
        public String warningsRemark() {
            if (jitterWarnings + cpuWarnings == 0) {
                return "";
            }
            return "Hyperfoil's watchdogs warned that its agents were short of CPU: " + jitterWarnings + " stalls over"
                    + " its jitter threshold, " + cpuWarnings + " times a CPU over 80%";
        }
    }

    /** The watchdogs' messages: "HH:mm:ss.SSS | Jitter watchdog was not invoked for ..." and "... | CPU 1 was used". */
    private static final Pattern JITTER = Pattern.compile(
            "[\\d:.]+ \\| Jitter watchdog was not invoked for .*");
    private static final Pattern CPU = Pattern.compile(
            "[\\d:.]+ \\| CPU \\d+ was used for .*");

    /**
     * One measured phase and metric. Times in nanoseconds; {@code seconds}: its statistics' span (end - start);
     * {@code hdrHistogram}: the compressed histogram PssrBench's embedded runner adds (null in Hyperfoil's export);
     * {@code agentResponses}: each agent's responses in it, by agent name (a cluster's export has them per agent;
     * empty in the embedded runner's file).
     */
    public record Phase(String benchmark, String phase, String metric, long responses, long status2xx,
                        long statusOther, long invalid, long connectionErrors, long timeouts, long internalErrors,
                        double seconds, long p50, long p90, long p99, long p999, long max, String hdrHistogram,
                        Map<String, Long> agentResponses) {

        public long non2xx() {
            return statusOther;
        }

        public long ioErrors() {
            return connectionErrors + internalErrors;
        }

        public long errors() {
            return non2xx() + ioErrors() + timeouts;
        }

        public double reqPerS() {
            return seconds > 0 ? responses / seconds : Double.NaN;
        }

        public String errorDetail() {
            return String.format(Locale.ROOT, "non-2xx %d, wrong body -, i/o %d, timeout %d", non2xx(), ioErrors(),
                    timeouts);
        }

        /** "responses per agent: a1 1204, a2 1198" from a cluster's export, else "". */
        public String agentsRemark() {
            if (agentResponses.isEmpty()) {
                return "";
            }
            StringBuilder b = new StringBuilder("responses per agent:");
            agentResponses.forEach((agent, n) -> b.append(b.charAt(b.length() - 1) == ':' ? " " : ", ")
                    .append(agent).append(' ').append(n));
            return b.toString();
        }

        /** This phase as a row of {@code point}, with {@code remark} and the agents' shares added to {@link #NOTE}. */
        public Row row(Point point, String remark) {
            StringBuilder note = new StringBuilder(NOTE);
            for (String more : new String[]{remark, agentsRemark()}) {
                if (more != null && !more.isEmpty()) {
                    note.append("; ").append(more);
                }
            }
            return RowBuilder.of(TOOL, point.server(), point.engine(), point.mode(), point.page(),
                            point.connections(), point.rate())
                    .measured(seconds, responses, errors(), errorDetail(), reqPerS())
                    .ttlbMs(p50 / 1e6, p90 / 1e6, p99 / 1e6, p999 / 1e6, max / 1e6)
                    .remark(note.toString())
                    .build();
        }
    }

    private HyperfoilImport() {
    }

    /** The measured (not warm-up) phases of the export in {@code file}; an unreadable file fails with its reason. */
    public static List<Phase> read(Path file) throws IOException {
        return export(file).phases();
    }

    /** The export in {@code file}, its measured phases and the run's outcome; an unreadable file fails with why. */
    public static Export export(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        JsonNode stats = root == null ? null : root.get("stats");
        if (stats == null || !stats.isArray()) {
            throw new IllegalArgumentException(file + " is not a Hyperfoil JSON export (no \"stats\" list)");
        }
        JsonNode info = root.path("info");
        String benchmark = info.path("benchmark").asText("");
        // A cluster's export repeats each phase's statistics per agent under "agents": [{name, stats: [...]}]
        Map<String, Map<String, Long>> perAgent = new LinkedHashMap<>();
        for (JsonNode agent : root.path("agents")) {
            for (JsonNode s : agent.path("stats")) {
                perAgent.computeIfAbsent(s.path("phase").asText() + "\u0000" + s.path("metric").asText(),
                        k -> new TreeMap<>()).merge(agent.path("name").asText(),
                        s.path("total").path("summary").path("responseCount").asLong(), Long::sum);
            }
        }
        List<String> errors = new ArrayList<>();
        int jitter = 0, cpu = 0;
        for (JsonNode e : info.path("errors")) {
            String msg = e.path("msg").asText();
            if (JITTER.matcher(msg).matches()) {
                jitter++;
            } else if (CPU.matcher(msg).matches()) {
                cpu++;
            } else {
                errors.add((e.has("agent") ? e.path("agent").asText() + ": " : "") + msg);
            }
        }
        List<Phase> phases = new ArrayList<>();
        for (JsonNode s : stats) {
            if (s.path("isWarmup").asBoolean(false)) {
                continue;
            }
            JsonNode total = s.path("total");
            JsonNode sum = total.path("summary");
            JsonNode pct = sum.path("percentileResponseTime");
            JsonNode http = sum.path("extensions").path("http");
            long responses = sum.path("responseCount").asLong();
            long ok = http.path("status_2xx").asLong();
            long other = http.path("status_3xx").asLong() + http.path("status_4xx").asLong()
                    + http.path("status_5xx").asLong() + http.path("status_other").asLong();
            long start = total.path("start").asLong(sum.path("startTime").asLong());
            long end = total.path("end").asLong(sum.path("endTime").asLong());
            phases.add(new Phase(benchmark, s.path("phase").asText(), s.path("metric").asText(), responses, ok,
                    other, sum.path("invalid").asLong(), sum.path("connectionErrors").asLong(),
                    sum.path("requestTimeouts").asLong(), sum.path("internalErrors").asLong(),
                    (end - start) / 1000.0, pct.path("50.0").asLong(), pct.path("90.0").asLong(),
                    pct.path("99.0").asLong(), pct.path("99.9").asLong(), sum.path("maxResponseTime").asLong(),
                    s.hasNonNull("hdrHistogram") ? s.get("hdrHistogram").asText() : null,
                    perAgent.getOrDefault(s.path("phase").asText() + "\u0000" + s.path("metric").asText(), Map.of())));
        }
        return new Export(benchmark, info.path("id").asText(""), info.path("cancelled").asBoolean(false),
                List.copyOf(errors), jitter, cpu, List.copyOf(phases));
    }

    /** The point a benchmark named by {@code bench --driver=hyperfoil} measured; null for another name. */
    public static Point point(String benchmark) {
        String[] p = benchmark.split("\\.");
        if ((p.length != 6 && p.length != 7) || !p[0].equals("pssr") || !p[5].matches("c\\d+")
                || p.length == 7 && !p[6].matches("r\\d+")) {
            return null;
        }
        return new Point(p[1], p[2], p[3], p[4], Integer.parseInt(p[5].substring(1)),
                p.length == 7 ? Double.parseDouble(p[6].substring(1)) : 0);
    }
}
