package tables;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SummaryTest {

    private static tables.RowBuilder closed(String tool, int connections) {
        return RowBuilder.of(tool, "nima", "jstachio", "virtual", "stocks", connections, 0);
    }

    @Test
    void rowsReadBackAsWritten(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, closed("pssrbench", 1).measured(3, 1000, 0, "", 12.5)
                .remark("errors: non-2xx 1, \"quoted\", i/o 0").build());
        Summary.append(csv, closed("wrk", 8).failed("no request completed").ttfbMs(Double.NaN, Double.NaN).build());

        List<Row> rows = Summary.read(csv);
        assertEquals(2, rows.size());
        assertEquals("12.500", Summary.text(rows.get(0), "req_per_s"));
        assertEquals("errors: non-2xx 1, \"quoted\", i/o 0", rows.get(0).note());
        assertEquals("", Summary.text(rows.get(1), "ttfb_p50_ms"));
        assertEquals(Summary.csv(rows.get(0)), Files.readAllLines(csv).get(1));
    }

    @Test
    void aFileWithOtherColumnsIsRefused(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("summary.csv"), "tool,server\nwrk,nima\n");
        assertThrows(IOException.class, () -> Summary.read(csv));
        assertThrows(IOException.class, () -> Summary.append(csv, closed("wrk", 8).failed("not measured").build()));
        assertEquals("tool,server\nwrk,nima\n", Files.readString(csv), "left as it was");
    }

    /**
     * The header, the columns' order and their names, as docs/bench.md lists them: scripts and results folders depend
     * on them. A new column goes here, and the header it replaces stays readable
     * ({@link #anEarlierFileIsReadAndUpgradedOnAppend}).
     */
    @Test
    void theHeaderIsAsDocumented() {
        assertEquals("tool,server,engine,mode,page,model,connections,rate,protocol,streams,threads,duration_s,requests,"
                + "errors,"
                + "valid,req_per_s,ttfb_p50_ms,ttfb_p99_ms,first_item_p50_ms,ttlb_p50_ms,ttlb_p90_ms,ttlb_p95_ms,ttlb_p99_ms,ttlb_p999_ms,"
                + "ttlb_max_ms,source_ms,chunks_mean,cpu_ms_per_req,client_cpu_ms_per_req,rss_peak_mb,rss_mean_mb,"
                + "heap_mb,threads_peak,vthreads_peak,gc_count,gc_ms,listen_drops,ceiling_fraction,scales_to,repetition,window,windows,"
                + "cv_jvm_pct,cv_window_pct,n,"
                + "ci_level_pct,ci_kind,req_per_s_lo,req_per_s_hi,ttfb_p50_ms_lo,ttfb_p50_ms_hi,ttfb_p99_ms_lo,"
                + "ttfb_p99_ms_hi,first_item_p50_ms_lo,first_item_p50_ms_hi,ttlb_p50_ms_lo,ttlb_p50_ms_hi,"
                + "ttlb_p95_ms_lo,ttlb_p95_ms_hi,ttlb_p99_ms_lo,ttlb_p99_ms_hi,cpu_ms_per_req_lo,cpu_ms_per_req_hi,warmup_s,foreign_cpu,steal_pct,"
                + "disturbed,note",
                Summary.header());
    }

    /** Every column set to a value of its own: typed, to text, to typed again, equal; and the text is as before. */
    @Test
    void everyColumnRoundTrips(@TempDir Path dir) throws IOException {
        Row row = Row.of(Map.ofEntries(Map.entry(Metric.TOOL, "pssrbench"), Map.entry(Metric.SERVER, "netty"),
                Map.entry(Metric.ENGINE, "pebble"), Map.entry(Metric.MODE, "reactive"),
                Map.entry(Metric.PAGE, "presentations"), Map.entry(Metric.MODEL, "open"),
                Map.entry(Metric.CONNECTIONS, 64), Map.entry(Metric.RATE, 800L), Map.entry(Metric.THREADS, 4),
                Map.entry(Metric.DURATION_S, 3.001),
                Map.entry(Metric.REQUESTS, 2400L), Map.entry(Metric.ERRORS, 0L), Map.entry(Metric.VALID, true),
                Map.entry(Metric.REQ_PER_S, 799.9), Map.entry(Metric.TTFB_P50_MS, 1.01),
                Map.entry(Metric.TTFB_P99_MS, 1.02), Map.entry(Metric.FIRST_ITEM_P50_MS, 1.03),
                Map.entry(Metric.TTLB_P50_MS, 20.1), Map.entry(Metric.TTLB_P90_MS, 20.2),
                Map.entry(Metric.TTLB_P99_MS, 20.3), Map.entry(Metric.TTLB_P999_MS, 20.4),
                Map.entry(Metric.TTLB_MAX_MS, 20.5), Map.entry(Metric.SOURCE_MS, 19.6),
                Map.entry(Metric.CHUNKS_MEAN, 22.0), Map.entry(Metric.CPU_MS_PER_REQ, 0.41),
                Map.entry(Metric.CLIENT_CPU_MS_PER_REQ, 0.42), Map.entry(Metric.RSS_PEAK_MB, 81.1),
                Map.entry(Metric.RSS_MEAN_MB, 80.2), Map.entry(Metric.HEAP_MB, 12.3),
                Map.entry(Metric.THREADS_PEAK, 40L), Map.entry(Metric.VTHREADS_PEAK, 65L),
                Map.entry(Metric.GC_COUNT, 3L), Map.entry(Metric.GC_MS, 17L), Map.entry(Metric.LISTEN_DROPS, 5L),
                Map.entry(Metric.CEILING_FRACTION, 0.987), Map.entry(Metric.SCALES_TO, 32),
                Map.entry(Metric.NOTE, "a remark, \"quoted\"")), null);
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, row);
        assertEquals(List.of(row), Summary.read(csv));
        assertEquals("pssrbench,netty,pebble,reactive,presentations,open,64,800,h1,1,4,3.001,2400,0,true,799.900,1.010,"
                + "1.020,1.030,20.100,20.200,,20.300,20.400,20.500,19.600,22.000,0.410,0.420,81.100,80.200,12.300,40,"
                + "65,3,17,5,0.987,32," + ",".repeat(28) + "\"a remark, \"\"quoted\"\"\"", Files.readAllLines(csv).get(1));
    }

    /**
     * protocol and streams: part of a point's identity (an h2c point is not a repetition of the h1 one), written and
     * read back.
     */
    @Test
    void protocolAndStreamsAreColumnsAndPartOfThePoint(@TempDir Path dir) throws IOException {
        Row h1 = closed("pssrbench", 8).measured(3, 900, 0, "", 300).build();
        Row h2c = closed("pssrbench", 8).transport("h2c", 16).measured(3, 900, 0, "", 300).build();
        assertEquals(List.of("h1", 1), List.of(h1.protocol(), h1.streams()));
        assertNotEquals(h1.pointKey(), h2c.pointKey());
        assertTrue(h2c.label().endsWith(" h2c x16 streams"), h2c.label());
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, h1);
        Summary.append(csv, h2c);
        assertEquals(List.of(h1, h2c), Summary.read(csv));
        int at = Summary.COLUMNS.indexOf("protocol");
        assertEquals(List.of("h2c", "16"), List.of(Files.readAllLines(csv).get(2).split(",", -1)).subList(at, at + 2));

    }

    /**
     * threads: the platform pool's size, part of a point's identity (the point on 4 threads is not a repetition of the
     * one on 200, nor of one without a pool), written and read back, empty where there is none.
     */
    @Test
    void threadsIsAColumnAndPartOfThePoint(@TempDir Path dir) throws IOException {
        Row none = closed("pssrbench", 8).measured(3, 900, 0, "", 300).build();
        Row four = closed("pssrbench", 8).set(Metric.THREADS, 4).measured(3, 900, 0, "", 300).build();
        Row more = closed("pssrbench", 8).set(Metric.THREADS, 200).measured(3, 900, 0, "", 300).build();
        assertNull(none.threads());
        assertEquals(3, java.util.Set.of(none.pointKey(), four.pointKey(), more.pointKey()).size());
        assertTrue(four.label().endsWith(" threads 4"), four.label());
        Path csv = dir.resolve("summary.csv");
        for (Row r : List.of(none, four, more)) {
            Summary.append(csv, r);
        }
        assertEquals(List.of(none, four, more), Summary.read(csv));
        int at = Summary.COLUMNS.indexOf("threads");
        List<String> lines = Files.readAllLines(csv);
        assertEquals(List.of("", "4", "200"), List.of(1, 2, 3).stream().map(i -> lines.get(i).split(",", -1)[at])
                .toList());
        Files.writeString(csv, lines.get(0) + "\n" + lines.get(2).replace(",8,,h1,1,4,", ",8,,h1,1,0,") + "\n");
        assertTrue(assertThrows(IOException.class, () -> Summary.read(csv)).getMessage().contains("threads"));
    }

    /** listen_drops: a count where bench knows it (0 included), empty where not (another tool, /proc unreadable). */
    @Test
    void listenDropsAreAColumnOfTheirOwn(@TempDir Path dir) throws IOException {
        Row dropped = closed("pssrbench", 4).measured(3, 900, 0, "", 300).listenDrops(12L)
                .remark("kernel listen drops: 12 (whole machine)").build();
        Row none = closed("pssrbench", 8).measured(3, 900, 0, "", 300).listenDrops(0L).build();
        Row unknown = closed("wrk", 8).measured(3, 900, 0, "", 300).build();
        Path csv = dir.resolve("summary.csv");
        for (Row r : List.of(dropped, none, unknown)) {
            Summary.append(csv, r);
        }
        List<Row> rows = Summary.read(csv);
        assertEquals(List.of(dropped, none, unknown), rows);
        assertEquals(List.of(12L, 0L), List.of(rows.get(0).listenDrops(), rows.get(1).listenDrops()));
        assertNull(rows.get(2).listenDrops());
        assertEquals(List.of("12", "0", ""), rows.stream().map(r -> Summary.text(r, "listen_drops")).toList());
        assertEquals(12.0, Summary.number(rows.get(0), "listen_drops"));
        assertEquals("kernel listen drops: 12 (whole machine)", rows.get(0).note(), "the note still warns");
        assertEquals(12L, rows.get(0).withCeilingFraction(0.5).listenDrops(), "kept with the ceiling");
        int at = Summary.COLUMNS.indexOf("listen_drops");
        assertEquals("12", Files.readAllLines(csv).get(1).split(",", -1)[at]);
    }

    /**
     * Lines as this version writes them (bench's, a not measured point's, a wrk closed loop's, a wrk2 run's)
     * read into rows that write the same lines.
     */
    @Test
    void writtenLinesReadBackIntoTheSameLines(@TempDir Path dir) throws IOException {
        List<String> lines = List.of(Summary.header(),
                "pssrbench,nima,raw,virtual,stocks,closed,4,,h1,1,,1.002,178,0,true,177.645,0.241,0.522,0.702,22.383,"
                        + "22.675,,23.470,23.470,23.472,22.713,22.000,1.938,0.615,95.324,94.127,9.412,31,4,0,0,0,1.000,"
                        + ",1,,,,,,,,,,,,,,,,,,,,,,,,7.000,0.012,0.000,false,",
                "pssrbench,nima,jstachio,virtual,stocks,closed,1,,h1,1,,,0,,false,,,,,,,,,,,,,,,,,,,,,,"
                        + ",".repeat(31) + "failed verification: exit code 1 (see nima-jstachio-virtual.verify.log)",
                "wrk,nima,jstachio,virtual,stocks,closed,16,,h1,1,,20.099,14524,0,true,722.613,,,,22.054,22.313,,23.970,"
                        + "27.091,30.043,,,,,,,,,,,,,," + ",".repeat(29),
                "wrk2,nima,jstachio,virtual,stocks,open,16,542,h1,1,,40.003,21670,3,false,541.710,,,,22.719,23.327,,"
                        + "26.847,51.295,59.456,,,,,,,,,,,,,," + ",".repeat(29)
                        + "\"errors: connect 0, read 0, write 0, timeout 3, non-2xx 0\"");
        Path csv = Files.write(dir.resolve("summary.csv"), lines);
        List<Row> rows = Summary.read(csv);
        assertEquals(lines.subList(1, lines.size()), rows.stream().map(Summary::csv).toList());
        assertNull(rows.get(0).rate());
        assertEquals(542L, rows.get(3).rate());
        assertEquals(722.613, rows.get(2).reqPerS());
        assertFalse(rows.get(3).valid());
        assertNull(rows.get(1).errors(), "a point not measured has no error count");
    }

    /**
     * A note with a carriage return alone (an error message from another system): quoted, so that the line does not
     * end there for the reader (the writer before Jackson's left it bare, and its own reader refused the file).
     */
    @Test
    void aNoteWithALoneCarriageReturnReadsBack(@TempDir Path dir) throws IOException {
        Row row = closed("wrk", 8).failed("connect: refused\rretried").build();
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, row);
        assertEquals(List.of(row), Summary.read(csv));
        assertTrue(Files.readString(csv).endsWith(",\"connect: refused\rretried\"\n"));
    }

    /** A row holds its decimals as the file keeps them, so what is born in a sweep equals what a resume reads. */
    @Test
    void aBuiltRowEqualsItselfReadBack(@TempDir Path dir) throws IOException {
        Row row = closed("pssrbench", 2).measured(1.0 / 3, 7, 0, "", 7 / (1.0 / 3)).ttlbMs(22.0004999, 2.0 / 3,
                Math.PI, Math.E, Double.NaN).cpuMsPerReq(0.1235, Double.NaN).build();
        assertEquals(0.333, row.decimal(Metric.DURATION_S));
        assertEquals(0.124, row.decimal(Metric.CPU_MS_PER_REQ), "as %.3f writes it");
        assertNull(row.decimal(Metric.TTLB_MAX_MS), "NaN is not measured");
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, row);
        assertEquals(List.of(row), Summary.read(csv));
        Row fraction = row.withCeilingFraction(2.0 / 3);
        assertEquals("0.667", Summary.text(fraction, "ceiling_fraction"));
        assertEquals(fraction.ceilingFraction(), Summary.number(fraction, "ceiling_fraction"));
        assertTrue(Double.isNaN(Summary.number(fraction, "valid")), "not a number column");
        assertTrue(Double.isNaN(Summary.number(fraction, "ttfb_p50_ms")), "not measured");
    }

    /** The builder judges every row by the one rule; the note of an invalid row is why. */
    @Test
    void theBuilderAppliesTheValidityRule() {
        Row ok = closed("wrk", 8).measured(3, 900, 0, "none", 300).remark("server at http://x (started elsewhere)")
                .build();
        assertTrue(ok.valid());
        assertEquals("closed", ok.model());
        assertNull(ok.rate());
        assertEquals("server at http://x (started elsewhere)", ok.note());

        Row errors = closed("wrk", 8).measured(3, 900, 2, "timeout 2", 300).remark("ignored").build();
        assertFalse(errors.valid());
        assertEquals("errors: timeout 2", errors.note());

        Row missed = RowBuilder.of("wrk2", "nima", "jstachio", "virtual", "stocks", 8, 200.9).measured(40, 6000, 0, "",
                150).build();
        assertEquals("open", missed.model());
        assertEquals(200L, missed.rate(), "the whole target rate");
        assertFalse(missed.valid());
        assertEquals("achieved 150.0 req/s, more than 5% from the target 201", missed.note());
        assertTrue(missed.validButForItsRate());
        assertFalse(errors.validButForItsRate());

        Row failed = closed("pssrbench", 1).failed("failed verification: no answer").build();
        assertFalse(failed.valid());
        assertEquals(0, failed.requests());
        assertFalse(failed.validButForItsRate());
        assertThrows(IllegalStateException.class, () -> closed("wrk", 1).build(), "neither measured nor failed");
    }

    @Test
    void aCellItsColumnCannotHoldIsRefusedNamingBoth(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, closed("wrk", 8).measured(3, 900, 0, "", 300).build());
        String line = Files.readAllLines(csv).get(1);
        Files.writeString(csv, Summary.header() + "\n" + line + "\n" + line.replace(",true,", ",yes,") + "\n");
        IOException e = assertThrows(IOException.class, () -> Summary.read(csv));
        assertEquals(csv + ", line 3, column 15 (valid): 'yes' is not true or false", e.getMessage());
        Files.writeString(csv, Summary.header() + "\n" + line.replace(",300.000,", ",fast,") + "\n");
        e = assertThrows(IOException.class, () -> Summary.read(csv));
        assertEquals(csv + ", line 2, column 16 (req_per_s): 'fast' is not a number", e.getMessage());
    }

    /** A summary row's spread and conditions, and a run's repetition, are read back as written. */
    @Test
    void repetitionsSpreadAndConditionsRoundTrip(@TempDir Path dir) throws IOException {
        Row run = closed("pssrbench", 16).measured(5, 3500, 0, "", 700.25).warmupS(7).conditions(0.031, 0.0)
                .build().withRepetition(3);
        Row disturbed = closed("pssrbench", 32).measured(5, 3500, 0, "", 700).conditions(0.97, 0.5).build()
                .withRepetition(1);
        Row point = stats.Repetitions.summarize(List.of(run, run.withRepetition(4))).get(0);
        Path csv = dir.resolve("runs.csv");
        Summary.append(csv, run);
        Summary.append(csv, disturbed);
        Summary.append(csv, point);
        List<Row> read = Summary.read(csv);
        assertEquals(List.of(run, disturbed, point), read);
        assertEquals(3, read.get(0).repetition());
        assertEquals(Boolean.FALSE, read.get(0).disturbed());
        assertEquals(Boolean.TRUE, read.get(1).disturbed(), "0.97 cores of foreign CPU");
        assertNull(read.get(2).repetition(), "a summary row stands for every repetition");
        assertEquals(2, read.get(2).spread().n());
        assertEquals("range", Summary.text(read.get(2), "ci_kind"));
        assertEquals("700.250", Summary.text(read.get(2), "req_per_s_lo"));
        Row unknown = closed("pssrbench", 8).measured(5, 10, 0, "", 2).conditions(Double.NaN, Double.NaN).build();
        assertNull(unknown.disturbed(), "not known where /proc cannot be read");
    }
}
