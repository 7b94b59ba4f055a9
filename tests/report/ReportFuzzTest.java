package report;

import cli.Cli;
import stats.Repetitions;
import tables.BrowserCsv;
import tables.BrowserRow;
import tables.BrowserRun;
import tables.Metric;
import tables.Milestone;
import tables.Provenance;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code report} on damaged results folders (issue 24): real folders of bench (summary.csv with repetitions,
 * runs.csv, provenance.json), browser (browser.csv, browser-runs.csv) and stress (stress.csv as a real run wrote
 * it), each copied and damaged one way per case, drawn from a fixed seed: bytes flipped, cells added or removed,
 * quotes unbalanced, numbers made huge, negative or not finite, names made 10 KB to 1 MB long, lines dropped or
 * doubled, files truncated, provenance.json corrupted. Each case runs {@code report} in this JVM through the command
 * line and must end with exit 0 (a report) or 2 (one sentence on stderr, of bounded length), never a stack trace,
 * within {@link #HANG} (a guard against a hang, not a measure of speed). A failure names the seed and the case, so
 * that it repeats.
 */
class ReportFuzzTest {

    /**
     * The seed of every case; a failure names it and the case number. {@code -Dpssrbench.fuzz.seed=N} runs another
     * set of cases (and repeats a failure of it), {@code -Dpssrbench.fuzz.cases=N} more or fewer of them.
     */
    private static final long SEED = Long.getLong("pssrbench.fuzz.seed", 20_261_124L);
    /** Cases per folder kind (bench, browser, stress). */
    private static final int CASES = Integer.getInteger("pssrbench.fuzz.cases", 100);
    private static final Duration HANG = Duration.ofSeconds(10);
    /** The longest stderr of a refusal: the sentence names a path and cuts the value it quotes. */
    private static final int LONGEST_SENTENCE = 1_500;

    /** stress.csv as `pssrbench stress` wrote it on this project's machine (two scenarios, one disturbed). */
    private static final String STRESS_CSV = """
            scenario,server,engine,mode,pass,requests,aborted,baseline_after_s,threads_baseline,threads_after,\
            virtual_threads_baseline,virtual_threads_after,in_flight_after,subscriptions_after,normal_page_after,\
            warning_lines,foreign_cpu,steal_pct,disturbed,slow_readers,slow_read_kb,requests_alone,\
            requests_with_slow,errors,ttlb_p99_alone_ms,ttlb_p99_with_slow_ms,server_rss_peak_alone_mb,\
            server_rss_peak_with_slow_mb,rule,note
            aborts,nima,jstachio,virtual,true,1000,1000,0.24,13,13,3,3,0,0,true,0,0.0,0.9,false,,,,,,,,,,\
            "platform threads (not the JVM's JIT, GC and JMX ones), virtual threads, in-flight renders and \
            subscriptions back to baseline within 5 s; a normal page afterwards",
            slow-readers,nima,jstachio,virtual,true,,,,,,,,,,,0,0.0,4.0,true,100,590,3097,3399,0,35.62,31.46,\
            335.66,341.81,"the others' p99 within 2x (+5 ms) of a run without slow readers, no error, server peak \
            RSS within 100 MB of it, a normal page afterwards","disturbed: foreign CPU 0.00 cores, steal 4.0% on \
            average while it ran"
            """;

    private static final List<String> NUMBERS = List.of("1e308", "-1e308", "Infinity", "-Infinity", "NaN", "-NaN",
            "9223372036854775807", "-9223372036854775808", "99999999999999999999", "-5", "-0", "0", "1e12",
            "999999999999.999", "1e-300", "0x1p3", "4.9e-324", "1.7976931348623157E308", " 7 ", "1,5");

    @Test
    void reportOnDamagedFoldersEndsWithAReportOrOneSentenceQuicklyAndNeverATrace(@TempDir Path tmp)
            throws IOException {
        Map<String, Path> kinds = new TreeMap<>(Map.of("bench", bench(tmp.resolve("bench")),
                "browser", browser(tmp.resolve("browser")), "stress", stress(tmp.resolve("stress"))));
        for (Path original : kinds.values()) {   // undamaged, each renders
            assertTrue(run(original).code() == 0, "the undamaged folder " + original + " renders");
        }
        Random random = new Random(SEED);
        Map<Integer, Integer> codes = new TreeMap<>();
        long longest = 0;
        String longestCase = "";
        int tried = 0;
        for (int i = 0; i < CASES; i++) {
            for (var kind : kinds.entrySet()) {
                int n = tried++;
                Path dir = tmp.resolve("case" + n);
                copy(kind.getValue(), dir);
                String what = kind.getKey() + ": " + damage(dir, random);
                String name = "seed " + SEED + ", case " + n + " (" + what + ")";
                long started = System.nanoTime();
                Result r = assertTimeoutPreemptively(HANG, () -> run(dir), name + " hangs");
                long took = (System.nanoTime() - started) / 1_000_000;
                if (took > longest) {
                    longest = took;
                    longestCase = name;
                }
                codes.merge(r.code(), 1, Integer::sum);
                check(name, r);
                deleteTree(dir);   // a 1 MB name times a few hundred cases would fill the temporary folder
            }
        }
        System.out.printf("ReportFuzzTest: %d damaged folders, exit codes %s, longest run %d ms: %s%n", tried, codes,
                longest, longestCase);
        assertTrue(codes.containsKey(0) && codes.containsKey(2), "both outcomes seen: " + codes);
    }

    private static void check(String name, Result r) {
        if (r.code() != 0 && r.code() != 2) {
            fail(name + ": exit " + r.code() + ", stderr: " + cut(r.err()));
        }
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat ") || r.err().contains("Error:"),
                name + ": a trace on stderr: " + cut(r.err()));
        if (r.code() == 2) {
            assertTrue(r.err().lines().count() == 1, name + ": one line on stderr, not " + cut(r.err()));
            assertTrue(r.err().length() <= LONGEST_SENTENCE, name + ": a sentence of " + r.err().length()
                    + " characters: " + cut(r.err()));
        }
    }

    private static String cut(String s) {
        return s.length() > 2_000 ? s.substring(0, 2_000) + "..." : s;
    }

    private record Result(int code, String err) {
    }

    private static Result run(Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), "report", dir.toString());
        return new Result(code, err.toString());
    }

    // ---- the folders ----

    /** bench: two engines at 1, 2, 4 connections on one server and page, 3 repetitions, one failing point. */
    private static Path bench(Path dir) throws IOException {
        new BenchFolder().combinations("nima/raw/virtual", "nima/jstachio/virtual").pages("stocks").repetitions(3)
                .write(dir);
        List<Row> runs = new ArrayList<>(Repetitions.read(dir.resolve(Repetitions.FILE)));
        for (int c : List.of(1, 4)) {   // more connections, so that the charts have lines
            for (Row r : List.copyOf(runs)) {
                if (r.connections() == 16) {
                    runs.add(r.with(Metric.CONNECTIONS, c).with(Metric.REQ_PER_S, r.reqPerS() * c / 16)
                            .with(Metric.SOURCE_MS, 19.0).with(Metric.RSS_PEAK_MB, 80.0)
                            .with(Metric.RSS_MEAN_MB, 70.0).with(Metric.HEAP_MB, 30.0).with(Metric.THREADS_PEAK, 20L)
                            .with(Metric.VTHREADS_PEAK, 100L).with(Metric.GC_COUNT, 3L).with(Metric.GC_MS, 12L)
                            .with(Metric.LISTEN_DROPS, 0L).with(Metric.CEILING_FRACTION, 1.0)
                            .with(Metric.WARMUP_S, 1.0).with(Metric.PROTOCOL, Row.H1).with(Metric.STREAMS, 1));
                }
            }
        }
        Summary.write(dir.resolve(Repetitions.FILE), runs);
        List<Row> summary = new ArrayList<>(Repetitions.summarize(runs));
        summary.add(RowBuilder.of("wrk2", "nima", "jstachio", "virtual", "stocks", 16, 200)
                .measured(40, 7996, 0, "", 199.9).ttlbMs(22.9, 24, 26.8, 28, 30).build());
        summary.add(RowBuilder.of(Row.PSSRBENCH, "nima", "pebble", "virtual", "stocks", 1, 0)
                .failed("errors: timeout 3, <b>\"quoted\"</b>, comma").build());
        Summary.write(dir.resolve("summary.csv"), summary);
        Files.delete(dir.resolve(Provenance.FILE));
        Provenance.add(dir, Provenance.record("bench", "pssrbench (built in)", Map.of("--connections", "1,4,16"),
                Map.of("repeat", 3, "delay", "1ms")));
        Provenance.finish(dir);
        return dir;
    }

    /** browser: a progressive and a buffered row, and a failed one. */
    private static Path browser(Path dir) throws IOException {
        List<BrowserRun> loads = new ArrayList<>();
        for (String mode : List.of("buffered", "virtual")) {
            for (int run = 1; run <= 3; run++) {
                Map<Milestone, Double> ms = new EnumMap<>(Milestone.class);
                for (Milestone m : Milestone.values()) {
                    ms.put(m, (mode.equals("buffered") ? 4000 : 100) + 10.0 * m.ordinal() + run);
                }
                loads.add(new BrowserRun("nima", "jstachio", mode, "stocks", run, ms, 20, 200, "", 0.01));
            }
        }
        BrowserRow buffered = BrowserRow.of("nima", "jstachio", "buffered", "stocks", 20, 200,
                loads.subList(0, 3), null, null);
        BrowserRow progressive = BrowserRow.of("nima", "jstachio", "virtual", "stocks", 20, 200,
                loads.subList(3, 6), buffered.medians(), null);
        BrowserRun failedLoad = BrowserRun.failed("nima", "pebble", "virtual", "stocks", 1, "status 500, \"x\"");
        BrowserRow failed = BrowserRow.of("nima", "pebble", "virtual", "stocks", 20, 200, List.of(failedLoad),
                buffered.medians(), null);
        List<BrowserRun> all = new ArrayList<>(loads);
        all.add(failedLoad);
        BrowserCsv.write(dir, List.of(progressive, buffered, failed), all);
        Provenance.add(dir, Provenance.record("browser", "chromium", Map.of("--runs", "3"), Map.of()));
        return dir;
    }

    /** stress: stress.csv as a real run wrote it, and its provenance.json. */
    private static Path stress(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(StressReport.FILE), STRESS_CSV);
        Provenance.add(dir, Provenance.record("stress", "pssrbench stress (built in)", Map.of("--scenario",
                "aborts,slow-readers"), Map.of("connections", 64)));
        Provenance.finish(dir);
        return dir;
    }

    // ---- the damage ----

    /** Damages one file of {@code dir} one way; returns what it did. */
    private static String damage(Path dir, Random random) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.toString().endsWith(".csv") || f.toString().endsWith(".json")).sorted().toList();
        }
        Path file = files.get(random.nextInt(files.size()));
        if (file.getFileName().toString().equals(Provenance.FILE) && random.nextInt(3) > 0) {
            return file.getFileName() + ": " + damageJson(file, random);
        }
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int line = lines.size() <= 1 ? 0 : 1 + random.nextInt(lines.size() - 2 < 1 ? 1 : lines.size() - 2);
        String what;
        switch (random.nextInt(12)) {
            case 0 -> {
                int flips = 1 + random.nextInt(5);
                for (int k = 0; k < flips && bytes.length > 0; k++) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
                Files.write(file, bytes);
                return file.getFileName() + ": " + flips + " bytes flipped";
            }
            case 1 -> {
                lines.set(line, lines.get(line) + ",extra" + ",x".repeat(random.nextInt(3)));
                what = "cells added on line " + (line + 1);
            }
            case 2 -> {
                String l = lines.get(line);
                int comma = l.lastIndexOf(',');
                lines.set(line, comma < 0 ? "" : l.substring(0, comma));
                what = "a cell removed on line " + (line + 1);
            }
            case 3 -> {
                String l = lines.get(line);
                int at = l.isEmpty() ? 0 : random.nextInt(l.length());
                lines.set(line, l.substring(0, at) + "\"" + l.substring(at));
                what = "a quote unbalanced on line " + (line + 1);
            }
            case 4, 5 -> {
                String number = NUMBERS.get(random.nextInt(NUMBERS.size()));
                String replaced = replaceCell(lines, line, random, "-?[0-9]+(\\.[0-9]+)?", number);
                what = replaced == null ? "no number on line " + (line + 1)
                        : "the number " + replaced + " made " + number + " on line " + (line + 1);
            }
            case 6, 7 -> {
                int length = List.of(10_000, 100_000, 1_000_000).get(random.nextInt(3));
                String name = "n<é>\"".repeat(length / 5);
                String quoted = "\"" + name.replace("\"", "\"\"") + "\"";
                String replaced = replaceCell(lines, line, random, "[A-Za-z][A-Za-z0-9 ._-]*", quoted);
                what = replaced == null ? "no name on line " + (line + 1)
                        : "the name " + replaced + " made " + length + " characters long on line " + (line + 1);
            }
            case 8 -> {
                int cut = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
                Files.write(file, java.util.Arrays.copyOf(bytes, cut));
                return file.getFileName() + ": truncated to " + cut + " bytes";
            }
            case 9 -> {
                if (random.nextBoolean()) {
                    lines.remove(line);
                    what = "line " + (line + 1) + " removed";
                } else {
                    lines.add(line, lines.get(line));
                    what = "line " + (line + 1) + " doubled";
                }
            }
            case 10 -> {
                byte[] latin = (lines.get(line) + "caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);
                lines.set(line, new String(latin, StandardCharsets.ISO_8859_1));
                List<byte[]> parts = new ArrayList<>();
                for (int k = 0; k < lines.size(); k++) {
                    parts.add((k == line ? lines.get(k).getBytes(StandardCharsets.ISO_8859_1)
                            : lines.get(k).getBytes(StandardCharsets.UTF_8)));
                }
                var outBytes = new java.io.ByteArrayOutputStream();
                for (int k = 0; k < parts.size(); k++) {
                    outBytes.writeBytes(parts.get(k));
                    if (k < parts.size() - 1) {
                        outBytes.write('\n');
                    }
                }
                Files.write(file, outBytes.toByteArray());
                return file.getFileName() + ": a byte that is not UTF-8 on line " + (line + 1);
            }
            default -> {
                Files.write(file, new byte[0]);
                return file.getFileName() + ": emptied";
            }
        }
        Files.writeString(file, String.join("\n", lines), StandardCharsets.UTF_8);
        return file.getFileName() + ": " + what;
    }

    /** Replaces one cell of the line that matches {@code cell} whole with {@code with}; the old cell, or null. */
    private static String replaceCell(List<String> lines, int line, Random random, String cell, String with) {
        Matcher m = Pattern.compile("(?<=^|,)(" + cell + ")(?=,|$)").matcher(lines.get(line));
        List<int[]> found = new ArrayList<>();
        while (m.find()) {
            found.add(new int[] {m.start(), m.end()});
        }
        if (found.isEmpty()) {
            return null;
        }
        int[] at = found.get(random.nextInt(found.size()));
        String l = lines.get(line);
        lines.set(line, l.substring(0, at[0]) + with + l.substring(at[1]));
        return "'" + l.substring(at[0], at[1]) + "'";
    }

    private static String damageJson(Path file, Random random) throws IOException {
        String json = Files.readString(file);
        switch (random.nextInt(7)) {
            case 0 -> {
                int cut = random.nextInt(Math.max(1, json.length()));
                Files.writeString(file, json.substring(0, cut));
                return "truncated to " + cut + " characters";
            }
            case 1 -> {
                Files.writeString(file, "[".repeat(5_000) + "]".repeat(5_000));
                return "nested 5000 deep";
            }
            case 2 -> {
                Files.writeString(file, json.replaceFirst("\"command\" : \"[^\"]*\"",
                        "\"command\" : \"" + "x".repeat(1_000_000) + "\""));
                return "a command of 1 MB";
            }
            case 3 -> {
                Files.writeString(file, json.replaceFirst(":", ": : "));
                return "a colon doubled";
            }
            case 4 -> {
                Files.writeString(file, random.nextBoolean() ? "[1, 2, 3]" : "\"just a string\"");
                return "not an object";
            }
            case 5 -> {
                Files.writeString(file, json.replaceFirst("\\d+", "1e999999"));
                return "a number of a million digits' exponent";
            }
            default -> {
                Files.writeString(file, json.replace("\"later_runs\"", "\"later_runs\" : 5, \"x\""));
                return "later_runs not a list";
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
