package cli;

import cli.CliTest.Run;

import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code last-row}: how scripts read a column of the last row by its name, valid rows only. */
class LastRowCommandTest {

    private static tables.RowBuilder probe(double targetRate) {
        return RowBuilder.of("wrk", "nima", "jstachio", "virtual", "stocks", 16, targetRate);
    }

    @Test
    void printsTheNamedColumnOfAValidLastRow(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, probe(0).measured(20, 14000, 0, "", 700.5).build());
        Summary.append(csv, probe(0).measured(20, 14524, 0, "", 722.6125).build());
        assertEquals(new Run(0, "722.613\n", ""), run("last-row", "--column=req_per_s", csv.toString()));
        assertEquals(new Run(0, "closed\n", ""), run("last-row", "--column=model", csv.toString()));
    }

    @Test
    void anInvalidLastRowIsRefusedInOneSentenceEvenAfterAValidOne(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, probe(0).measured(20, 14000, 0, "", 700.5).build());
        Summary.append(csv, probe(0).measured(20, 4888, 1515, "connect 0, read 0, write 0, timeout 1515, non-2xx 0",
                244.4).build());
        Run r = run("last-row", "--column=req_per_s", "--allow-missed-rate", csv.toString());
        assertEquals(new Run(1, "", "pssrbench: the last row of " + csv + " (wrk nima jstachio virtual stocks closed"
                + " c16) is not valid: errors: connect 0, read 0, write 0, timeout 1515, non-2xx 0.\n"), r);
    }

    /** The sweep's probe without Debian's wrk: wrk2 at a rate no server reaches, invalid only for missing it. */
    @Test
    void aRowThatOnlyMissedItsRateIsTakenWhenAllowed(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Summary.append(csv, probe(1_000_000).measured(40, 28000, 0, "", 700).build());
        assertEquals(new Run(0, "700.000\n", ""), run("last-row", "--column=req_per_s", "--allow-missed-rate",
                csv.toString()));
        Run refused = run("last-row", "--column=req_per_s", csv.toString());
        assertEquals(1, refused.code());
        assertEquals("pssrbench: the last row of " + csv + " (wrk nima jstachio virtual stocks open c16 rate 1000000)"
                + " is not valid: achieved 700.0 req/s, more than 5% from the target 1000000.\n", refused.err());
    }

    @Test
    void anUnknownColumnAnEmptyCellAndAMissingFileAreRefused(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        Run missing = run("last-row", "--column=req_per_s", csv.toString());
        assertEquals(new Run(2, "", "pssrbench: no such file: " + csv + ".\n"), missing);

        Summary.append(csv, probe(0).measured(20, 14000, 0, "", 700.5).build());
        Run unknown = run("last-row", "--column=rps", csv.toString());
        assertEquals(2, unknown.code());
        assertEquals("pssrbench: a summary.csv has no column 'rps'; its columns: " + String.join(", ",
                Summary.COLUMNS) + ".\n", unknown.err());

        Run empty = run("last-row", "--column=ttfb_p50_ms", csv.toString());
        assertEquals(new Run(1, "", "pssrbench: the last row of " + csv + " (wrk nima jstachio virtual stocks closed"
                + " c16) has no ttfb_p50_ms: it was not measured.\n"), empty);

        Files.writeString(csv, Summary.header() + "\n");
        assertEquals(new Run(1, "", "pssrbench: " + csv + " holds no row yet.\n"),
                run("last-row", "--column=req_per_s", csv.toString()));
    }
}
