package cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layers, read from the compiled classes by the JDK's jdeps (what the code really uses, not what it imports):
 * what every layer shares at the bottom, then the model, what a server speaks, the HTTP site, the plug-ins, the
 * parts the tools share (the harness, the load generator, verification, results), statistics and importers, the
 * report, the tools (bench, browser, stress), the command line on top. A file uses its own package and packages of
 * lower layers only: two packages on one layer never use each other (plug-ins do not use each other; stress, bench
 * and browser share only what is below them). And no two source files use each other, directly or through others.
 */
class LayersTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir"));

    /** Package → layer. A package missing here fails the test: a new folder must say where it stands. */
    private static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("base", 0),
            Map.entry("model", 1), Map.entry("client", 1),
            Map.entry("http", 2),
            Map.entry("site", 3),
            Map.entry("engines", 4), Map.entry("servers", 4), Map.entry("modes", 4),
            Map.entry("harness", 5), Map.entry("load", 5), Map.entry("verify", 5), Map.entry("tables", 5),
            Map.entry("stats", 6), Map.entry("importers", 6),
            Map.entry("report", 7),
            Map.entry("bench", 8), Map.entry("browser", 8), Map.entry("stress", 8),
            Map.entry("cli", 9),
            Map.entry("", 10));   // PssrBench, the jbang entrypoint

    /** Every use of one class by another, {from, to}, as jdeps reads them from the compiled classes. */
    private static List<String[]> classEdges() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        StringWriter out = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
                ROOT.resolve("target/classes").toString());
        assertEquals(0, code, out.toString());
        Pattern edge = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s", Pattern.MULTILINE);
        List<String[]> edges = new ArrayList<>();
        Matcher m = edge.matcher(out.toString());
        while (m.find()) {
            edges.add(new String[] {m.group(1), m.group(2)});
        }
        return edges;
    }

    /** Source file → the source files it uses (classes generated at build time, which have no file, left out). */
    private static Map<String, Set<String>> fileGraph() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String[] edge : classEdges()) {
            String from = file(edge[0]);
            String to = file(edge[1]);
            if (from != null && to != null && !from.equals(to)) {
                graph.computeIfAbsent(from, f -> new TreeSet<>()).add(to);
            }
        }
        assertTrue(graph.size() > 30, "jdeps saw the classes: " + graph.keySet());
        return graph;
    }

    /** {@code site.Site$Reply} → {@code site/Site.java}, if that source file exists. */
    private static String file(String className) {
        String top = className.replaceAll("\\$.*", "");
        String path = top.replace('.', '/') + ".java";
        return Files.exists(ROOT.resolve(path)) ? path : null;
    }

    private static String packageOf(String file) {
        int slash = file.lastIndexOf('/');
        return slash < 0 ? "" : file.substring(0, slash);
    }

    @Test
    void noFileUsesALayerAboveItsOwnOrAnotherPackageOfItsLayer() {
        List<String> wrong = new ArrayList<>();
        fileGraph().forEach((from, tos) -> {
            for (String to : tos) {
                Integer a = LAYERS.get(packageOf(from));
                Integer b = LAYERS.get(packageOf(to));
                assertTrue(a != null && b != null, "a package without a layer: " + from + " -> " + to);
                if (b > a || (b.equals(a) && !packageOf(from).equals(packageOf(to)) && !optsIn(from, to))) {
                    wrong.add(from + " -> " + to);
                }
            }
        });
        assertEquals(List.of(), wrong, "uses of a higher layer, or of another package of the same layer");
    }

    /**
     * The one use of a plug-in by another: an engine opts into a mode's kind of template by registering one under
     * the mode's key (modes/SuspendableMode's {@code suspendable(page)}), so a mode that renders in a new way is
     * its own file plus the engines that can; a mode never uses an engine, and the cycle test below keeps it so.
     */
    private static boolean optsIn(String from, String to) {
        return from.startsWith("engines/") && to.startsWith("modes/");
    }

    /**
     * A server runs the handler the plan of its combination names (model.Serving, from the server's declared
     * handling and the mode's needs): it does not know the modes exist, so a new mode touches no server.
     */
    @Test
    void serversDoNotKnowTheModes() {
        List<String> wrong = new ArrayList<>();
        fileGraph().forEach((from, tos) -> tos.stream()
                .filter(to -> from.startsWith("servers/") && (to.equals("model/Mode.java") || to.startsWith("modes/")))
                .forEach(to -> wrong.add(from + " -> " + to)));
        assertEquals(List.of(), wrong, "servers that use a mode instead of the plan (model.Serving)");
    }

    /**
     * What a mode needs of a thread ({@code model.Mode.runs()}) is read in one place, the plan (model.Serving), so that
     * the site, the servers and the README's prose cannot each decide it their own way: they read the plan's
     * {@code renderOn()}, of the same type. One type, so the calls are what is checked (javap, from the bytecode).
     */
    @Test
    void onlyThePlanReadsWhereAModeRuns() throws Exception {
        List<String> classes = new ArrayList<>();   // those whose constant pool names the method's type, for speed
        try (var files = Files.walk(ROOT.resolve("target/classes"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                if (new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("()Lmodel/Mode$Runs;")) {
                    classes.add(f.toString());
                }
            }
        }
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new AssertionError("no javap in this JDK"));
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-c", "-p"));
        args.addAll(classes);
        assertEquals(0, javap.run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new)), "javap");
        Pattern header = Pattern.compile("^\\S.*\\b(?:class|interface) ([\\w.$]+)\\b.*\\{$");   // a class's first line
        Set<String> readers = new TreeSet<>();
        String reader = null;
        for (String line : out.toString().split("\n")) {
            Matcher named = header.matcher(line);
            if (named.matches()) {
                reader = named.group(1);
            } else if (line.contains(".runs:()Lmodel/Mode$Runs;") && !reader.startsWith("model.Mode")
                    && !reader.startsWith("modes.")) {
                readers.add(reader.replaceAll("\\$.*", ""));
            }
        }
        assertEquals(Set.of("model.Serving"), readers, "classes that read a mode's threads beside the plan");
    }

    @Test
    void noTwoFilesDependOnEachOther() {
        Map<String, Set<String>> graph = fileGraph();
        List<List<String>> cycles = stronglyConnected(graph).stream().filter(c -> c.size() > 1).toList();
        assertEquals(List.of(), cycles, "files that use each other, directly or through others");
    }

    /** Tarjan's algorithm, iterative (the graph is small, but recursion depth should not depend on it). */
    private static List<List<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> components = new ArrayList<>();
        int[] next = {0};
        Set<String> nodes = new TreeSet<>(graph.keySet());
        graph.values().forEach(nodes::addAll);
        for (String start : nodes) {
            if (index.containsKey(start)) {
                continue;
            }
            Deque<Object[]> work = new ArrayDeque<>();   // {node, iterator over its successors}
            work.push(new Object[] {start, graph.getOrDefault(start, Set.of()).iterator()});
            index.put(start, next[0]);
            low.put(start, next[0]++);
            stack.push(start);
            onStack.add(start);
            while (!work.isEmpty()) {
                Object[] frame = work.peek();
                String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                java.util.Iterator<String> successors = (java.util.Iterator<String>) frame[1];
                if (successors.hasNext()) {
                    String w = successors.next();
                    if (!index.containsKey(w)) {
                        index.put(w, next[0]);
                        low.put(w, next[0]++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(new Object[] {w, graph.getOrDefault(w, Set.of()).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                } else {
                    work.pop();
                    if (!work.isEmpty()) {
                        String parent = (String) work.peek()[0];
                        low.put(parent, Math.min(low.get(parent), low.get(v)));
                    }
                    if (low.get(v).equals(index.get(v))) {
                        List<String> component = new ArrayList<>();
                        String w;
                        do {
                            w = stack.pop();
                            onStack.remove(w);
                            component.add(w);
                        } while (!w.equals(v));
                        components.add(component);
                    }
                }
            }
        }
        return components;
    }
}
