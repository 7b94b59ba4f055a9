package bench;

import stats.Repetitions;
import tables.Row;
import tables.Summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A sweep's {@code runs.csv} while bench measures into it: the windows an earlier run left there, which repetitions
 * they settle (a {@code --resume} measures the rest, {@link Repetitions#settled}), and each new window recorded.
 *
 * <p>A repetition measured again because its window was not valid or was disturbed ({@link Repetitions#unsettled})
 * does not keep its earlier windows in runs.csv: each is moved, unchanged, to {@code runs-replaced.csv} (the same
 * columns) when the repetition's first new window is recorded, so that runs.csv, and summary.csv, compare and the
 * report that read it, hold one measurement of each repetition (runs-replaced.csv is a file of its own rather
 * than a column, so that runs.csv keeps summary.csv's columns). Until that first new window the earlier ones stay where they were: a sweep stopped before it
 * leaves the folder as it found that repetition, to be measured again by the next {@code --resume}. They are
 * copied first and then removed from runs.csv, each step a whole file ({@link Summary#write}), so that a crash
 * between the two can copy them twice, never lose them.
 */
final class RunsFile {

    private final Path file;
    private final Path replacedFile;
    /** runs.csv's rows, in the order measured: what the summary is made of. */
    private final List<Row> runs = new ArrayList<>();
    /** runs-replaced.csv's rows: counted only, so that a window measured again never takes an earlier one's name. */
    private final List<Row> replaced = new ArrayList<>();
    /** How many windows this run moved to runs-replaced.csv. */
    private int moved;
    /** Per repetition ({@link #slot}) not settled by the windows read: those windows, and why it is not settled. */
    private final Map<String, Unsettled> unsettled = new LinkedHashMap<>();

    private record Unsettled(List<Row> windows, String why) {
    }

    /** A window to measure: which point ({@link Row#pointKey}) and repetition. */
    record Planned(String pointKey, int repetition) {
    }

    /** runs.csv and runs-replaced.csv in {@code folder}, empty until {@link #load}. */
    RunsFile(Path folder) {
        this.file = folder.resolve(Repetitions.FILE);
        this.replacedFile = folder.resolve(Repetitions.REPLACED_FILE);
    }

    /** Reads the folder's runs.csv and runs-replaced.csv (missing: none). */
    void load() throws IOException {
        runs.addAll(Repetitions.read(file));
        replaced.addAll(Repetitions.read(replacedFile));
        Map<String, Set<Integer>> settled = Repetitions.settled(runs);
        for (Row r : runs) {
            int rep = Repetitions.repetition(r);
            if (!settled.get(r.pointKey()).contains(rep)) {
                unsettled.computeIfAbsent(slot(r.pointKey(), rep), s -> new Unsettled(new ArrayList<>(), why(r)))
                        .windows().add(r);
            }
        }
    }

    /** Why the repetition of {@code r}'s point is not settled: its standing window's reason. */
    private String why(Row r) {
        int rep = Repetitions.repetition(r);
        List<Row> attempts = runs.stream().filter(x -> x.pointKey().equals(r.pointKey())
                && Repetitions.repetition(x) == rep).toList();
        return Repetitions.unsettled(Repetitions.jvms(Repetitions.used(attempts)).get(0));
    }

    private static String slot(String pointKey, int repetition) {
        return pointKey + "#" + repetition;
    }

    /** The windows of runs.csv, the ones an earlier run left there included. */
    List<Row> rows() {
        return Collections.unmodifiableList(runs);
    }

    /** Per point key, the repetitions that are measured for good: the rest are measured (again). */
    Map<String, Set<Integer>> settled() {
        return Repetitions.settled(runs);
    }

    /**
     * Why a repetition is measured again ("not valid", "disturbed"), or null when runs.csv has no window of it
     * from before this run (it is missing) or its windows settle it.
     */
    String measuredAgain(String pointKey, int repetition) {
        Unsettled u = unsettled.get(slot(pointKey, repetition));
        return u == null ? null : u.why();
    }

    /**
     * A repetition measured again at once because its server died ({@code why}): its point's windows in runs.csv so
     * far move to runs-replaced.csv when the new JVM's first window of it is recorded, as a --resume's do.
     */
    void measureAgain(String pointKey, int repetition, String why) {
        List<Row> windows = runs.stream().filter(r -> r.pointKey().equals(pointKey)
                && Repetitions.repetition(r) == repetition).toList();
        if (!windows.isEmpty()) {
            unsettled.put(slot(pointKey, repetition), new Unsettled(new ArrayList<>(windows), why));
        }
    }

    /** How many windows of a repetition runs.csv holds now. */
    int windows(String pointKey, int repetition) {
        return (int) runs.stream().filter(r -> r.pointKey().equals(pointKey)
                && Repetitions.repetition(r) == repetition).count();
    }

    /**
     * How many windows have measured a repetition in this folder, replaced ones included: the next one is the
     * {@code n + 1}-th and its files ({@code hgrm/}, {@code wrong/}, ...) are named so, never over an earlier one's.
     */
    int windowsEver(String pointKey, int repetition) {
        return windows(pointKey, repetition) + (int) replaced.stream().filter(r -> r.pointKey().equals(pointKey)
                && Repetitions.repetition(r) == repetition).count();
    }

    /**
     * Records a new window ({@code run}, its repetition set): appended to runs.csv, after the earlier windows of its
     * repetition, if it is one measured again, have moved to runs-replaced.csv.
     */
    void record(Row run) throws IOException {
        Unsettled earlier = unsettled.remove(slot(run.pointKey(), Repetitions.repetition(run)));
        if (earlier == null) {
            runs.add(run);
            Summary.append(file, run);
            return;
        }
        for (Row r : earlier.windows()) {
            Summary.append(replacedFile, r);
            replaced.add(r);
            moved++;
        }
        // By identity: a row equal to another (two failed windows of one point) is still a window of its own.
        runs.removeIf(r -> earlier.windows().stream().anyMatch(e -> e == r));
        runs.add(run);
        Summary.write(file, runs);
    }

    /** How many earlier windows this run has moved to runs-replaced.csv: its provenance record's. */
    int moved() {
        return moved;
    }

    /**
     * What a resumed sweep keeps and measures, for the console: the windows kept, the windows to measure and how
     * many of those measure again a repetition whose recorded window was not valid or was disturbed.
     */
    String resuming(List<Planned> todo) {
        int kept = runs.size();
        int invalid = 0;
        int disturbed = 0;
        for (Planned p : todo) {
            String why = measuredAgain(p.pointKey(), p.repetition());
            if (why != null) {
                kept -= windows(p.pointKey(), p.repetition());
                if (why.equals(Repetitions.DISTURBED)) {
                    disturbed++;
                } else {
                    invalid++;
                }
            }
        }
        return String.format(Locale.ROOT, "%d measured windows kept, %d to measure, %s", kept, todo.size(),
                invalid + disturbed == 0 ? "none of them again" : String.format(Locale.ROOT, "%d of them again"
                        + " (%d not valid, %d disturbed; their earlier windows move to %s as each is measured)",
                        invalid + disturbed, invalid, disturbed, Repetitions.REPLACED_FILE));
    }

    /**
     * The rows of an earlier {@code summary.csv} that runs.csv does not make (wrk's, an import's), kept as they are
     * when the summary is rewritten: bench's drivers (pssrbench, hyperfoil) keep their repetitions in runs.csv, whose
     * summary is rewritten from them. Rows of {@code tool} without their repetitions are refused: {@code out} was
     * measured before repetitions.
     */
    List<Row> others(Path csv, String tool, Path out) throws IOException {
        Set<String> repeated = new java.util.HashSet<>();
        runs.forEach(r -> repeated.add(r.tool()));
        List<Row> others = new ArrayList<>();
        if (Files.exists(csv)) {
            for (Row row : Summary.read(csv)) {
                if (repeated.contains(row.tool())) {
                    continue;
                }
                if (!row.tool().equals(tool)) {
                    others.add(row);   // another tool's rows in the same folder stay as they are
                } else {   // this driver's rows without their repetitions
                    throw new base.UsageException(out + " was measured before repetitions (it has no "
                            + Repetitions.FILE + "); measure again into another --out.");
                }
            }
        }
        return others;
    }

    /**
     * {@code dir/stem + ext}, or, when that file exists (a server log of a repetition measured again, or of one a
     * stopped sweep began), {@code dir/stem-2 + ext} and so on: an earlier window's log is not overwritten.
     */
    static Path unused(Path dir, String stem, String ext) {
        Path file = dir.resolve(stem + ext);
        for (int n = 2; Files.exists(file); n++) {
            file = dir.resolve(stem + "-" + n + ext);
        }
        return file;
    }
}
