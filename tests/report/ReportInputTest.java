package report;

import cli.Cli;
import stats.Repetitions;
import tables.Provenance;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code report} and {@code compare} on input they cannot use (issue 24, reproductions 3 to 5): one sentence and
 * exit 2 naming the file, the line and the column, never a stack trace; values that cannot be measurements shown as
 * missing; names of any length cut before layout; a folder only stress wrote rendered.
 */
class ReportInputTest {

    private record Run(int code, String out, String err) {
        /** A refusal: exit 2, one line on stderr, no trace, bounded. */
        Run refused(String... contains) {
            assertEquals(2, code, err);
            assertEquals(1, err.lines().count(), err);
            assertFalse(err.contains("Exception") || err.contains("\tat "), err);
            assertTrue(err.length() < 1_000, "a sentence of " + err.length() + " characters");
            for (String c : contains) {
                assertTrue(err.contains(c), c + " in " + err);
            }
            return this;
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    /** summary.csv of the raw baseline and jstachio at 1, 2, 4 connections; its lines (header first). */
    private static List<String> summary(Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        for (String engine : List.of("raw", "jstachio")) {
            for (int c : List.of(1, 2, 4)) {
                Summary.append(csv, RowBuilder.of(Row.PSSRBENCH, "nima", engine, "virtual", "stocks", c, 0)
                        .measured(3, 1000, 0, "", 500.0 * c).ttfbMs(1.5, 2).ttlbMs(20, 21, 22, 23, 24)
                        .remark("fine").build());
            }
        }
        return new ArrayList<>(Files.readAllLines(csv));
    }

    private static void write(Path dir, List<String> lines) throws IOException {
        Files.writeString(dir.resolve("summary.csv"), String.join("\n", lines) + "\n");
    }

    @Test
    void numbersThatAreNotFiniteAreShownAsMissing(@TempDir Path dir) throws IOException {
        List<String> lines = summary(dir);
        lines.set(1, lines.get(1).replace(",500.000,", ",Infinity,"));   // was: "Must be finite." from JFreeChart
        lines.set(2, lines.get(2).replace(",500.000,", ",-Infinity,"));
        lines.set(3, lines.get(3).replace(",1000.000,", ",NaN,").replace(",1.500,", ",NaN,"));
        write(dir, lines);
        assertEquals(0, run("report", dir.toString()).code());
        Document doc = Jsoup.parse(dir.resolve("report.html").toFile());
        assertFalse(doc.text().contains("Infinity") || doc.text().contains("NaN"), "shown as missing");
        assertEquals(6, doc.select("table.points tbody tr").size(), "every row still listed");
        assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("Throughput")));
    }

    @Test
    void aByteThatIsNotUtf8InANoteIsReadAsAReplacementCharacter(@TempDir Path dir) throws IOException {
        List<String> lines = summary(dir);
        byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        String marked = new String(text, StandardCharsets.ISO_8859_1).replaceFirst(",fine\n", ",caf\u00e9\n");
        Files.write(dir.resolve("summary.csv"), marked.getBytes(StandardCharsets.ISO_8859_1));   // é as Latin-1
        assertEquals(0, run("report", dir.toString()).code());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("caf\uFFFD"));
    }

    @Test
    void extraCellsAQuoteLeftOpenAndABadValueAreOneSentenceNamingFileLineAndColumn(@TempDir Path dir)
            throws IOException {
        List<String> good = summary(dir);
        List<String> lines = new ArrayList<>(good);
        lines.set(2, lines.get(2) + ",x,y");
        write(dir, lines);
        run("report", dir.toString()).refused(dir.resolve("summary.csv") + ", line 3, character",
                "more than " + good.get(0).split(",").length + " cells");   // the header's count

        lines = new ArrayList<>(good);
        lines.set(4, lines.get(4).replace(",nima,", ",\"nima,"));
        write(dir, lines);
        run("report", dir.toString()).refused("summary.csv, line ", "closing quote", "row that begins on line 5");

        lines = new ArrayList<>(good);
        lines.set(2, lines.get(2).substring(0, lines.get(2).lastIndexOf(',')));
        write(dir, lines);
        int header = good.get(0).split(",").length;
        run("report", dir.toString()).refused("summary.csv, line 3: " + (header - 1) + " cells where the header has "
                + header);

        lines = new ArrayList<>(good);
        lines.set(1, lines.get(1).replace(",500.000,", ",5e300,"));
        write(dir, lines);
        int column = java.util.Arrays.asList(good.get(0).split(",")).indexOf("req_per_s") + 1;
        run("report", dir.toString()).refused("summary.csv, line 2, column " + column + " (req_per_s): '5e300' is not"
                + " a number of a size up to 10^12");

        lines = new ArrayList<>(good);   // a 10 MB non-numeric cell: once a 10 MB "sentence"
        lines.set(1, lines.get(1).replace(",500.000,", ",\"" + "x\n".repeat(5_000_000) + "\","));
        write(dir, lines);
        run("report", dir.toString()).refused("summary.csv, line ",
                "a cell longer than 1048576 characters, in the row that begins on line 2");

        lines = new ArrayList<>(good);
        lines.set(1, lines.get(1).replace(",500.000,", ",\"" + "x\n".repeat(250_000) + "\","));
        write(dir, lines);
        run("report", dir.toString()).refused("column " + column + " (req_per_s): 'x\\u000ax\\u000a",
                "(500000 characters) is not a number");
    }

    @Test
    void aProvenanceThatIsNotJsonIsOneSentence(@TempDir Path dir) throws IOException {
        summary(dir);
        Files.writeString(dir.resolve(Provenance.FILE), "{\"command\": \"bench\",\n \"repeat\": ");
        run("report", dir.toString()).refused(dir.resolve(Provenance.FILE) + ", line 2, column",
                "not JSON as PssrBench writes it");
    }

    @Test
    void namesOfAnyLengthAreCutBeforeLayout(@TempDir Path dir) throws IOException {
        List<String> good = summary(dir);
        for (int length : List.of(10_000, 100_000, 1_000_000)) {   // 18 s, over 90 s, and never, before
            String name = "s".repeat(length);
            List<String> lines = new ArrayList<>();
            good.forEach(l -> lines.add(l.replace(",nima,", "," + name + ",")));
            write(dir, lines);
            Run r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run("report", dir.toString()),
                    "a hang guard, not a measure of speed");
            assertEquals(0, r.code(), r.err());
            Document doc = Jsoup.parse(dir.resolve("report.html").toFile());
            String cut = "s".repeat(Charts.NAME - 1) + "\u2026";
            assertTrue(doc.select("svg").stream().anyMatch(svg -> svg.text().contains("Throughput, " + cut)));
            assertFalse(doc.html().contains("s".repeat(Charts.NAME)), "never the whole name");
        }
    }

    @Test
    void aFolderOnlyStressWroteRendersAndAnEmptyFolderNamesAllThreeFiles(@TempDir Path dir) throws IOException {
        run("report", dir.toString()).refused("has no summary.csv, browser.csv or stress.csv");
        Files.writeString(dir.resolve(StressReport.FILE), "scenario,server,engine,mode,pass,requests,rule,note\n"
                + "aborts,nima,jstachio,virtual,true,1000,\"back to baseline, within 5 s\",\n");
        Provenance.add(dir, Provenance.record("stress", "pssrbench stress (built in)", java.util.Map.of(),
                java.util.Map.of()));
        Run r = run("report", dir.toString());
        assertEquals(0, r.code(), r.err());
        Document doc = Jsoup.parse(dir.resolve("report.html").toFile());
        assertEquals("PASS", doc.select("table.stress td.pass").text());
        assertTrue(doc.text().contains("back to baseline, within 5 s"));

        Files.writeString(dir.resolve(StressReport.FILE), "scenario,server\naborts,nima,extra\n");
        run("report", dir.toString()).refused("stress.csv, line 2, character", "more than 2 cells");
    }

    @Test
    void compareReadsRunsCsvTheSameWay(@TempDir Path dir) throws IOException {
        Path a = new BenchFolder().write(dir.resolve("a"));
        Path b = new BenchFolder().slower(1.1).write(dir.resolve("b"));
        Path runs = b.resolve(Repetitions.FILE);
        List<String> lines = new ArrayList<>(Files.readAllLines(runs));
        lines.set(3, lines.get(3).replace(",nima,", ",\"nima,"));
        Files.writeString(runs, String.join("\n", lines) + "\n");
        run("compare", a.toString(), b.toString()).refused(runs.toString(), "closing quote",
                "row that begins on line 4");

        lines.set(3, Files.readAllLines(a.resolve(Repetitions.FILE)).get(3) + ",x");
        Files.writeString(runs, String.join("\n", lines) + "\n");
        run("compare", a.toString(), b.toString()).refused(runs + ", line 4",
                "more than " + lines.get(0).split(",").length + " cells");   // the header's count
    }
}
