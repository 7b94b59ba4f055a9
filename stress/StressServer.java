package stress;

import harness.ServerJmx;
import harness.ServerProcess;
import site.Combination;
import site.ServeConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A combination's server JVM for one scenario, with its log (stderr) in the results folder and a sampler that keeps
 * the peaks of its resident memory, threads and virtual threads (every 100 ms, from /proc and JMX).
 */
final class StressServer implements AutoCloseable {

    private final ServerProcess process;
    private final Path log;
    private final AtomicLong peakRssKb = new AtomicLong(-1);
    private final AtomicLong peakThreads = new AtomicLong(-1);
    private final AtomicLong peakVirtual = new AtomicLong(-1);
    private final Thread sampler;
    private volatile boolean stopped;
    /** The last JMX call that failed once the attach had worked, or null. */
    private volatile String jmxFailure;

    private StressServer(ServerProcess process, Path log) {
        this.process = process;
        this.log = log;
        this.sampler = Thread.ofPlatform().daemon(true).name("stress-sampler").start(() -> {
            while (!stopped) {
                sample();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /**
     * The per-item delay of a scenario whose pages must be in flight when a client aborts them or the server is told
     * to stop: a page then lasts a few hundred milliseconds, and still ends well within serve's grace period.
     */
    static final Duration IN_FLIGHT_DELAY = Duration.ofMillis(20);

    /**
     * A scenario's server before its own changes ({@code withDelay}, {@code withGrace}, ...): {@code c} with serve's
     * defaults on a free loopback port.
     */
    static ServeConfig config(Combination c) {
        return ServeConfig.of(c, ServeConfig.DEFAULT_DELAY);
    }

    /** {@code config}'s server for {@code scenario}: the scenario's changes to {@link #config}'s. */
    static StressServer start(ServeConfig config, StressSettings s, String scenario)
            throws IOException, InterruptedException {
        return start(config, s, scenario, List.of());
    }

    /** As {@link #start(ServeConfig, StressSettings, String)}, the server JVM with {@code jvmFlags} added. */
    static StressServer start(ServeConfig config, StressSettings s, String scenario, List<String> jvmFlags)
            throws IOException, InterruptedException {
        Path logs = Files.createDirectories(s.folder().resolve("logs"));
        Path log = logs.resolve(scenario + "-" + config.combination().toString().replace('/', '-') + ".log");
        return new StressServer(s.servers().start(config, jvmFlags, log), log);
    }

    private void sample() {
        long[] m = process.memoryAndThreads();
        peakRssKb.accumulateAndGet(m[0], Math::max);
        peakThreads.accumulateAndGet(m[1], Math::max);
        long v = virtualThreads();
        peakVirtual.accumulateAndGet(v, Math::max);
    }

    int port() {
        return process.base().getPort();
    }

    /** Over TLS, the key and certificate the server presents (made for it: its clients trust exactly it); else null. */
    http.Tls tls() {
        return process.tls();
    }

    /** The server's user + system CPU time so far, in nanoseconds (from /proc; -1 where there is none). */
    long cpuNanos() {
        return harness.CpuWatch.processNanos(process.pid());
    }

    /** Null while the server runs; once it ended without being asked to, how (killed, out of memory, its exit). */
    String ended() {
        return process.ended();
    }

    /** {RSS kB, threads} now. */
    long[] memoryAndThreads() {
        return process.memoryAndThreads();
    }

    /**
     * The server's platform threads by name (from /proc), leaving out those the JVM itself starts and stops as it
     * pleases, which say nothing about requests: JIT compilers, GC workers, and the RMI/JMX threads that serve this
     * client's own readings.
     */
    java.util.List<String> applicationThreads() {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (!jvmOwn(name)) {
                        names.add(name);
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return java.util.List.of();
        }
        java.util.Collections.sort(names);
        return names;
    }

    /**
     * The JVM's own threads, by their Linux name (cut at 15 characters). The virtual threads' carriers
     * ({@code ForkJoinPool-1-worker-N}: the scheduler is the first numbered pool, made with the first virtual thread)
     * and their timer ({@code VirtualThread-unparker}) are among them: the scheduler can add a carrier while a virtual
     * thread blocks (file I/O, for one) and retires it only after 30 s idle, so under load a burst of aborts can end
     * with one more (CI, 2026-11-28: 8 -> 9 on a server that leaks none; the thread was not named, a carrier is the
     * only one of its threads whose number varies). Virtual threads are counted on their own.
     */
    private static final java.util.regex.Pattern JVM_OWN = java.util.regex.Pattern.compile(
            "^(C1 Compiler|C2 Compiler|GC Thread|G1 |VM |RMI |JMX |Attach |Notification|Signal Dispatch|"
                    + "Service Thread|Monitor Deflat|Common-Cleaner|Finalizer|Reference Hand|ForkJoinPool-1-$|"
                    + "VirtualThread-)");

    /** Whether a thread of this Linux name is the JVM's own rather than the server's. */
    static boolean jvmOwn(String comm) {
        return JVM_OWN.matcher(comm).find();
    }

    /** The server's virtual threads, over JMX; -1 when they could not be read ({@link #overJmx} says why). */
    long virtualThreads() {
        ServerJmx jmx = process.jmx();
        try {
            return jmx == null ? -1 : jmx.virtualThreads();
        } catch (RuntimeException e) {
            jmxFailure = e.toString();
            return -1;
        }
    }

    /** The heap in use after the server's last GC, in bytes (-1 without JMX or before a first GC). */
    long heapAfterGcBytes() {
        ServerJmx jmx = process.jmx();
        try {
            return jmx == null ? -1 : afterGc(jmx.sample());
        } catch (RuntimeException e) {
            jmxFailure = e.toString();
            return -1;
        }
    }

    /**
     * The heap after the last GC of {@code s}, or -1 before a first GC: the heap pools' use after GC then reads 0 (a
     * G1 JVM read before its first GC), which the soak would take for a heap that held, or, against a later reading,
     * for one that grew from nothing.
     */
    static long afterGc(ServerJmx.Sample s) {
        return s.gcCount() == 0 ? -1 : s.heapAfterGcBytes();
    }

    /**
     * A count read over JMX as a figure of stress.csv: {@code value}, or, when it is -1, a {@link Scenario.Unread}
     * saying why (the attach failed, a call failed, or the server JVM could not count it), so that no rule passes on
     * it.
     */
    Object overJmx(long value) {
        return value >= 0 ? (Object) value : new Scenario.Unread(jmxWhy("the server JVM answered -1: it could not"
                + " count them"));
    }

    /** Why a figure read over JMX is missing: the attach's failure, else a call's, else {@code otherwise}. */
    String jmxWhy(String otherwise) {
        String problem = process.jmxProblem();
        return problem != null ? problem : jmxFailure != null ? "reading it over JMX failed: " + jmxFailure
                : otherwise;
    }

    /** The server's open file descriptors (sockets included), from /proc; -1 when they cannot be read. */
    long openFiles() {
        try (var fds = Files.list(Path.of("/proc/" + process.pid() + "/fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {in-flight pages, data-source subscriptions}, or {-1, -1} without JMX ({@link #overJmx} says why). */
    int[] renders() {
        ServerJmx jmx = process.jmx();
        try {
            return jmx == null ? new int[] {-1, -1} : new int[] {jmx.inFlightPages(), jmx.dataSourceSubscriptions()};
        } catch (RuntimeException e) {
            jmxFailure = e.toString();
            return new int[] {-1, -1};
        }
    }

    double peakRssMb() {
        return peakRssKb.get() < 0 ? -1 : peakRssKb.get() / 1024.0;
    }

    long peakThreads() {
        return peakThreads.get();
    }

    long peakVirtualThreads() {
        return peakVirtual.get();
    }

    void resetPeaks() {
        peakRssKb.set(-1);
        peakThreads.set(-1);
        peakVirtual.set(-1);
    }

    /** Lines of the server's log at WARNING or SEVERE. */
    long warnings() throws IOException {
        return warningLines().size();
    }

    /** The server's log lines at WARNING or SEVERE. */
    List<String> warningLines() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains(" WARNING ") || l.contains(" SEVERE "))
                .toList();
    }

    /** Lines of the server's log that are stack frames ("\tat ...") or uncaught-exception reports. */
    long stackTraceLines() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("\tat ") || l.startsWith("Exception in"))
                .count();
    }

    /** SIGTERM; returns at once. */
    void terminate() {
        process.terminate();
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        return process.awaitExit(timeout);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        sampler.interrupt();
        process.close();
    }
}
