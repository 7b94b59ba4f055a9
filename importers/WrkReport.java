package importers;

import model.Page;
import site.Combination;
import tables.CsvFile;
import tables.Row;
import tables.RowBuilder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of wrk2 (Gil Tene's constant-rate fork, with {@code --latency}) or Debian's wrk 4.1 printed, read
 * from its text output. Both print the same prose summary; wrk2 adds HdrHistogram percentiles and the detailed
 * percentile spectrum (kept verbatim: it is the {@code .hgrm} format HdrHistogram's plotters read), and with
 * {@code -U} a second, uncorrected spectrum.
 *
 * <p>Runs made by PssrBench's scripts end with one {@code pssrbench-json} line printed by
 * {@code scripts/pssrbench.lua}; its numbers win over the prose. The prose parser remains for everything else
 * (tool, URL, threads, the spectra) and for outputs without that line: neither tool has a machine-readable
 * output of its own, its numbers are printed with units chosen per value ({@code 43.49ms}, {@code 1.64s},
 * {@code 2.23MB}), and wrk2 prints {@code -nan} for statistics of runs shorter than its calibration.
 */
public record WrkReport(String tool, String url, int threads, int connections, double durationS, long requests,
                        double bytesRead, double reqPerS, Map<String, Double> latencyPercentilesMs,
                        double latencyMaxMs, long connectErrors, long readErrors, long writeErrors, long timeouts,
                        long non2xx, String spectrum, String uncorrectedSpectrum) {

    public static final String WRK2 = "wrk2";
    public static final String WRK = "wrk";

    private static final Pattern RUNNING = Pattern.compile("Running (\\S+) test @ (\\S+)");
    private static final Pattern THREADS = Pattern.compile("(\\d+) threads and (\\d+) connections");
    private static final Pattern TOTALS = Pattern.compile("(\\d+) requests in (\\S+), (\\S+) read");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+(\\S+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern PERCENTILE = Pattern.compile("(?m)^\\s*(\\d+(?:\\.\\d+)?)%\\s+(\\S+)\\s*$");
    private static final Pattern STATS_LATENCY = Pattern.compile("(?m)^\\s*Latency\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)");
    private static final Pattern HDR_MAX = Pattern.compile("#\\[Max\\s+=\\s+(\\S+),");

    /**
     * Parses the whole text output of one run; lines starting with '#' before it (a command note) are ignored.
     * Output it cannot read is an {@link IllegalArgumentException} of one line, the value it quotes cut.
     */
    public static WrkReport parse(String output) {
        try {
            return parsed(output);
        } catch (NumberFormatException e) {   // a count past a long, a number of a million digits
            throw new IllegalArgumentException("not a wrk or wrk2 output: " + CsvFile.oneLine(String.valueOf(
                    e.getMessage()), 100));
        }
    }

    private static WrkReport parsed(String output) {
        Matcher running = find(RUNNING, output, "the 'Running … test @ URL' line");
        String tool = output.contains("Latency Distribution (HdrHistogram") || output.contains("Thread calibration")
                ? WRK2 : WRK;
        Matcher threads = THREADS.matcher(output);
        int t = 0;
        int c = 0;
        if (threads.find()) {
            t = Integer.parseInt(threads.group(1));
            c = Integer.parseInt(threads.group(2));
        }
        Matcher totals = TOTALS.matcher(output);
        long requests = 0;
        double durationS = seconds(running.group(1));
        double bytes = 0;
        if (totals.find()) {
            requests = Long.parseLong(totals.group(1));
            durationS = seconds(totals.group(2));
            bytes = bytes(totals.group(3));
        }
        double reqPerS = number(find(RATE, output, "the 'Requests/sec:' line").group(1));
        long[] socket = new long[4];
        Matcher errors = SOCKET_ERRORS.matcher(output);
        if (errors.find()) {
            for (int i = 0; i < 4; i++) {
                socket[i] = Long.parseLong(errors.group(i + 1));
            }
        }
        Matcher non2xx = NON_2XX.matcher(output);
        long bad = non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0;

        // The first latency distribution is wrk2's corrected one (or wrk's only one).
        String[] sections = output.split("Latency Distribution", -1);
        Map<String, Double> percentiles = new LinkedHashMap<>();
        if (sections.length > 1) {
            String first = sections[1].split("Detailed Percentile spectrum|requests in", 2)[0];
            Matcher p = PERCENTILE.matcher(first);
            while (p.find()) {
                double value = millis(p.group(2));
                if (!Double.isNaN(value)) {
                    percentiles.put(percentileKey(Double.parseDouble(p.group(1))), value);
                }
            }
        }
        Matcher hdrMax = HDR_MAX.matcher(output);
        double max;
        if (hdrMax.find()) {
            max = Double.parseDouble(hdrMax.group(1));   // the spectrum's values are in milliseconds
        } else {
            Matcher stats = STATS_LATENCY.matcher(output);
            max = stats.find() ? millis(stats.group(3)) : Double.NaN;
        }
        Matcher json = JSON_LINE.matcher(output);
        if (json.find()) {   // scripts/pssrbench.lua's numbers: data rather than prose, and exact
            JsonNode run = readJson(json.group(1));
            requests = run.path("requests").asLong();
            durationS = run.path("duration_us").asLong() / 1e6;
            bytes = run.path("bytes").asDouble();
            reqPerS = durationS > 0 ? requests / durationS : 0;
            JsonNode e = run.path("errors");
            socket = new long[] {e.path("connect").asLong(), e.path("read").asLong(), e.path("write").asLong(),
                e.path("timeout").asLong()};
            bad = e.path("status").asLong();
            percentiles.clear();
            JsonNode latency = run.path("latency_us");
            latency.fieldNames().forEachRemaining(name -> {
                if (name.matches("\\d+\\.\\d+")) {
                    percentiles.put(percentileKey(Double.parseDouble(name)), latency.path(name).asDouble() / 1000);
                }
            });
            max = latency.path("max").asDouble() / 1000;
        }
        String[] spectra = spectra(output);
        return new WrkReport(tool, running.group(2), t, c, durationS, requests, bytes, reqPerS, percentiles, max,
                socket[0], socket[1], socket[2], socket[3], bad, spectra[0], spectra[1]);
    }

    private static final Pattern JSON_LINE = Pattern.compile("(?m)^pssrbench-json (\\{.*})\\s*$");

    private static JsonNode readJson(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("unreadable pssrbench-json line: " + CsvFile.oneLine(String.valueOf(
                    e.getOriginalMessage()), 100));
        }
    }

    /** Socket errors (connect, read, write, timeout) and non-2xx/3xx responses. */
    public long errors() {
        return connectErrors + readErrors + writeErrors + timeouts + non2xx;
    }

    /** A latency percentile in milliseconds, or NaN when the output did not print that one. */
    public double percentileMs(double percentile) {
        return latencyPercentilesMs.getOrDefault(percentileKey(percentile), Double.NaN);
    }

    /** Why this run must not be used, or null: {@link Row#invalidReason}. */
    public String invalidReason(double targetRate) {
        return Row.invalidReason(requests, errors(), errorDetail(), reqPerS, targetRate);
    }

    private String errorDetail() {
        return String.format(Locale.ROOT, "connect %d, read %d, write %d, timeout %d, non-2xx %d", connectErrors,
                readErrors, writeErrors, timeouts, non2xx);
    }

    /**
     * The row of this run of {@code combination} on {@code page} ({@code targetRate} 0: a closed loop): wrk and
     * wrk2 measure the time to the last byte; time to first byte and the server's resources stay empty.
     */
    public Row row(Combination combination, Page page, double targetRate) {
        return RowBuilder.of(tool, combination.server().id(), combination.engine().id(), combination.mode().id(),
                        page.id(), connections, targetRate)
                .measured(durationS, requests, errors(), errorDetail(), reqPerS)
                .ttlbMs(percentileMs(50), percentileMs(90), percentileMs(99), percentileMs(99.9), latencyMaxMs)
                .set(tables.Metric.TTLB_P95_MS, percentileMs(95))
                .build();
    }

    private static String percentileKey(double p) {
        return String.format(Locale.ROOT, "%.3f", p);
    }

    /** The detailed percentile spectra, corrected then uncorrected, each as an .hgrm text ("" if absent). */
    private static String[] spectra(String output) {
        String[] found = {"", ""};
        int from = 0;
        for (int i = 0; i < 2; i++) {
            int start = output.indexOf("Value   Percentile", from);
            if (start < 0) {
                break;
            }
            start = output.lastIndexOf('\n', start) + 1;
            int buckets = output.indexOf("#[Buckets", start);
            if (buckets < 0) {
                break;
            }
            int end = output.indexOf('\n', buckets);
            end = end < 0 ? output.length() : end + 1;
            found[i] = output.substring(start, end);
            from = end;
        }
        return found;
    }

    private static Matcher find(Pattern pattern, String text, String what) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("not a wrk or wrk2 output: no " + what);
        }
        return m;
    }

    private static double number(String text) {
        return text.contains("nan") ? Double.NaN : Double.parseDouble(text);
    }

    private static final Pattern WITH_UNIT = Pattern.compile("(-?nan|[0-9.]+)([a-zA-Z]*)");

    private static final Map<String, Double> MILLIS_PER_UNIT = Map.of(
            "us", 1e-3, "ms", 1.0, "s", 1e3, "m", 60e3, "h", 3600e3);
    private static final Map<String, Double> BYTES_PER_UNIT = Map.of(   // wrk's sizes are binary multiples
            "B", 1.0, "KB", 1024.0, "MB", 1024.0 * 1024, "GB", 1024.0 * 1024 * 1024, "TB", 1024.0 * 1024 * 1024 * 1024);

    /** A wrk duration such as {@code 850.00us}, {@code 43.49ms}, {@code 1.64s}, {@code 1.00m}, in milliseconds. */
    static double millis(String text) {
        return scaled(text, MILLIS_PER_UNIT);
    }

    private static double seconds(String text) {
        return millis(text) / 1000;
    }

    /** A wrk size such as {@code 434.38B}, {@code 2.55KB}, {@code 7.20MB}, in bytes. */
    static double bytes(String text) {
        return scaled(text, BYTES_PER_UNIT);
    }

    private static double scaled(String text, Map<String, Double> units) {
        Matcher m = WITH_UNIT.matcher(text.trim());
        Double unit = m.matches() ? units.get(m.group(2)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("cannot read " + CsvFile.shown(text) + ": expected a number and one of "
                    + new java.util.TreeSet<>(units.keySet()));
        }
        return number(m.group(1)) * unit;
    }
}
