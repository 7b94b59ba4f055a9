package harness;

import site.ServeConfig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measured combination in its own server JVM, started from the same jar or sources as this one on an
 * ephemeral loopback port; ready once it answers HTTP; stopped by its PID. Its CPU time, resident memory and
 * thread count are read from /proc while it runs, the rest of its resources over JMX ({@link ServerJmx}).
 */
public final class ServerProcess implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("serving (https?://\\S+/) ");

    /**
     * Every PssrBench child JVM's options: Netty's native transport needs native access; the export lets
     * ServerStats count virtual threads through the JDK's internal thread containers (no public API does). A
     * server's JVM adds the server's own ({@link site.Server#jvmFlags()}). A JVM out of memory exits (status 3,
     * saying why on its standard output) rather than limping on: left to the default, one with too small a heap
     * (bench --server-jvm=-Xmx16m at 128 connections) lost its JMX, its SIGTERM handler and its watch on the parent
     * to OutOfMemoryErrors and held bench past its 150 s bound, where an exit is a death bench says and measures
     * again. Nothing else: heap and GC are the JVM's defaults for this machine, as a user would start the server.
     */
    static final List<String> JVM_FLAGS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED", "-XX:+ExitOnOutOfMemoryError");

    /** The options of a server JVM for {@code server}. */
    public static List<String> jvmFlags(site.Server server) {
        List<String> all = new ArrayList<>(JVM_FLAGS);
        all.addAll(server.jvmFlags());
        return all;
    }

    private final Process process;
    private final URI base;
    /** Over TLS, the key and certificate the server presents, which its clients trust alone; null in clear text. */
    private final http.Tls tls;
    /** Its standard error and output: what {@link #ended()} quotes when the JVM ran out of memory. */
    private final Path log;
    private ServerJmx jmx;
    private String jmxProblem;
    /**
     * How long each fixed cost of this JVM took, in nanoseconds, by name: "ready" (from the
     * process's start until it answered), "jmx" (the attach), "stop", and what its users note ({@link #note}).
     */
    private final java.util.Map<String, Long> phases = new java.util.concurrent.ConcurrentSkipListMap<>();

    private ServerProcess(Process process, URI base, http.Tls tls, Path log) {
        this.process = process;
        this.base = base;
        this.tls = tls;
        this.log = log;
    }

    /**
     * {@code config} served by {@code serve} in a JVM of its own (its flags: {@link ServeConfig#args()}; a port of 0
     * picks a free one), and attached over JMX for its in-process figures.
     */
    public static ServerProcess start(ServeConfig config, List<String> cpuPrefix, Path log)
            throws IOException, InterruptedException {
        return start(config, cpuPrefix, List.of(), log);
    }

    /** As {@link #start(ServeConfig, List, Path)}, with {@code jvmFlags} after the server's own JVM options. */
    public static ServerProcess start(ServeConfig config, List<String> cpuPrefix, List<String> jvmFlags, Path log)
            throws IOException, InterruptedException {
        return attached(launch(config, cpuPrefix, jvmFlags, log));
    }

    /**
     * Any command whose first line on standard output is {@code serving http://HOST:PORT/ ...}, as serve's is: ready
     * once its index page answers, attached over JMX as {@link #start} attaches. For tests that measure a server which
     * misbehaves on purpose (tests/stress/FaultServer) with the code that measures the real ones.
     */
    public static ServerProcess start(List<String> command, String name, Path log)
            throws IOException, InterruptedException {
        return attached(launch(command, name, log, null));
    }

    private static ServerProcess attached(ServerProcess server) {
        long attach = System.nanoTime();
        try {
            server.jmx = ServerJmx.attach(server.process.pid());
            server.note("jmx", System.nanoTime() - attach);
        } catch (IOException | RuntimeException e) {   // measurable all the same, with fewer columns
            server.jmxProblem = "no JMX from the server (" + e + "): heap, GC, virtual threads and source floor"
                    + " not measured";
        }
        return server;
    }

    /**
     * A combination served in a JVM of its own, as {@code serve} runs it, without JMX (for measurements that read
     * nothing from the server's JVM): ready once its index page answers; stop it with {@link #close()}. Its
     * standard error and output go to {@code log}.
     */
    public static ServerProcess serve(ServeConfig config, Path log) throws IOException, InterruptedException {
        return serve(config, List.of(), log);
    }

    /** As {@link #serve(ServeConfig, Path)}, with {@code jvmFlags} after the server's own JVM options. */
    public static ServerProcess serve(ServeConfig config, List<String> jvmFlags, Path log)
            throws IOException, InterruptedException {
        return launch(config, List.of(), jvmFlags, log);
    }

    private static ServerProcess launch(ServeConfig config, List<String> cpuPrefix, List<String> jvmFlags, Path log)
            throws IOException, InterruptedException {
        // Over TLS this JVM makes the server's self-signed certificate and hands it over as a PEM pair, so that its
        // clients (the load generator, the readiness and byte checks) trust exactly that certificate, as verify
        // trusts the one of the server it starts; the pair is deleted once the server has read it.
        http.Tls tls = null;
        Path pem = null;
        if (config.protocol().tls() && config.tlsCert() != null) {
            tls = http.Tls.read(config.tlsCert(), config.tlsKey());
        } else if (config.protocol().tls()) {
            tls = http.Tls.selfSigned(config.host());
            pem = writePem(tls);
            config = config.withTlsFiles(pem.resolve("cert.pem"), pem.resolve("key.pem"));
        }
        try {
            return launch(config, cpuPrefix, jvmFlags, log, tls);
        } finally {
            if (pem != null) {
                model.TempFolders.delete(pem);
            }
        }
    }

    /** The certificate and its key in a new folder only this user may read. */
    private static Path writePem(http.Tls tls) throws IOException {
        var owner = java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
        Path folder;
        try {
            folder = Files.createTempDirectory("pssrbench-tls",
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(owner));
        } catch (UnsupportedOperationException e) {   // not POSIX: the platform's default for temporary folders
            folder = Files.createTempDirectory("pssrbench-tls");
        }
        Files.writeString(folder.resolve("cert.pem"), tls.certificatePem());
        Files.writeString(folder.resolve("key.pem"), tls.keyPem());
        return folder;
    }

    private static ServerProcess launch(ServeConfig config, List<String> cpuPrefix, List<String> jvmFlags, Path log,
                                        http.Tls tls) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(config.args());
        List<String> flags = new ArrayList<>(config.server().jvmFlags());
        flags.addAll(jvmFlags);
        return launch(command(cpuPrefix, flags, args.toArray(String[]::new)), config.combination().toString(), log,
                tls);
    }

    private static ServerProcess launch(List<String> command, String name, Path log, http.Tls tls)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        Files.deleteIfExists(log);   // one log per JVM: appended to below by the JVM (stderr) and by this one (stdout)
        Process p = child(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Matcher url = StandardOut.untilServing(out, URL, log);
        if (url == null) {
            p.destroyForcibly();
            String why = Files.readString(log).strip();
            String refused = AotCache.refusal(command, why);   // the JVM's own lines say it less plainly
            throw new IOException(refused != null ? refused : "the server " + name + " did not start: " + why);
        }
        StandardOut.drain(out, log, name);
        ServerProcess server = new ServerProcess(p, URI.create(url.group(1)), tls, log);
        try {
            server.awaitReady();
            server.note("ready", System.nanoTime() - started);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * The process of a PssrBench child JVM: its standard input stays a pipe from this JVM (ProcessBuilder's
     * default), which the child watches ({@link Signals#endWithParent}), so that it ends when this JVM ends, SIGKILL
     * included; keep the {@link Process} reachable while the child runs (its pipe closes with it).
     */
    public static ProcessBuilder child(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(Signals.PARENT_PIPE, "1");
        return builder;
    }

    /** A PssrBench command in a new JVM: this JVM's java and classpath, {@link #JVM_FLAGS}, after {@code prefix}. */
    public static List<String> command(List<String> prefix, String... args) {
        return command(prefix, List.of(), args);
    }

    /** The same, with {@code jvmFlags} after {@link #JVM_FLAGS}. */
    public static List<String> command(List<String> prefix, List<String> jvmFlags, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(JVM_FLAGS);
        command.addAll(jvmFlags);
        command.add("PssrBench");
        command.addAll(List.of(args));
        return command;
    }

    /** Readiness by HTTP: the index page answers 200. */
    private void awaitReady() throws IOException, InterruptedException {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
        HttpClient client = (tls == null ? builder : builder.sslContext(tls.trustingContext())).build();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    if (client.send(HttpRequest.newBuilder(base).build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("the server at " + base + " does not answer", e);
                    }
                }
                Thread.sleep(50);
            }
        } finally {
            client.shutdownNow();
        }
    }

    /** Where it serves: {@code http://127.0.0.1:PORT/} ({@code https://} over TLS). */
    public URI base() {
        return base;
    }

    /** Over TLS, the key and certificate the server presents (its clients trust exactly it); null in clear text. */
    public http.Tls tls() {
        return tls;
    }

    /** The server JVM's ServerStats and flight recorder over JMX, or null (then {@link #jmxProblem()} says why). */
    public ServerJmx jmx() {
        return jmx;
    }

    public String jmxProblem() {
        return jmxProblem;
    }

    public long pid() {
        return process.pid();
    }

    /** User + system CPU time of the server so far, in nanoseconds (from /proc; -1 where there is none). */
    long cpuNanos() {
        return CpuWatch.processNanos(pid());
    }

    /** {VmRSS in kB, Threads} from /proc, or {-1, -1}. */
    public long[] memoryAndThreads() {
        return memoryAndThreads(pid());
    }

    /** {VmRSS in kB, Threads} of any process on this machine from /proc, or {-1, -1}. */
    public static long[] memoryAndThreads(long pid) {
        long rss = -1;
        long threads = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("\\D", ""));
                } else if (line.startsWith("Threads:")) {
                    threads = Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return new long[] {rss, threads};
    }

    /**
     * Null while the server runs; once it has ended without being asked to (killed, out of memory), how
     * ({@link ServerEnd#describe}): a measurement against it is no longer one.
     */
    public String ended() {
        return alive() ? null : ServerEnd.describe(process.exitValue(), log);
    }

    /** Whether its JVM still runs (cheap: what a load generator may ask between requests). */
    public boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM without waiting (the server drains, then exits). */
    public void terminate() {
        process.destroy();
    }

    /** Waits up to {@code timeout} for the server to exit: its exit code, or -1 if it is still running. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** Adds {@code nanos} to this JVM's {@code phase} ({@link #phases}): e.g. bench's timing of its data source. */
    public void note(String phase, long nanos) {
        phases.merge(phase, nanos, Long::sum);
    }

    /** The fixed costs of this JVM so far, in nanoseconds by phase ("stop" once it is closed). */
    public java.util.Map<String, Long> phases() {
        return java.util.Map.copyOf(phases);
    }

    /** SIGTERM, then wait; the server drains and exits 0. */
    @Override
    public void close() throws InterruptedException {
        long stopping = System.nanoTime();
        if (jmx != null) {
            try {
                jmx.close();
            } catch (IOException e) {
                // the server is stopping anyway
            }
        }
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        note("stop", System.nanoTime() - stopping);
    }
}
