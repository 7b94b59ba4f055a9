package harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Ends processes that are not PssrBench's (chromedriver and its Chromium) when this JVM ends, however it ends. They
 * cannot watch a pipe from us as our child JVMs do ({@link Signals#endWithParent}): chromedriver keeps running when
 * its standard input ends, and Chromium outlives a chromedriver that is killed (both tried). So a shell of its own
 * reads a pipe from this JVM, which nothing writes to and which the kernel closes when this JVM ends, SIGKILL
 * included; then it sends SIGTERM to the processes (SIGINT to one that ends what it started on it: Lighthouse's Node),
 * and SIGKILL 2 s later to what is left. Closed on the normal path, once those processes were stopped, it ends without
 * touching them. The shell's read is a builtin, so that killing the shell leaves nothing behind either.
 */
public final class Watchdog implements AutoCloseable {

    private final Process shell;

    private Watchdog(Process shell) {
        this.shell = shell;
    }

    /**
     * A watchdog for this JVM's children that run {@code program} (the one just started among them) and every
     * process they started by now (a driver's browser, whose own children end with it).
     */
    public static Watchdog ending(Path program) throws IOException {
        Path real = program.toRealPath();
        List<ProcessHandle> all = new ArrayList<>();
        ProcessHandle.current().children().filter(c -> c.info().command().map(x -> Path.of(x).equals(real))
                .orElse(false)).forEach(c -> {
                    all.add(c);
                    all.addAll(c.descendants().toList());
                });
        return ending(all);
    }

    /** A watchdog for {@code processes} (nothing to watch: one that does nothing). */
    public static Watchdog ending(List<ProcessHandle> processes) throws IOException {
        String pids = processes.stream().map(p -> String.valueOf(p.pid())).collect(Collectors.joining(" "));
        String script = pids.isEmpty() ? "while read -r _; do :; done"
                : "while read -r _; do :; done; kill -TERM " + pids + " 2>/dev/null; sleep 2; kill -KILL " + pids
                + " 2>/dev/null";
        return start(script);
    }

    /**
     * A watchdog for {@code child}, a program that ends what it started when it gets SIGINT (Lighthouse's Node:
     * chrome-launcher then kills the Chromium it launched, which it made the leader of a process group of its own,
     * and exits). When this JVM ends: SIGINT to the child; 2 s later SIGKILL to it and to the process groups of the
     * children it had when this JVM ended, read then from /proc because such a child starts its browser after the
     * watchdog is armed, and read before the SIGINT because a child that dies first leaves its own children to init.
     */
    public static Watchdog interrupting(ProcessHandle child) throws IOException {
        long pid = child.pid();
        return start("while read -r _; do :; done; kids=$(cat /proc/" + pid + "/task/*/children 2>/dev/null);"
                + " kill -INT " + pid + " 2>/dev/null; sleep 2; kill -KILL " + pid + " 2>/dev/null;"
                + " for k in $kids; do kill -s KILL -- -$k 2>/dev/null; kill -KILL $k 2>/dev/null; done");
    }

    private static Watchdog start(String script) throws IOException {
        return new Watchdog(new ProcessBuilder("sh", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }

    /** Disarmed: the shell is killed before it reads an end, so it kills nothing. */
    @Override
    public void close() {
        shell.destroyForcibly();
    }
}
