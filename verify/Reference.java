package verify;

import model.Engine;
import model.Page;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.parser.ParseError;
import org.jsoup.parser.Parser;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a correct page is: equal to the published benchmark's reference page under its normalisation, well-formed
 * HTML5 with one element per item, and byte-identical to what every engine renders in memory.
 */
public final class Reference {

    private static final Map<Page, List<String>> NORMALISED_REFERENCE = new java.util.LinkedHashMap<>();

    private Reference() {
    }

    /**
     * The published benchmark's comparison: a line break before every '<' and after every '>', lines trimmed and
     * lower-cased, empty lines and the lines holding the page title text dropped.
     */
    public static List<String> normalise(String html, Page page) {
        String title = page.title().toLowerCase(Locale.ROOT);
        return Arrays.stream(html.replace("<", "\n<").replace(">", ">\n").split("\n"))
                .map(line -> line.trim().toLowerCase(Locale.ROOT))
                .filter(line -> !line.isEmpty() && !line.contains(title))
                .toList();
    }

    /** Problems with {@code html} as {@code page}, or an empty list: reference equality, parse errors, items. */
    public static List<String> check(Page page, String html) {
        List<String> problems = new ArrayList<>();
        List<String> expected = reference(page);
        List<String> actual = normalise(html, page);
        if (!expected.equals(actual)) {
            int i = 0;
            while (i < Math.min(expected.size(), actual.size()) && expected.get(i).equals(actual.get(i))) {
                i++;
            }
            problems.add("differs from the reference page at normalised line " + (i + 1) + ": expected '"
                    + (i < expected.size() ? expected.get(i) : "<end>") + "', got '"
                    + (i < actual.size() ? actual.get(i) : "<end>") + "'");
        }
        Parser parser = Parser.htmlParser().setTrackErrors(10);
        Document doc = Jsoup.parse(html, "", parser);
        for (ParseError error : parser.getErrors()) {
            problems.add("HTML parse error at " + error.getPosition() + ": " + error.getErrorMessage());
        }
        int items = doc.select(page.itemSelector()).size();
        if (items != page.items().size()) {
            problems.add("expected " + page.items().size() + " items (" + page.itemSelector() + "), found " + items);
        }
        return problems;
    }

    /**
     * Every engine's in-memory rendering of every page, without delay. They must all be byte-identical; the
     * served pages are compared with them.
     */
    public static Map<Page, Map<Engine, byte[]>> renderAll(List<Engine> engines) {
        Map<Page, Map<Engine, byte[]>> all = new java.util.LinkedHashMap<>();
        for (Page page : Page.values()) {
            Map<Engine, byte[]> byEngine = new java.util.LinkedHashMap<>();
            for (Engine engine : engines) {
                byEngine.put(engine, render(page, engine).getBytes(StandardCharsets.UTF_8));
            }
            all.put(page, byEngine);
        }
        return all;
    }

    /**
     * Where an engine's fragments (head, every item, tail) do not add up to its page, one line each: the
     * {@code fragments} mode must serve the same bytes as every other.
     */
    public static List<String> fragmentProblems(List<Engine> engines) {
        List<String> problems = new ArrayList<>();
        for (Page<?> page : Page.values()) {
            for (Engine engine : engines) {
                String whole = engine.render(page);
                String parts;
                try {
                    parts = engine.renderFragments(page);
                } catch (RuntimeException e) {
                    problems.add(page.id() + ": engine " + engine.id() + "'s fragments fail: " + e);
                    continue;
                }
                if (!parts.equals(whole)) {
                    problems.add(page.id() + ": engine " + engine.id() + "'s fragments differ from its page "
                            + firstDifference(whole.getBytes(StandardCharsets.UTF_8),
                            parts.getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        return problems;
    }

    /** Where {@code got} first differs from {@code want}, with its length and some context, for a message. */
    static String firstDifference(byte[] want, byte[] got) {
        int i = 0;
        while (i < Math.min(want.length, got.length) && want[i] == got[i]) {
            i++;
        }
        String context = new String(got, Math.max(0, i - 20), Math.min(got.length, i + 40) - Math.max(0, i - 20),
                StandardCharsets.UTF_8);
        return "(" + got.length + " bytes instead of " + want.length + ", first difference at byte " + i + ": '"
                + context.replace("\n", "\\n") + "')";
    }

    /** One engine's in-memory rendering of a page, without delay. */
    public static String render(Page<?> page, Engine engine) {
        return engine.render(page);
    }

    /** The length in bytes of the published reference page of {@code page}. */
    public static int referenceBytes(Page<?> page) {
        String resource = "/data/expected/" + page.id() + ".html";
        try (InputStream in = Reference.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return in.readAllBytes().length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized List<String> reference(Page page) {
        return NORMALISED_REFERENCE.computeIfAbsent(page, p -> {
            String resource = "/data/expected/" + p.id() + ".html";
            try (InputStream in = Reference.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing resource " + resource);
                }
                return normalise(new String(in.readAllBytes(), StandardCharsets.UTF_8), p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
