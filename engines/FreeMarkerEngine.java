package engines;

import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;
import freemarker.template.Configuration;
import freemarker.template.DefaultObjectWrapperBuilder;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Map;

/**
 * FreeMarker: FTL templates interpreted at run time. Its {@code <#list>} calls {@code hasNext()} before rendering
 * the current item (for {@code ?has_next}), so over a blocking Iterable each item's markup goes out one item late:
 * the README reports the measured lag instead of hiding it.
 *
 * <p>Each page's parts are macros (head, item, tail) in a library, PAGE-parts.ftlh; the page imports it and calls
 * them around its list, and each fragment is a one-line template that imports the same library and calls one macro.
 */
public final class FreeMarkerEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        static final Configuration FREEMARKER = configuration();
        static final Template PRESENTATIONS = template("presentations.ftlh");
        static final Template STOCKS = template("stocks.ftlh");
        static final Templates TEMPLATES = Templates.of("freemarker")
                .add(Page.PRESENTATIONS, (items, out) -> process(PRESENTATIONS, Map.of("items", items), out),
                        fragments("presentations", "p"))
                .add(Page.STOCKS, (items, out) -> process(STOCKS, Map.of("items", items), out),
                        fragments("stocks", "s"));
    }

    private static Configuration configuration() {
        // incompatibleImprovements pinned to the version built against, as FreeMarker asks: it selects the fixed
        // behaviours (2.3.33+: records' accessors are properties, so p.title calls title()), and pinning it keeps
        // the output the same when the library is upgraded. Raise it together with freemarker.version.
        Configuration cfg = new Configuration(Configuration.VERSION_2_3_35);
        cfg.setClassForTemplateLoading(FreeMarkerEngine.class, "/templates/freemarker");
        cfg.setDefaultEncoding("UTF-8");   // the default is the platform's encoding; the templates are UTF-8
        DefaultObjectWrapperBuilder wrapper = new DefaultObjectWrapperBuilder(Configuration.VERSION_2_3_35);
        // Departs from the default: without it <#list> refuses a plain Iterable (not a Collection), and the page
        // must render over the blocking Iterable itself, never a copy. The Iterable is iterated once.
        wrapper.setIterableSupport(true);
        cfg.setObjectWrapper(wrapper.build());
        // Departs from the default ("number", locale-dependent with grouping: "1,234.5", or "39,26" in a German
        // JVM): "c" prints numbers as the other engines do (39.26, 20), whatever the JVM's locale.
        cfg.setNumberFormat("c");
        // Departs from the default (DEBUG_HANDLER, which writes a stack trace into the page before rethrowing):
        // a failing render must fail the response, not serve an error inside the HTML.
        cfg.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        // Kept: .ftlh templates use the HTML output format (auto-escaping; the summaries are ?no_esc), the
        // template cache (each template is parsed once and shared: Template is thread-safe once built).
        return cfg;
    }

    @Override
    public String id() {
        return "freemarker";
    }

    @Override
    public String description() {
        return "FreeMarker {org.freemarker:freemarker} (FTL templates interpreted at run time; blocking;"
                + " renders one item late)";
    }

    @Override
    public Streaming streaming() {
        // IteratorBlock.IterationContext.executedNestedContentForCollOrSeqListing: next(), then hasNext() (for
        // ?has_next), then the loop body
        return Streaming.lookahead(1);
    }

    /**
     * One macro of the page's library each: a template of one import and one macro call, parsed once. The item
     * macro takes the item as its parameter, handed in as the only variable of a fresh data model.
     */
    private static <T> Templates.Fragments<T> fragments(String page, String itemVariable) {
        Template head = call(page, "head", "");
        Template item = call(page, "item", " " + itemVariable);
        Template tail = call(page, "tail", "");
        return Templates.Fragments.of(
                out -> process(head, Map.of(), out),
                (value, out) -> process(item, Map.of(itemVariable, value), out),
                out -> process(tail, Map.of(), out));
    }

    private static Template call(String page, String macro, String arguments) {
        String source = "<#import \"" + page + "-parts.ftlh\" as parts><@parts." + macro + arguments + "/>";
        try {
            // Named like the page (.ftlh): the same HTML output format, and the import resolves beside it.
            return new Template(page + "-" + macro + ".ftlh", source, Compiled.FREEMARKER);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Template template(String name) {
        try {
            return Compiled.FREEMARKER.getTemplate(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Renders with a data model of this render only (FreeMarker wraps it per call: nothing is shared). */
    private static void process(Template template, Map<String, ?> model, Writer out) throws IOException {
        try {
            template.process(model, out);
        } catch (TemplateException e) {
            throw new IllegalStateException("freemarker: " + template.getName() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }
}
