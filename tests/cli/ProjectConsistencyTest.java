package cli;

import model.Engine;
import model.Mode;
import site.Combination;
import site.Demo;
import site.ServeConfig;
import site.Server;
import tables.Summary;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The things kept in two places stay equal: jbang's //DEPS and //SOURCES and the pom; the registry and the README
 * with the reference pages under docs/ it links (and those links lead somewhere).
 */
class ProjectConsistencyTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir"));

    /**
     * Each command's default delay is a named constant, and what repeats it outside Java (the wrk2 scripts, which
     * start serve themselves; the reference pages; the README's example output) says the same.
     */
    @Test
    void everyDefaultDelayWrittenOutsideJavaIsItsNamedConstant() throws Exception {
        String serve = ServeConfig.DEFAULT_DELAY_TEXT;
        for (String script : List.of("scripts/wrk2-cell.sh", "scripts/wrk2-sweep.sh")) {
            String text = Files.readString(ROOT.resolve(script));
            assertTrue(text.contains("(default: " + serve + ")"), script + "'s usage must give serve's " + serve);
            assertTrue(Pattern.compile("(?m)^[^#\\n]* delay=" + Pattern.quote(serve) + " ").matcher(text).find(),
                    script + " must default to serve's --delay, " + serve);
        }
        String commands = Files.readString(ROOT.resolve("docs/commands.md"));
        assertTrue(commands.contains("`--delay` (" + serve + ")"), "docs/commands.md: serve's --delay");
        assertTrue(commands.contains("at " + Demo.DEFAULT_DELAY_TEXT + " per"), "docs/commands.md: --demo's delay");
        assertTrue(Files.readString(ROOT.resolve("docs/browser.md"))
                .contains("`--delay` (" + browser.BrowserBench.DEFAULT_DELAY_TEXT + ","), "docs/browser.md: --delay");
        assertTrue(Files.readString(ROOT.resolve("README.md"))
                .contains("verify: delay " + verify.Verifier.DEFAULT_DELAY_TEXT + " per item"), "README: verify");
    }

    @Test
    void jbangAndMavenUseTheSameDependencies() throws Exception {
        TreeSet<String> jbang = new TreeSet<>();
        Matcher deps = Pattern.compile("(?m)^//DEPS (\\S+)$").matcher(Files.readString(ROOT.resolve("PssrBench.java")));
        while (deps.find()) {
            jbang.add(deps.group(1));
        }

        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
        Map<String, String> properties = new java.util.HashMap<>();
        NodeList props = ((Element) pom.getElementsByTagName("properties").item(0)).getChildNodes();
        for (int i = 0; i < props.getLength(); i++) {
            if (props.item(i) instanceof Element p) {
                properties.put(p.getTagName(), p.getTextContent().trim());
            }
        }
        TreeSet<String> maven = new TreeSet<>();
        NodeList dependencies = pom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            String scope = text(d, "scope");
            String coordinates = text(d, "groupId") + ":" + text(d, "artifactId") + ":"
                    + resolve(text(d, "version"), properties);
            if (scope.equals("import")) {
                maven.add(coordinates + "@pom");   // a BOM
            } else if (!scope.equals("test")) {
                maven.add(coordinates);
            }
        }
        // jbang has no compile-only scope: the annotation processor is a //DEPS there, a processor path in the pom.
        maven.add("io.jstach:jstachio-apt:" + properties.get("jstachio.version"));
        assertEquals(maven, jbang);
    }

    /**
     * jbang compiles the folders of //SOURCES, Maven those of the compiler's includes: the same folders, and every
     * folder that holds main sources (a folder in neither would be left out of both builds without a word).
     */
    @Test
    void jbangAndMavenCompileTheSameFolders() throws Exception {
        Matcher line = Pattern.compile("(?m)^//SOURCES (.+)$")
                .matcher(Files.readString(ROOT.resolve("PssrBench.java")));
        assertTrue(line.find(), "PssrBench.java has a //SOURCES line");
        TreeSet<String> jbang = new TreeSet<>();
        for (String glob : line.group(1).trim().split("\\s+")) {
            assertTrue(glob.matches("[a-z]+/\\*\\.java"), "//SOURCES lists FOLDER/*.java, not " + glob);
            jbang.add(glob.substring(0, glob.indexOf('/')));
        }

        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
        TreeSet<String> maven = new TreeSet<>();
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (text(plugin, "artifactId").equals("maven-compiler-plugin")) {
                Element configuration = child(plugin, "configuration");   // the main compile's, not testCompile's
                NodeList includes = child(configuration, "includes").getElementsByTagName("include");
                for (int j = 0; j < includes.getLength(); j++) {
                    String include = includes.item(j).getTextContent().trim();
                    if (!include.equals("PssrBench.java")) {
                        assertTrue(include.matches("[a-z]+/\\*\\*/\\*\\.java"), "pom includes FOLDER/**/*.java, not "
                                + include);
                        maven.add(include.substring(0, include.indexOf('/')));
                    }
                }
            }
        }
        assertEquals(jbang, maven, "//SOURCES in PssrBench.java and the compiler's includes in pom.xml");

        TreeSet<String> withSources = new TreeSet<>();
        try (var folders = Files.list(ROOT)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                String name = folder.getFileName().toString();
                if (name.startsWith(".") || name.equals("tests") || name.equals("target")) {
                    continue;
                }
                try (var files = Files.list(folder)) {   // a package is one folder: //SOURCES takes FOLDER/*.java
                    if (files.anyMatch(f -> f.toString().endsWith(".java"))) {
                        withSources.add(name);
                    }
                }
            }
        }
        assertEquals(withSources, jbang, "the folders that hold .java files are in //SOURCES");
    }

    private static Element child(Element parent, String tag) {
        for (var n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                return e;
            }
        }
        throw new AssertionError("no <" + tag + "> in <" + parent.getTagName() + ">");
    }

    private static final Path README = ROOT.resolve("README.md");
    private static final Path DOCS = ROOT.resolve("docs");

    /** The text between {@code begin} and {@code end} in {@code file}, which must hold both. */
    private static String between(Path file, String begin, String end) throws Exception {
        String text = Files.readString(file);
        assertTrue(text.contains(begin) && text.contains(end), file + " has the markers " + begin.strip() + " " + end);
        return text.substring(text.indexOf(begin) + begin.length(), text.indexOf(end));
    }

    @Test
    void theMatrixPageIsTheRegistrys() throws Exception {
        String block = between(DOCS.resolve("matrix.md"), "<!-- matrix:begin (generated: list --format=markdown) -->\n",
                "<!-- matrix:end -->");
        assertEquals(Matrix.markdown(), block, "regenerate docs/matrix.md with: scripts/pssrbench list --format=markdown");

        // The first table: an engine per row, a cell per mode ("—" where the engine cannot run in it); every
        // server runs every mode, so the combinations are the servers times its cells.
        List<String> pairs = new ArrayList<>();
        for (String line : Matrix.markdown().lines().takeWhile(l -> !l.isEmpty()).toList()) {
            String[] cells = line.split("\\|");
            if (Registry.ENGINES.stream().anyMatch(e -> e.id().equals(cells[1].trim()))) {
                for (int m = 0; m < Registry.MODES.size(); m++) {
                    if (!cells[2 + m].trim().equals("—")) {
                        pairs.add(cells[1].trim() + " " + Registry.MODES.get(m).id());
                    }
                }
            }
        }
        List<String> rows = new ArrayList<>();
        Registry.SERVERS.forEach(s -> Registry.ENGINES.forEach(e -> pairs.stream()
                .filter(p -> p.startsWith(e.id() + " ")).forEach(p -> rows.add(s.id() + " " + p))));
        assertEquals(Registry.combinations().stream().map(Combination::toString).toList(), rows);
    }

    /** The README's matrix at a glance is the first table of the generated matrix (engines × modes). */
    @Test
    void theReadmeMatrixIsTheRegistrysFirstTable() throws Exception {
        String block = between(README, "<!-- matrix-modes:begin (generated: the first table of list --format=markdown) -->\n",
                "<!-- matrix-modes:end -->");
        String all = Matrix.markdown();
        assertEquals(all.substring(0, all.indexOf("\n\n") + 1), block,
                "regenerate with the first table of: scripts/pssrbench list --format=markdown");
    }

    /**
     * docs/http2.md's table of protocols (the README's until the README became two screens) is the generated one
     * (which server speaks which).
     */
    @Test
    void theProtocolsOfHttp2PageAreTheRegistrys() throws Exception {
        String block = between(DOCS.resolve("http2.md"), "<!-- matrix-protocols:begin (generated: the protocols table"
                + " of list --format=markdown) -->\n", "<!-- matrix-protocols:end -->");
        assertEquals(Matrix.protocols(), block, "regenerate with the table h1 | h1s | h2c | h2 of: scripts/pssrbench"
                + " list --format=markdown");
    }

    /**
     * The README's table of commands and the detailed one in docs/commands.md each have a row for every command of
     * the command line, and none for another.
     */
    @Test
    void theTablesOfCommandsAreTheCommandLines() throws Exception {
        for (Path file : List.of(README, DOCS.resolve("commands.md"))) {
            String text = Files.readString(file);
            int at = text.indexOf("\n## Commands\n");
            assertTrue(at >= 0, file + " has a section '## Commands'");
            Pattern row = Pattern.compile("^\\| `([a-z-]+)");
            TreeSet<String> documented = new TreeSet<>();
            text.substring(at).lines().skip(2).dropWhile(l -> !l.startsWith("|")).takeWhile(l -> l.startsWith("|"))
                    .map(row::matcher).filter(Matcher::find).forEach(m -> documented.add(m.group(1)));
            assertEquals(new TreeSet<>(new CommandLine(new Cli()).getSubcommands().keySet()), documented,
                    "the commands in " + file);
        }
    }

    /**
     * The README is read in two screens (issue 31): at most 200 lines, the reference detail in docs/. A README that
     * grows past it should move its new detail to the docs page it belongs to and link it.
     */
    @Test
    void theReadmeFitsInTwoScreens() throws Exception {
        long lines = Files.readAllLines(README).size();
        assertTrue(lines <= 200, "README.md has " + lines + " lines, at most 200: move the detail to docs/");
    }

    /** The README's opening lists name exactly the registry's servers, engines and modes, in its order. */
    @Test
    void theReadmeListsThePluginsOfTheRegistry() throws Exception {
        String readme = Files.readString(README);
        assertEquals(Registry.SERVERS.stream().map(Server::id).toList(), listed(readme, "- Servers (`--server`):"));
        assertEquals(Registry.ENGINES.stream().map(Engine::id).toList(), listed(readme, "- Engines (`--engine`):"));
        assertEquals(Registry.MODES.stream().map(Mode::id).toList(), listed(readme, "- Modes (`--mode`):"));
    }

    /** The ids in backticks in the bullet that starts with {@code start} (up to the next bullet). */
    private static List<String> listed(String readme, String start) {
        int from = readme.indexOf(start);
        assertTrue(from >= 0, "README.md has a bullet '" + start + "'");
        int to = readme.indexOf("\n- ", from + 1);
        int blank = readme.indexOf("\n\n", from);
        String bullet = readme.substring(from + start.length(), Math.min(to < 0 ? readme.length() : to,
                blank < 0 ? readme.length() : blank));
        List<String> ids = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("`([a-z][a-z0-9-]*)`").matcher(bullet);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    /**
     * docs/bench.md's list of summary.csv's columns is the header, in its order, and every CSV header the README
     * and docs/ show (a line that starts with "tool,server,") names the header's columns in order, "…" standing
     * for any left out.
     */
    @Test
    void theDocsListTheColumnsOfSummaryCsv() throws Exception {
        String bench = Files.readString(DOCS.resolve("bench.md"));
        Matcher list = Pattern.compile("`(tool, server, [^`]*)`").matcher(bench);
        assertTrue(list.find(), "docs/bench.md lists summary.csv's columns as `tool, server, …`");
        assertEquals(Summary.COLUMNS, List.of(list.group(1).split(",\\s+")));
        StringBuilder all = new StringBuilder();
        for (Path file : markdownFiles()) {
            all.append(Files.readString(file)).append('\n');
        }
        Matcher shown = Pattern.compile("(?m)^tool,server,.*$").matcher(all);
        int headers = 0;
        while (shown.find()) {
            headers++;
            int next = 0;
            boolean gap = false;
            for (String cell : shown.group().split(",")) {
                if (cell.equals("\u2026")) {
                    gap = true;
                    continue;
                }
                int found = Summary.COLUMNS.indexOf(cell);
                assertTrue(gap ? found >= next : found == next, "'" + cell + "' where the header has '"
                        + (next < Summary.COLUMNS.size() ? Summary.COLUMNS.get(next) : "") + "': " + shown.group());
                next = found + 1;
                gap = false;
            }
            assertTrue(gap || next == Summary.COLUMNS.size(), "ends with note or \u2026: " + shown.group());
        }
        assertTrue(headers > 0, "README.md or docs/ shows a summary.csv header");
    }

    /**
     * Tests live beside what they test: tests/FOLDER/X.java is in package FOLDER, as the code under test is, and
     * a test named in the docs or in a source comment (tests/FOLDER/XTest) is where it is said to be.
     */
    @Test
    void everyTestIsInTheFolderOfItsPackageAndWhereTheDocsSayItIs() throws Exception {
        List<String> wrong = new ArrayList<>();
        List<Path> texts = new ArrayList<>(markdownFiles());
        texts.addAll(List.of(ROOT.resolve("pom.xml"), ROOT.resolve("PssrBench.java")));
        try (var all = Files.walk(ROOT)) {
            for (Path file : all.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path relative = ROOT.relativize(file);
                String first = relative.getName(0).toString();
                if (first.startsWith(".") || first.equals("target")) {
                    continue;
                }
                if (first.equals("tests")) {
                    String folder = relative.getName(1).toString();
                    if (!Files.readString(file).startsWith("package " + folder + ";\n")) {
                        wrong.add(relative + " is not in package " + folder);
                    }
                } else {
                    texts.add(file);
                }
            }
        }
        Pattern named = Pattern.compile("\\btests/([a-z]+)/([A-Z]\\w*)");
        for (Path file : texts) {
            Matcher m = named.matcher(Files.readString(file));
            while (m.find()) {
                if (!Files.exists(ROOT.resolve("tests").resolve(m.group(1)).resolve(m.group(2) + ".java"))) {
                    wrong.add(ROOT.relativize(file) + " names " + m.group() + ", which does not exist");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** Every unit Durations accepts is documented (the help says the same: CliTest). */
    @Test
    void theDocsNameEveryDurationUnit() throws Exception {
        String commands = Files.readString(DOCS.resolve("commands.md"));
        assertTrue(commands.contains("ns, us, ms, s or m (minutes)"), "docs/commands.md names the duration units");
    }

    /** README.md and every docs/*.md, the pages a reader follows links between. */
    private static List<Path> markdownFiles() throws Exception {
        List<Path> files = new ArrayList<>(List.of(README));
        try (var docs = Files.list(DOCS)) {
            docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /**
     * Every relative link (and image) in README.md and docs/*.md leads to a file that exists and, with a
     * {@code #fragment}, to a heading of that file, under GitHub's rule for heading anchors. Text in code (fenced
     * blocks and backticks) is not a link.
     */
    @Test
    void everyRelativeLinkLeadsSomewhere() throws Exception {
        Pattern link = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path file : markdownFiles()) {
            Matcher m = link.matcher(withoutCode(Files.readString(file)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {   // http:, https:, mailto:: not this repository's
                    continue;
                }
                links++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path to = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
                if (!Files.exists(to)) {
                    broken.add(ROOT.relativize(file) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors(to).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(file) + ": " + target + " (no such heading)");
                }
            }
        }
        assertTrue(links > 0, "README.md links to docs/");
        assertEquals(List.of(), broken);
    }

    /** The text without fenced code blocks and inline code spans. */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "").replaceAll("`[^`\\n]*`", "");
    }

    /**
     * The anchors GitHub gives a Markdown file's headings: lower case, every character but letters, digits,
     * underscores, hyphens and spaces dropped, spaces made hyphens; a repeated one gets -1, -2, …
     */
    private static List<String> anchors(Path file) throws Exception {
        List<String> anchors = new ArrayList<>();
        if (!file.toString().endsWith(".md")) {
            return anchors;
        }
        Matcher heading = Pattern.compile("(?m)^#{1,6} (.+)$").matcher(withoutFences(Files.readString(file)));
        while (heading.find()) {
            String anchor = heading.group(1).strip().toLowerCase(java.util.Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
            String unique = anchor;
            for (int n = 1; anchors.contains(unique); n++) {
                unique = anchor + "-" + n;
            }
            anchors.add(unique);
        }
        return anchors;
    }

    private static String withoutFences(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }

    private static String resolve(String value, Map<String, String> properties) {
        Matcher m = Pattern.compile("\\$\\{([^}]+)}").matcher(value);
        return m.matches() ? properties.get(m.group(1)) : value;
    }
}
