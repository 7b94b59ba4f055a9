package engines;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import com.github.mustachejava.MustacheException;
import model.Engine;
import model.Page;
import model.Templates;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;

/**
 * Mustache.java: Mustache templates compiled at run time into a tree of code objects. Its section over an Iterable
 * is a plain for-each (AbstractObjectHandler.iterate) that writes each item before asking for the next, so it is
 * progressive over a blocking Iterable.
 *
 * <p>Each page is three Mustache partials (head, item, tail): the page template includes them around its loop, and
 * the fragments compile each partial alone as a template, the item rendered with the item as its scope.
 */
public final class MustacheJavaEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        // Departs from the factory's default escaping, and only there: Mustache.java's HtmlEscaper also escapes '=',
        // '`' and control characters (for unquoted attributes), so a talk title with "===" came out as
        // "&#61;&#61;&#61;", unlike every other engine. Every attribute here is quoted, so escaping the five
        // HTML-significant characters (with the same entities HtmlEscaper writes) is the same protection and the same
        // bytes as the other engines. Kept: the compiled-template cache (compile() parses a template once; the compiled
        // Mustache is shared by concurrent renders, each with its own scope list) and the reflection object handler.
        static final DefaultMustacheFactory MUSTACHE = new DefaultMustacheFactory("templates/mustache") {
            @Override
            public void encode(String value, Writer writer) {
                try {
                    escapeHtml(value, writer);
                } catch (IOException e) {
                    throw new MustacheException("Failed to encode value: " + value, e);
                }
            }
        };
        static final Mustache PRESENTATIONS = MUSTACHE.compile("presentations.mustache");
        static final Mustache STOCKS = MUSTACHE.compile("stocks.mustache");
        // A fresh scope per render: execute() starts a new scope list from it.
        static final Templates TEMPLATES = Templates.of("mustache")
                .add(Page.PRESENTATIONS, (items, out) -> PRESENTATIONS.execute(out, Map.of("items", items)),
                        fragments("presentations"))
                .add(Page.STOCKS, (items, out) -> STOCKS.execute(out, Map.of("items", items)),
                        fragments("stocks"));
    }

    @Override
    public String id() {
        return "mustache";
    }

    @Override
    public String description() {
        return "Mustache.java {com.github.spullara.mustache.java:compiler} (Mustache compiled at run time; blocking)";
    }

    private static <T> Templates.Fragments<T> fragments(String page) {
        Mustache head = Compiled.MUSTACHE.compile(page + "-head.mustache");
        Mustache item = Compiled.MUSTACHE.compile(page + "-item.mustache");
        Mustache tail = Compiled.MUSTACHE.compile(page + "-tail.mustache");
        return Templates.Fragments.of(
                out -> head.execute(out, Map.of()),
                (value, out) -> item.execute(out, value),
                out -> tail.execute(out, Map.of()));
    }

    private static void escapeHtml(String value, Writer out) throws IOException {
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            String entity = switch (value.charAt(i)) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (entity != null) {
                out.write(value, start, i - start);
                out.write(entity);
                start = i + 1;
            }
        }
        out.write(value, start, value.length() - start);
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }
}
