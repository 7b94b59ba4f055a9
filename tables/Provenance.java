package tables;

import base.AtomicFile;
import base.Version;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * {@code provenance.json}: how a results folder was made, in one format whoever measured, written only here (bench
 * calls it in-process, the wrk2 scripts through the {@code provenance} subcommand) and read by {@code report}. What
 * the machine and the build are is read here, in the JVM, the same way for every tool: PssrBench's version and git
 * revision, the JDK, OS, CPU, cores, load average and the version of every library of the build. The caller adds
 * what only it knows: the command, the load generator and the flags as the user wrote them.
 *
 * <p>The first run into a folder is the top-level object; each later one (bench {@code --resume}, the cells of a
 * wrk2 sweep) adds its own record to the list under {@code later_runs}, as the machine, the build or the load may
 * have changed in between. {@link #finish} adds a run's end time and load average to its record.
 */
public final class Provenance {

    public static final String FILE = "provenance.json";
    public static final String LATER_RUNS = "later_runs";
    /**
     * Every library of the build, Maven's resolved dependency tree as JSON (maven-dependency-plugin's tree goal),
     * written into the jar by the build: the shaded jar keeps no library's manifest, and the Gradle-built ones
     * (RxJava, Reactor) have no META-INF/maven/.../pom.properties to read.
     */
    static final String DEPENDENCIES = "/META-INF/pssrbench/dependencies.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {
    };

    private Provenance() {
    }

    /** One run's record: the caller's command, load generator, flags and {@code more} among what is read here. */
    public static Map<String, Object> record(String command, String loadGenerator, Map<String, ?> flags,
                                             Map<String, ?> more) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("pssrbench", Version.VERSION);
        p.put("git", git());
        p.put("command", command);
        p.put("started", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        p.put("load_generator", loadGenerator);
        p.put("java", Runtime.version().toString());
        p.put("java_vendor", System.getProperty("java.vendor"));
        p.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        p.put("cpu", cpuModel());
        p.put("cores", Runtime.getRuntime().availableProcessors());
        p.put("load_average", loadAverage());
        p.put("flags", flags);
        p.putAll(more);
        p.put("libraries", libraries());
        return p;
    }

    /**
     * Adds the record to {@code folder/provenance.json}: the file itself, or under later_runs if there is one. A
     * provenance.json that PssrBench did not write is refused (see {@code ResultsFolder}), never appended to.
     */
    public static void add(Path folder, Map<String, Object> record) throws IOException {
        Files.createDirectories(folder);
        Path file = folder.resolve(FILE);
        Map<String, Object> all = record;
        if (Files.exists(file) && !writtenHere(folder)) {
            throw new base.UsageException(file + " was not written by PssrBench; it is left as it is: choose"
                    + " another folder.");
        }
        if (Files.exists(file)) {
            all = JSON.readValue(file.toFile(), OBJECT);
            @SuppressWarnings("unchecked")
            List<Object> later = (List<Object>) all.computeIfAbsent(LATER_RUNS, k -> new ArrayList<>());
            later.add(record);
        }
        AtomicFile.write(file, JSON.writeValueAsString(all));
    }

    /**
     * Whether {@code folder/provenance.json} was written by PssrBench: a JSON object whose {@code pssrbench} and
     * {@code command} are text and whose {@code flags} is an object, as {@link #record} writes every record (the
     * rule that recognises a results folder: {@code ResultsFolder}).
     */
    static boolean writtenHere(Path folder) {
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try {
            JsonNode top = JSON.readTree(file.toFile());
            return top != null && top.isObject() && top.path("pssrbench").isTextual()
                    && top.path("command").isTextual() && top.path("flags").isObject();
        } catch (IOException | RuntimeException e) {
            return false;   // not JSON, or not readable: not one of ours either way
        }
    }

    /** Adds the end time and the load average to the latest record of {@code folder/provenance.json}. */
    public static void finish(Path folder) throws IOException {
        finish(folder, Map.of());
    }

    /**
     * The same, with what the run added beside it ({@code outcome}: e.g. whether it was stopped and how many rows it
     * wrote), so that the record describes exactly the data in the folder: a run stopped before its first row says
     * that it added none.
     */
    public static void finish(Path folder, Map<String, ?> outcome) throws IOException {
        Path file = folder.resolve(FILE);
        Map<String, Object> all = JSON.readValue(file.toFile(), OBJECT);
        @SuppressWarnings("unchecked")
        List<Object> later = (List<Object>) all.getOrDefault(LATER_RUNS, List.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> latest = later.isEmpty() ? all : (Map<String, Object>) later.get(later.size() - 1);
        latest.put("finished", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        latest.put("load_average_after", loadAverage());
        latest.putAll(outcome);
        AtomicFile.write(file, JSON.writeValueAsString(all));
    }

    /**
     * The values {@code command}'s runs into {@code folder} recorded under {@code key} (the top-level record and
     * those under later_runs; other commands' records left out), as text: empty without a provenance.json or when
     * no such run recorded the key.
     */
    public static TreeSet<String> recorded(Path folder, String command, String key) throws IOException {
        TreeSet<String> found = new TreeSet<>();
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return found;
        }
        JsonNode top = read(file);
        List<JsonNode> records = new ArrayList<>(List.of(top));
        top.path(LATER_RUNS).forEach(records::add);
        for (JsonNode r : records) {
            if (r.path("command").asText().equals(command) && r.hasNonNull(key)) {
                found.add(r.get(key).asText());
            }
        }
        return found;
    }

    /**
     * {@code file} (a provenance.json) as JSON (an empty file: a missing node); unreadable, an {@link IOException}
     * whose message is one sentence naming the file, the line and the column (Jackson's own quote the document and
     * span lines), so that report and compare refuse it in that sentence.
     */
    public static JsonNode read(Path file) throws IOException {
        // A byte that is not UTF-8 is read as U+FFFD, as in the CSV files (CsvFile): one in a free-text value
        // (a flag, a command) must not lose the report.
        try (java.io.Reader in = new java.io.InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8)) {
            return JSON.readTree(in);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            String why = String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("");
            throw new IOException(file + (at == null || at.getLineNr() < 1 ? "" : ", line " + at.getLineNr()
                    + ", column " + at.getColumnNr()) + ": not JSON as PssrBench writes it ("
                    + CsvFile.oneLine(why, 100) + ")");
        }
    }

    /**
     * A command's flags as the user wrote them ({@code 1s}, {@code netty,nima}), not as parsed ({@code PT1S},
     * {@code [netty, nima]}); a repeated option's values joined with commas, a flag without value as true.
     */
    public static Map<String, Object> flags(CommandLine.ParseResult parsed) {
        Map<String, Object> flags = new LinkedHashMap<>();
        for (CommandLine.Model.OptionSpec o : parsed.matchedOptions()) {
            flags.put(o.longestName(), String.join(",", o.originalStringValues()));
        }
        return flags;
    }

    /**
     * The source's git revision ({@code -dirty} with uncommitted changes): the one the jar was built from when the
     * code runs from a jar that records it (so a copied jar still says), else git's answer in the folder the code was
     * loaded from.
     */
    static String git() {
        File dir = new File(".");
        try {
            Path code = Path.of(Provenance.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String built = builtFrom(code);
            if (built != null) {
                return built;
            }
            dir = (Files.isDirectory(code) ? code : code.getParent()).toFile();   // target/classes or target/
        } catch (URISyntaxException | RuntimeException e) {
            // no code source (unusual class loader): the working directory's checkout, if any
        }
        try {
            Process p = new ProcessBuilder("git", "describe", "--always", "--dirty").directory(dir)
                    .redirectErrorStream(true).start();
            String rev = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? rev : "unknown (not a git checkout)";
        } catch (IOException | InterruptedException e) {
            return "unknown (no git)";
        }
    }

    /**
     * The revision in {@code jar}'s manifest ({@code Git-Revision}, written by the build: pom.xml), or null: not a
     * jar, or built where git could not say (the build leaves the entry unresolved, {@code ${...}}).
     */
    static String builtFrom(Path jar) {
        if (!Files.isRegularFile(jar)) {
            return null;
        }
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest manifest = file.getManifest();
            String rev = manifest == null ? null : manifest.getMainAttributes().getValue("Git-Revision");
            return rev == null || rev.isBlank() || rev.contains("${") ? null : rev.strip();
        } catch (IOException e) {
            return null;
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * {@code group:artifact[:classifier]} to version for every library of the build: from the dependency tree the
     * build wrote into the jar, else (jbang, which runs the sources on a class path of separate jars) from the
     * jars' paths in the local Maven repository.
     */
    public static Map<String, String> libraries() {
        try (InputStream in = Provenance.class.getResourceAsStream(DEPENDENCIES)) {
            if (in != null) {
                return libraries(JSON.readTree(in));
            }
        } catch (IOException e) {
            throw new IllegalStateException("unreadable " + DEPENDENCIES + " in this build", e);
        }
        return fromClassPath(List.of(System.getProperty("java.class.path", "").split(File.pathSeparator)));
    }

    /** The libraries of a maven-dependency-plugin JSON tree, the project itself (its root) left out. */
    static Map<String, String> libraries(JsonNode tree) {
        Map<String, String> versions = new TreeMap<>();
        List<JsonNode> todo = new ArrayList<>();
        tree.path("children").forEach(todo::add);
        while (!todo.isEmpty()) {
            JsonNode node = todo.remove(todo.size() - 1);
            String classifier = node.path("classifier").asText("");
            versions.put(node.path("groupId").asText() + ":" + node.path("artifactId").asText()
                    + (classifier.isEmpty() ? "" : ":" + classifier), node.path("version").asText());
            node.path("children").forEach(todo::add);
        }
        return versions;
    }

    /**
     * Libraries from class path entries laid out as a Maven repository does it:
     * {@code .../repository/GROUP/PATH/ARTIFACT/VERSION/ARTIFACT-VERSION[-CLASSIFIER].jar} (without a folder named
     * repository above it, the artifact alone names it); other entries are skipped.
     */
    static Map<String, String> fromClassPath(List<String> entries) {
        Map<String, String> versions = new TreeMap<>();
        for (String entry : entries) {
            Path jar = Path.of(entry).toAbsolutePath().normalize();
            Path versionDir = jar.getParent();
            Path artifactDir = versionDir == null ? null : versionDir.getParent();
            String name = jar.getFileName().toString();
            if (artifactDir == null || artifactDir.getFileName() == null || !name.endsWith(".jar")) {
                continue;
            }
            String artifact = artifactDir.getFileName().toString();
            String version = versionDir.getFileName().toString();
            String stem = artifact + "-" + version;
            if (!name.startsWith(stem)) {
                continue;
            }
            String classifier = name.substring(stem.length(), name.length() - ".jar".length()).replaceFirst("^-", "");
            List<String> group = new ArrayList<>();   // the folders between the repository and the artifact
            Path dir = artifactDir.getParent();
            for (; dir != null && dir.getFileName() != null && !dir.getFileName().toString().equals("repository");
                 dir = dir.getParent()) {
                group.addFirst(dir.getFileName().toString());
            }
            String key = (dir == null || dir.getFileName() == null || group.isEmpty() ? "" : String.join(".", group)
                    + ":") + artifact + (classifier.isEmpty() ? "" : ":" + classifier);
            versions.put(key, version);
        }
        return versions;
    }
}
