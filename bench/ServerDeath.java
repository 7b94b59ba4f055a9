package bench;

import tables.Row;

import java.nio.file.Path;
import java.util.List;

/**
 * A server JVM that ended on its own during a repetition (killed, out of memory): what it had completed, the point
 * it died at and how ({@link harness.ServerProcess#ended}). The points it completed keep their rows; the point it
 * died at and those after it are that repetition measured again in a fresh JVM, at most {@link #AGAIN} times, and
 * the window it died in stays in runs.csv until then (then in runs-replaced.csv, {@link RunsFile#measureAgain}),
 * its row invalid and saying so.
 *
 * @param completed how many of the repetition's points it measured before
 * @param point     the point under way (or next) when it died
 * @param inWindow  whether it died in that point's window (else before it: in the warm-up, or between points)
 * @param how       its exit status or signal, and its log's last lines after an OutOfMemoryError
 */
record ServerDeath(int completed, Point point, boolean inWindow, String how) {

    /**
     * How many times one repetition of a combination is measured again in a fresh JVM after its server died: once,
     * as a server that dies twice on the same points would die every time; then bench ends ({@link Bench#SERVER_DIED}).
     */
    static final int AGAIN = 1;

    /**
     * Whether {@code server} (null: not started here) has ended, before a window ({@code row} null) or after one: a
     * window with errors waits a moment for its exit, as the load generator may see a killed server's connections
     * close before the kernel has reaped it.
     */
    static boolean ended(harness.ServerProcess server, Row row) throws InterruptedException {
        if (server != null && row != null && !row.valid()) {
            server.awaitExit(java.time.Duration.ofMillis(500));
        }
        return server != null && !server.alive();
    }

    /** The row of the window it died in: not a measurement (its figures count a dead server's refusals). */
    Row row(String tool) {
        return PointRows.failed(tool, point, "the server died during this window (" + how + ")");
    }

    /** The rest of {@code task} for a fresh JVM: the point it died at and those after it. */
    Sweep.Task rest(Sweep.Task task) {
        List<Point> left = task.points().subList(completed, task.points().size());
        return new Sweep.Task(task.repetition(), task.combination(), task.protocol(), task.threads(), left);
    }

    /**
     * The console's sentence: which repetition, which point, how it ended, and what bench does next; {@code again}
     * is the number of this fresh JVM (1 to {@link #AGAIN}), 0 when the bound is reached and bench ends.
     */
    String sentence(Sweep.Task task, String label, int again, int kept, Path out) {
        String what = "the server of repetition " + task.repetition() + " of " + label + " died "
                + (inWindow ? "during the window of " : "before the window of ") + point.page().id() + " c"
                + point.connections() + " (" + how + ")";
        if (again > 0) {
            return what + "; " + (completed == 0 ? "" : "the " + completed + " point" + (completed == 1 ? "" : "s")
                    + " it measured before are kept, ") + "repetition " + task.repetition() + (completed == 0 ? ""
                    : " from " + point.page().id() + " c" + point.connections() + " on") + " is measured again in a"
                    + " fresh JVM (" + again + " of at most " + AGAIN + ").";
        }
        return what + ", after " + AGAIN + " fresh JVM" + (AGAIN == 1 ? "" : "s") + " for that repetition already;"
                + " bench ends here (exit " + Bench.SERVER_DIED + "); " + kept + " measured windows kept in " + out
                + "; measure the rest with the same flags and --resume --out=" + out + ".";
    }
}
