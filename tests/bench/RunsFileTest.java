package bench;

import cli.Registry;
import model.Page;
import site.Combination;
import stats.Repetitions;
import tables.Row;
import tables.RowBuilder;
import tables.Summary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        return RowBuilder.of(PointRows.TOOL, C.server().id(), C.engine().id(), C.mode().id(), P.page().id(),
                        P.connections(), P.rate())
                .measured(5, Math.round(reqPerS * 5), 0, "", reqPerS).conditions(foreignCores, 0).build()
                .withRepetition(repetition);
    }

    /** A window of P with errors, undisturbed: not valid. */
    static Row invalid(int repetition) {
        return RowBuilder.of(PointRows.TOOL, C.server().id(), C.engine().id(), C.mode().id(), P.page().id(),
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
     * A repetition whose server died is measured again at once, not by a --resume: the dead window, recorded (its
     * row saying so), moves to runs-replaced.csv when the fresh JVM's window is recorded, and the new one's files are
     * numbered on from it.
     */
    @Test
    void aRepetitionWhoseServerDiedKeepsItsDeadWindowApartOnceMeasuredAgain(@TempDir Path dir) throws IOException {
        RunsFile runs = loaded(dir);
        Row kept = window(1, 1000, 0);
        runs.record(kept);
        Row dead = PointRows.failed(P, "the server died during this window (killed by signal 9 (SIGKILL))")
                .withRepetition(2);
        runs.record(dead);
        runs.measureAgain(KEY, 3, "the server died");   // no window of it yet: nothing to move
        runs.measureAgain(KEY, 2, "the server died");
        assertEquals(1, runs.windowsEver(KEY, 2));
        Row again = window(2, 1100, 0);
        runs.record(again);
        assertEquals(List.of(kept, again), runs.rows());
        assertEquals(1, runs.moved());
        assertEquals(2, runs.windowsEver(KEY, 2), "the fresh JVM's next window is the third");
        List<Row> replaced = Repetitions.read(dir.resolve(Repetitions.REPLACED_FILE));
        assertEquals(1, replaced.size());
        assertTrue(replaced.get(0).note().contains("the server died during this window"), replaced.get(0).note());
        assertEquals(2, Repetitions.read(dir.resolve(Repetitions.FILE)).size());
    }
}
