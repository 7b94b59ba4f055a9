package harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The JDK's AOT cache for the server JVMs (JEP 483, 514, 515): a file written by a training run, then mapped by
 * every later JVM of the same key, so that its classes come loaded and linked and its JIT starts from the training
 * run's method profiles. A cache is valid only for the class path, the JDK build and the JVM flags it was trained
 * with, so those make its key; the unit served (server, engine, mode, protocol) is in the key as well, because the
 * profiles are of the code the training run executed, and an engine that another engine's training never rendered
 * would start without any: every measured combination gets a training of its own, so none starts warmer than
 * another. Later JVMs map it with {@code -XX:AOTMode=on}, which refuses to start on a cache that does not fit
 * (the default, {@code auto}, would silently run without it): a stale cache shows as a failed start, not as
 * slower figures. This class knows the key, the file and the flags; bench's AotTraining runs the training load.
 */
public final class AotCache {

    /** The environment variable that names the cache folder instead of the user's cache: the one override. */
    public static final String FOLDER_ENV = "PSSRBENCH_AOT_CACHE";
    /** JDK 25: training in one step ({@code -XX:AOTCacheOutput}, JEP 514) with method profiles (JEP 515). */
    public static final int LEAST_FEATURE = 25;
    /**
     * What the JVM writes to standard error, then exits 1, when {@code -XX:AOTMode=on} meets a cache it cannot map
     * (missing, damaged, or of another class path or JDK).
     */
    static final String REFUSED = "An error has occurred while processing the AOT cache";
    /**
     * The JVM's own warnings, which go to standard output by default, sent to standard error (the server's log): a
     * JVM with a cache warns about it at start and at exit, and a server's first line of standard output must be
     * the one that says where it serves.
     */
    static final List<String> LOG_TO_STDERR = List.of("-Xlog:disable", "-Xlog:all=warning:stderr");

    private AotCache() {
    }

    /**
     * The cache folder: {@value #FOLDER_ENV} when set, else {@code pssrbench/aot} under $XDG_CACHE_HOME, else
     * under ~/.cache.
     */
    public static Path folder(Map<String, String> env) {
        String own = env.get(FOLDER_ENV);
        if (own != null && !own.isBlank()) {
            return Path.of(own);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("pssrbench").resolve("aot");
    }

    /** This JVM's class path, which the server JVMs share ({@link ServerProcess#command}). */
    public static List<Path> classPath() {
        return Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(s -> !s.isEmpty()).map(Path::of).toList();
    }

    /**
     * Why no AOT cache can serve JVMs of JDK {@code feature} on {@code classPath}, in a few words; null when one can.
     * The JDK caches classes from jars only: a class path with a folder of classes (the build's) has none.
     */
    public static String unusable(int feature, List<Path> classPath) throws IOException {
        if (feature < LEAST_FEATURE) {
            return "JDK " + feature + " has no one-step AOT training (JDK " + LEAST_FEATURE + " or newer has)";
        }
        for (Path p : classPath) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> in = Files.list(p)) {
                    if (in.findAny().isPresent()) {
                        return "the class path holds the folder " + p + ", and the JDK caches classes from jars only";
                    }
                }
            }
        }
        return null;
    }

    /**
     * The key of a cache: a hash of each class path entry's absolute name, size and modification time (a jar
     * rebuilt is another key), the JDK build ({@code java.vm.version}), the JVM flags in order, and the unit served.
     */
    public static String key(List<Path> classPath, String vmVersion, List<String> jvmFlags, String unit)
            throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path p : classPath) {
            Path file = p.toAbsolutePath().normalize();
            boolean there = Files.exists(file);
            text.append("cp ").append(file).append(' ').append(there ? Files.size(file) : -1).append(' ')
                    .append(there ? Files.getLastModifiedTime(file).toMillis() : -1).append('\n');
        }
        text.append("vm ").append(vmVersion).append('\n');
        jvmFlags.forEach(f -> text.append("flag ").append(f).append('\n'));
        text.append("unit ").append(unit).append('\n');
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The cache file of {@code unit} under {@code key} in {@code folder}: the unit readable, the key unique. */
    public static Path file(Path folder, String unit, String key) {
        return folder.resolve(unit.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + key + ".aot");
    }

    /** A later server JVM's flags: map {@code cache}, and refuse to start if it does not fit. */
    public static List<String> useFlags(Path cache) {
        List<String> flags = new java.util.ArrayList<>(LOG_TO_STDERR);
        flags.add("-XX:AOTCache=" + cache);
        flags.add("-XX:AOTMode=on");
        return flags;
    }

    /**
     * The training JVM's flag: write the cache to {@code output} at exit (a child JVM assembles it from the
     * recorded configuration, and the training JVM's process ends once that child has written it).
     */
    public static List<String> trainFlags(Path output) {
        List<String> flags = new java.util.ArrayList<>(LOG_TO_STDERR);
        flags.add("-XX:AOTCacheOutput=" + output);
        return flags;
    }

    /**
     * When a server JVM started with {@code jvmFlags} did not start and its standard error is {@code log}: the one
     * sentence that says its AOT cache was refused, or null when that was not the reason.
     */
    public static String refusal(List<String> jvmFlags, String log) {
        String cache = jvmFlags.stream().filter(f -> f.startsWith("-XX:AOTCache=")).findFirst()
                .map(f -> f.substring("-XX:AOTCache=".length())).orElse(null);
        if (cache == null || !log.contains(REFUSED)) {
            return null;
        }
        return "the JVM refused the AOT cache " + cache + " (stale or damaged: it does not fit this jar, JDK or"
                + " flags); delete it to train it again, or run bench with --no-aot-cache.";
    }
}
