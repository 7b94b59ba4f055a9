package bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code bench --estimate-only}: the sweep's plan and estimate, the first line a run prints, and nothing else: no
 * server started, no file written. With --resume it counts what the folder's runs.csv does not hold yet, as the run
 * would.
 */
public final class DryRun {

    private DryRun() {
    }

    /** Prints {@code sweep}'s plan line ({@link BenchConsole#plan}) to {@code out}. */
    public static void print(Sweep sweep, PrintWriter out) throws IOException {
        RunsFile runs = new RunsFile(sweep.out());
        if (sweep.config().folder().resume()) {
            runs.load();   // a missing runs.csv reads as none
        }
        List<Sweep.Task> todo = sweep.plan(runs.settled());
        new BenchConsole(sweep, out).plan(todo.stream().mapToInt(t -> t.points().size()).sum(),
                sweep.estimate(todo));
    }
}
