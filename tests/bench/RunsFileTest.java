package bench;

import cli.Registry;
import core.Combination;
import core.Page;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import records.Repetitions;
import records.Row;
import records.Summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * runs.csv across a --resume: a repetition measured again stands in it by its new window alone, its earlier windows
 * kept unchanged in runs-replaced.csv, whatever version wrote the folder.
 */
class RunsFileTest {

    private static final Combination C = Registry.combinations().get(0);
    private static final Point P = new Point(C, Page.STOCKS, 128, 0);
    private static final String KEY = PointRows.key(P);

    /** A measured window of P: {@code reqPerS}, with {@code foreignCores} of foreign CPU (above 0.1: disturbed). */
    static Row window(int repetition, double reqPerS, double foreignCores) {
        return Row.builder(PointRows.TOOL, C.server().id(), C.engine().id(), C.mode().id(), P.page().id(),
                        P.connections(), P.rate())
                .measured(5, Math.round(reqPerS * 5), 0, "", reqPerS).conditions(foreignCores, 0).build()
                .withRepetition(repetition);
    }

    /** A window of P with errors, undisturbed: not valid. */
    static Row invalid(int repetition) {
        return Row.builder(PointRows.TOOL, C.server().id(), C.engine().id(), C.mode().id(), P.page().id(),
                        P.connections(), P.rate())
                .measured(5, 4000, 3, "non-2xx 0, wrong body 0, i/o 3, timeout 0", 800).conditions(0, 0).build()
                .withRepetition(repetition);
    }

    private static RunsFile loaded(Path dir) throws IOException {
        RunsFile runs = new RunsFile(dir);
        runs.load();
        return runs;
    }

    /**
     * The invalid repetition measured again by a valid window that was disturbed (its attempts all were): without
     * the earlier window moved out, the last undisturbed window, the invalid one, would still stand for it.
     */
    @Test
    void aRepetitionMeasuredAgainCountsItsNewWindowOnceAndKeepsTheEarlierApart(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve(Repetitions.FILE);
        Row first = window(1, 1000, 0);
        Row bad = invalid(2);
        Summary.append(csv, first);
        Summary.append(csv, bad);
        String before = Files.readString(csv);

        RunsFile runs = loaded(dir);
        assertEquals(Set.of(1), runs.settled().get(KEY));
        assertEquals(Repetitions.NOT_VALID, runs.measuredAgain(KEY, 2));
        assertNull(runs.measuredAgain(KEY, 1), "a valid window is kept");
        assertNull(runs.measuredAgain(KEY, 3), "a missing repetition is measured, not measured again");
        assertEquals(1, runs.windowsEver(KEY, 2));
        assertEquals(before, Files.readString(csv), "loading changes nothing");
        assertFalse(Files.exists(dir.resolve(Repetitions.REPLACED_FILE)), "nothing moves before a new window");

        Row again = window(2, 1100, 0.5);
        runs.record(again);
        assertEquals(List.of(first, again), Summary.read(csv), "runs.csv: one window per repetition");
        assertEquals(List.of(bad), Summary.read(dir.resolve(Repetitions.REPLACED_FILE)), "the earlier one, unchanged");
        assertEquals(runs.rows(), Summary.read(csv));
        Row point = Repetitions.summarize(Summary.read(csv)).get(0);
        assertTrue(point.valid(), point.note());
        assertEquals(2, point.spread().n(), "the new window counted once, the replaced one not at all");
        assertEquals(1050.0, point.reqPerS(), "the median of 1000 and 1100");
        assertEquals(2, runs.windowsEver(KEY, 2), "the next window of repetition 2 is its third");

        // A second resume: repetition 2 stayed disturbed, so it is measured again; repetition 3 is only appended.
        RunsFile later = loaded(dir);
        assertEquals(Repetitions.DISTURBED, later.measuredAgain(KEY, 2));
        Row quiet = window(2, 1200, 0);
        Row third = window(3, 900, 0);
        later.record(third);
        later.record(quiet);
        assertEquals(List.of(first, third, quiet), Summary.read(csv));
        assertEquals(List.of(bad, again), Summary.read(dir.resolve(Repetitions.REPLACED_FILE)));
        assertEquals(3, Repetitions.summarize(Summary.read(csv)).get(0).spread().n());
        assertEquals(Set.of(1, 2, 3), loaded(dir).settled().get(KEY));
    }

    /** A repetition measured again in several windows (the first ones disturbed) moves its earlier windows once. */
    @Test
    void theEarlierWindowsMoveOnceWhateverTheNewAttempts(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve(Repetitions.FILE);
        Row failed = PointRows.failed(P, "failed verification: exit code 1 (see x.verify.log)").withRepetition(1);
        Summary.append(csv, failed);
        Summary.append(csv, failed);   // two equal rows are two windows
        RunsFile runs = loaded(dir);
        assertEquals(Repetitions.NOT_VALID, runs.measuredAgain(KEY, 1), "a failed verification is measured again");
        assertEquals(2, runs.windows(KEY, 1));
        Row disturbed = window(1, 700, 0.9);
        Row quiet = window(1, 1000, 0);
        runs.record(disturbed);
        runs.record(quiet);
        assertEquals(List.of(disturbed, quiet), Summary.read(csv));
        assertEquals(List.of(failed, failed), Summary.read(dir.resolve(Repetitions.REPLACED_FILE)));
        assertEquals(1000.0, Repetitions.summarize(runs.rows()).get(0).reqPerS(), "the undisturbed attempt stands");
        assertEquals(4, runs.windowsEver(KEY, 1));
    }

    /**
     * A runs.csv written before protocols (no protocol or streams column) is resumed: its invalid window measured
     * again and moved, runs.csv rewritten in this version's columns, every earlier row read as it was.
     */
    @Test
    void anOlderFolderWithoutTheNewerColumnsStillResumes(@TempDir Path dir) throws IOException {
        List<String> old = Summary.COLUMNS.stream().filter(c -> !c.equals("protocol") && !c.equals("streams"))
                .toList();
        Row first = window(1, 1000, 0);
        Row bad = invalid(2);
        List<String> lines = new ArrayList<>(List.of(String.join(",", old)));
        for (Row r : List.of(first, bad)) {
            lines.add(String.join(",", old.stream().map(c -> quoted(Summary.text(r, c))).toList()));
        }
        Path csv = Files.write(dir.resolve(Repetitions.FILE), lines);
        assertFalse(Files.readAllLines(csv).get(0).contains("protocol"), "the older header");

        RunsFile runs = loaded(dir);
        assertEquals(List.of(first, bad), runs.rows(), "read as h1, one stream");
        assertEquals(Repetitions.NOT_VALID, runs.measuredAgain(KEY, 2));
        Sweep sweep = new Sweep(BenchConfig.defaults().with(new BenchConfig.Windows(2, 1L, "0s",
                java.time.Duration.ofSeconds(60), java.time.Duration.ofSeconds(5)))
                .with(new BenchConfig.Folder(dir, true)), List.of(C));
        var tasks = sweep.plan(runs.settled());
        assertEquals(List.of(2), tasks.stream().map(Sweep.Task::repetition).toList());
        assertEquals(List.of(P), tasks.get(0).points());
        assertEquals("1 measured windows kept, 1 to measure, 1 of them again (1 not valid, 0 disturbed; their"
                        + " earlier windows move to runs-replaced.csv as each is measured)",
                runs.resuming(List.of(new RunsFile.Planned(KEY, 2))));

        Row again = window(2, 1100, 0);
        runs.record(again);
        assertEquals(Summary.header(), Files.readAllLines(csv).get(0), "rewritten in this version's columns");
        assertEquals(List.of(first, again), Summary.read(csv));
        assertEquals(List.of(bad), Summary.read(dir.resolve(Repetitions.REPLACED_FILE)));
        assertEquals(2, Repetitions.summarize(Summary.read(csv)).get(0).spread().n());
    }

    private static String quoted(String cell) {
        return cell.contains(",") || cell.contains("\"") ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
    }
}
