package bench;

import harness.AotCache;
import harness.ServerProcess;
import http.Protocol;
import load.LoadGenerator;
import model.Engine;
import model.Page;
import site.Combination;
import site.ServeConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The AOT caches of the server JVMs bench starts ({@link AotCache}): for each unit (a combination over a protocol),
 * the cache of its key, trained here the first time it is missing. A training run serves the unit as serve's
 * defaults do, on a free port (so that the cache depends on its key alone, not on the sweep's delay), under
 * bench's own load generator, {@link #PER_PAGE} on every page at {@link #CONNECTIONS} connections, then stops; its
 * JVM writes the cache at exit under a temporary name, moved into place once whole, so that two sweeps never map
 * half a file.
 */
final class AotTraining {

    /** Long enough for the JIT to profile and compile a page's rendering path (thousands of requests). */
    static final Duration PER_PAGE = Duration.ofSeconds(3);
    static final int CONNECTIONS = 16;
    /** How long the training JVM may take to assemble and write the cache after its load has ended. */
    static final Duration WRITE_TIMEOUT = Duration.ofMinutes(3);

    /** One unit's cache as this sweep used it: trained now ({@code trainSeconds} > 0) or found. */
    record Used(String unit, String key, Path file, long bytes, double trainSeconds) {
        Map<String, Object> record() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("unit", unit);
            m.put("key", key);
            m.put("file", file.toString());
            m.put("bytes", bytes);
            m.put("trained_s", trainSeconds > 0 ? Math.round(trainSeconds * 10) / 10.0 : "found");
            return m;
        }
    }

    private final Path folder;
    private final Path logs;
    private final List<String> serverJvm;
    private final java.util.function.Consumer<String> say;
    private final Map<String, Used> used = new LinkedHashMap<>();
    /** How long the last {@link #flags} call took: a training, or a look-up (phases.csv's aot_s). */
    private long lastNanos;

    /**
     * {@code folder}: the cache folder; {@code logs}: where a training's server log goes; {@code serverJvm}: bench's
     * options for every server JVM (--server-jvm: the training's too, and part of the key, since they change what
     * the JVM loads and profiles); {@code say}: the console.
     */
    AotTraining(Path folder, Path logs, List<String> serverJvm, java.util.function.Consumer<String> say) {
        this.folder = folder;
        this.serverJvm = serverJvm;
        this.logs = logs;
        this.say = say;
    }

    /**
     * Why this sweep runs its servers without an AOT cache, or null when it uses one: {@code optedOut} is
     * --no-aot-cache.
     */
    static String off(boolean optedOut) {
        if (optedOut) {
            return "--no-aot-cache";
        }
        try {
            return AotCache.unusable(Runtime.version().feature(), AotCache.classPath());
        } catch (IOException e) {
            return "the class path cannot be read: " + e.getMessage();
        }
    }

    /** provenance.json's line: where the caches are, or why there are none. */
    static String describe(boolean optedOut) {
        String off = off(optedOut);
        return off == null ? "on: " + AotCache.folder(System.getenv()) : "off: " + off;
    }

    /**
     * The unit's cache key: the class path, this JDK (the server JVMs' java is this one's), the server's flags and
     * then {@code serverJvm} (--server-jvm; none: the key as before it existed, so earlier caches still fit).
     */
    static String key(Combination c, Protocol protocol, List<String> serverJvm) throws IOException {
        return AotCache.key(AotCache.classPath(), System.getProperty("java.vm.version"),
                ServerJvm.concat(ServerProcess.jvmFlags(c.server()), serverJvm), Point.label(c, protocol));
    }

    /**
     * The JVM flags of {@code c}'s server JVMs over {@code protocol}: its cache's, trained first when missing.
     * {@code expected}: every page's verified body, which the training load checks its responses against.
     */
    List<String> flags(Combination c, Protocol protocol, Map<Page, Map<Engine, byte[]>> expected)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        try {
            return cached(c, protocol, expected);
        } finally {
            lastNanos = System.nanoTime() - start;
        }
    }

    long lastNanos() {
        return lastNanos;
    }

    private List<String> cached(Combination c, Protocol protocol, Map<Page, Map<Engine, byte[]>> expected)
            throws IOException, InterruptedException {
        String unit = Point.label(c, protocol);
        String key = key(c, protocol, serverJvm);
        Path file = AotCache.file(folder, unit, key);
        if (!Files.isRegularFile(file)) {
            Files.createDirectories(folder);
            long start = System.nanoTime();
            train(c, protocol, expected, file);
            double seconds = (System.nanoTime() - start) / 1e9;
            used.put(unit, new Used(unit, key, file, Files.size(file), seconds));
            say.accept(String.format("bench: trained the AOT cache of %s in %.0f s (%d MB): %s", unit, seconds,
                    Files.size(file) >> 20, file));
        } else {
            used.putIfAbsent(unit, new Used(unit, key, file, Files.size(file), 0));
        }
        return AotCache.useFlags(file);
    }

    /** The caches used so far, for provenance.json. */
    List<Map<String, Object>> records() {
        return used.values().stream().map(Used::record).toList();
    }

    private void train(Combination c, Protocol protocol, Map<Page, Map<Engine, byte[]>> expected, Path file)
            throws IOException, InterruptedException {
        // A name of this run's own beside the file: the same folder, so that the move is a rename.
        Path partial = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        Path log = logs.resolve(Point.label(c, protocol) + ".aot-training.server.log");   // once per sweep
        try {
            ServeConfig config = ServeConfig.of(c, ServeConfig.DEFAULT_DELAY).withProtocol(protocol);
            List<String> flags = ServerJvm.concat(serverJvm, AotCache.trainFlags(partial));
            try (ServerProcess server = ServerProcess.serve(config, flags, log)) {
                for (Page page : Page.values()) {
                    load(server, page, protocol, expected.get(page).values().iterator().next());
                }
                // Stopped: the JVM writes the cache as it exits, which takes longer than a server's drain.
                server.terminate();
                server.awaitExit(WRITE_TIMEOUT);
            }
            // The training JVM ends after the child JVM that writes the cache: a file there is whole.
            if (!Files.isRegularFile(partial)) {
                throw new IOException("the AOT training of " + Point.label(c, protocol) + " wrote no cache; see "
                        + log);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** The training load on one page: the measured points' generator, briefly, at a moderate concurrency. */
    private static void load(ServerProcess server, Page page, Protocol protocol, byte[] body)
            throws IOException, InterruptedException {
        CRC32C crc = new CRC32C();
        crc.update(body);
        var trust = server.tls() == null ? null : server.tls().chain().get(0);
        LoadGenerator.run(new LoadGenerator.Plan(server.base().resolve(page.id()), CONNECTIONS, 1, 0, Duration.ZERO,
                PER_PAGE, body.length, crc.getValue(), page.itemEnds(body)[0], Duration.ofSeconds(10), null,
                protocol, 1, trust));
    }
}
