package engines;

import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.qute.ValueResolvers;
import io.quarkus.qute.Variant;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * Qute (standalone, without Quarkus): text templates interpreted at run time. A render first resolves the whole
 * template into a tree of results and only then writes them out, so over a blocking Iterable nothing of the page,
 * not even the head, goes out before the last item has arrived: the README reports it as not progressive.
 *
 * <p>Each page names its parts as fragments ({@code {#fragment id=head}}, {@code item} inside the loop,
 * {@code tail}), which render in place in the page; the fragments mode renders each one alone
 * ({@link Template#getFragment}), the item with the loop's variable, so there Qute streams like every engine.
 */
public final class QuteEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        static final io.quarkus.qute.Engine QUTE = io.quarkus.qute.Engine.builder()
                .addDefaults()
                // Not in addDefaults(): record accessors (p.title), and .raw for the summaries.
                .addValueResolver(new ReflectionValueResolver())
                .addValueResolver(ValueResolvers.rawResolver())
                // Not in addDefaults() either: HTML escaping of every expression in text/html templates.
                .addResultMapper(new HtmlEscaper(List.of(Variant.TEXT_HTML)))
                // Kept: the default 10 s rendering timeout. It cannot fail a slow page here: a render over a blocking
                // Iterable resolves synchronously on the calling thread, so consume() (like render()) returns an
                // already completed result, and the timeout is only applied to that result afterwards
                // (TemplateImpl.TemplateInstanceImpl.consume: orTimeout on the finished future). Measured: a 5 s
                // render under a 1 s timeout completed.
                .build();
        static final Template PRESENTATIONS = load("presentations");
        static final Template STOCKS = load("stocks");
        static final Templates TEMPLATES = Templates.of("qute")
                .add(Page.PRESENTATIONS, (items, out) -> write(PRESENTATIONS.data("items", items), out),
                        fragments(PRESENTATIONS, "p"))
                .add(Page.STOCKS, (items, out) -> write(STOCKS.data("items", items), out),
                        fragments(STOCKS, "s"));
    }

    private static Template load(String page) {
        String name = "templates/qute/" + page + ".html";
        try (InputStream in = QuteEngine.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("qute: no template " + name + " on the class path");
            }
            return Compiled.QUTE.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    Variant.forContentType(Variant.TEXT_HTML), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String id() {
        return "qute";
    }

    @Override
    public String description() {
        return "Qute {io.quarkus.qute:qute-core} (text templates interpreted at run time; blocking; renders the"
                + " page after its last item)";
    }

    @Override
    public Streaming streaming() {
        // LoopSectionHelper.resolve drains the iterator into a list of results before the tree is written, and
        // TemplateImpl.renderData writes the tree only once the whole template has resolved.
        return Streaming.AFTER_DATA;
    }

    private static <T> Templates.Fragments<T> fragments(Template template, String itemVariable) {
        Template.Fragment head = template.getFragment("head");
        Template.Fragment item = template.getFragment("item");
        Template.Fragment tail = template.getFragment("tail");
        return Templates.Fragments.of(
                out -> write(head.instance(), out),
                (value, out) -> write(item.data(itemVariable, value), out),
                out -> write(tail.instance(), out));
    }

    /** Renders one template instance (single use) into the Writer, piece by piece as Qute hands them over. */
    private static void write(TemplateInstance instance, Writer out) throws IOException {
        try {
            instance.consume(piece -> {
                try {
                    out.write(piece);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toCompletableFuture().join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw cause instanceof RuntimeException r ? r : e;
        }
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }
}
