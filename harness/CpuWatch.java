package harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a measured window was disturbed: how much CPU the rest of the machine used while it ran, and how much
 * the hypervisor stole. The machine's CPU time comes from {@code /proc/stat}, the measured processes' (the server
 * JVM and this one, the load generator) from {@code /proc/PID/stat}; what is left is foreign: a neighbour's build,
 * a test run, a browser.
 *
 * <p>Busy time is user + nice + system + irq + softirq. The softirq work a process causes (loopback networking,
 * most of it) is charged to that process's own system time when it runs in the process's context, but
 * {@code /proc/stat} books it as softirq: measured at 128 connections, user + nice + system alone came to 0.5 cores
 * less than the server's and the load generator's own CPU, which would have hidden half a core of a neighbour.
 * With irq and softirq counted, a quiet window reads within a few hundredths of a core of 0. Linux counts in
 * USER_HZ ticks, 100 per second ({@link ServerProcess#cpuNanos} reads the server's through {@link #processNanos}).
 */
public final class CpuWatch {

    private static final double TICKS_PER_SECOND = 100;

    /** A reading: the machine's busy, steal and total ticks, the processes' ticks, and when. */
    public record Mark(long busy, long steal, long total, long processes, long nanos, boolean known) {
    }

    /** What the rest of the machine did between two marks: CPU in cores, steal in %; NaN where unknown. */
    public record Conditions(double foreignCores, double stealPct) {
        public static final Conditions UNKNOWN = new Conditions(Double.NaN, Double.NaN);
    }

    private CpuWatch() {
    }

    /** The machine's counters and the sum of these processes' CPU ticks (a PID that is gone makes it unknown). */
    public static Mark mark(long... pids) {
        long now = System.nanoTime();
        try {
            String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");   // cpu user nice system idle iowait irq softirq steal ...
            long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3])   // user nice system
                    + Long.parseLong(f[6]) + Long.parseLong(f[7]);   // irq softirq
            long total = 0;
            for (int i = 1; i <= Math.min(8, f.length - 1); i++) {   // guest time is already inside user
                total += Long.parseLong(f[i]);
            }
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long processes = 0;
            for (long pid : pids) {
                processes += processTicks(pid);
            }
            return new Mark(busy, steal, total, processes, now, true);
        } catch (IOException | RuntimeException e) {   // not Linux, or a process has gone
            return new Mark(0, 0, 0, 0, now, false);
        }
    }

    /**
     * The machine's counters and the CPU of this JVM and everything it started, directly or not (servers, a driver
     * and its browser with all its processes), each with the CPU of the children it has reaped: a process that ends
     * between two marks is still counted, in its parent's. A process that ends before it is read is left out.
     */
    public static Mark markTree() {
        long now = System.nanoTime();
        try {
            Mark machine = mark();
            long processes = treeTicks(ProcessHandle.current().pid());
            for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
                processes += treeTicks(p.pid());
            }
            return new Mark(machine.busy(), machine.steal(), machine.total(), processes, now, machine.known());
        } catch (RuntimeException e) {
            return new Mark(0, 0, 0, 0, now, false);
        }
    }

    /** utime + stime + cutime + cstime of a process in ticks; 0 when it is gone. */
    private static long treeTicks(long pid) {
        try {
            long[] f = ticks(pid);
            return f[0] + f[1] + f[2] + f[3];
        } catch (IOException e) {
            return 0;
        }
    }

    /** utime + stime of a process, in ticks (threads included, children not). */
    static long processTicks(long pid) throws IOException {
        long[] f = ticks(pid);
        return f[0] + f[1];
    }

    /** {utime, stime, cutime, cstime} of a process from /proc/PID/stat, in ticks. */
    private static long[] ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");   // the name may hold spaces
        try {
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                    Long.parseLong(f[14])};
        } catch (RuntimeException e) {
            throw new IOException("unreadable /proc/" + pid + "/stat", e);
        }
    }

    /** A process's user + system CPU in nanoseconds, -1 where /proc has none (not Linux, or it is gone). */
    public static long processNanos(long pid) {
        try {
            return processTicks(pid) * (long) (1e9 / TICKS_PER_SECOND);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * From {@code a} to {@code b}: the foreign CPU in cores (never below 0: the counters are read a moment apart)
     * and the steal in % of all CPU time.
     */
    public static Conditions between(Mark a, Mark b) {
        double seconds = (b.nanos() - a.nanos()) / 1e9;
        if (!a.known() || !b.known() || seconds <= 0 || b.total() <= a.total()) {
            return Conditions.UNKNOWN;
        }
        double foreign = Math.max(0, (b.busy() - a.busy()) - (b.processes() - a.processes()))
                / TICKS_PER_SECOND / seconds;
        double steal = 100.0 * (b.steal() - a.steal()) / (b.total() - a.total());
        return new Conditions(foreign, steal);
    }
}
