package engines;

import model.Engine;
import model.Page;
import model.Templates;
import site.Logs;

import org.trimou.Mustache;
import org.trimou.engine.MustacheEngine;
import org.trimou.engine.MustacheEngineBuilder;
import org.trimou.engine.locator.ClassPathTemplateLocator;
import org.trimou.handlebars.HelpersBuilder;

import java.util.Map;

/**
 * Trimou: Mustache templates (with Handlebars-style helpers) interpreted at run time. The pages loop with the
 * {@code each} helper over an Iterator, which writes each item before asking for the next, so it is progressive
 * over a blocking Iterable, and walks it once.
 *
 * <p>Why not a plain {@code {{#items}}} section, as the published app's Trimou template had: Trimou's
 * SectionSegment.processIterable first counts the Iterable (Iterables.size walks a non-Collection to its end) for
 * the iteration metadata, then iterates it again. Over a blocking Iterable that holds the whole page until the
 * data has ended and subscribes to the data a second time (a single-use Iterable throws). The {@code each} helper
 * also counts an Iterable, even with omitMeta=true (EachHelper.execute calls getSize first), but not an Iterator,
 * which it walks once without metadata: so the model hands the template {@code items.iterator()}.
 *
 * <p>Each page is three Mustache partials (head, item, tail): the page template includes them around its loop, and
 * the fragments render each partial alone as a template, the item with the item as its context.
 */
public final class TrimouEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        static final MustacheEngine TRIMOU = build();
        static final Mustache PRESENTATIONS = TRIMOU.getMustache("presentations");
        static final Mustache STOCKS = TRIMOU.getMustache("stocks");
        // A fresh data map per render: Trimou builds a fresh execution context from it for each render call.
        static final Templates TEMPLATES = Templates.of("trimou")
                .add(Page.PRESENTATIONS,
                        (items, out) -> PRESENTATIONS.render(out, Map.of("items", items.iterator())),
                        fragments("presentations"))
                .add(Page.STOCKS,
                        (items, out) -> STOCKS.render(out, Map.of("items", items.iterator())),
                        fragments("stocks"));
    }

    private static MustacheEngine build() {
        // Its builder and template locator log start-up banners at INFO, on every command: noise, as the servers'
        // are (site.Logs.quiet keeps warnings).
        Logs.quiet("org.trimou");
        // Departs from Trimou's defaults in one way: the each helper is registered (no helper is by default).
        // Kept: HTML escaping of {{value}} (the summaries are {{{raw}}}), the template cache (each template is
        // compiled once, and a compiled Mustache is immutable and shared by concurrent renders).
        return MustacheEngineBuilder.newBuilder()
                .addTemplateLocator(ClassPathTemplateLocator.builder()
                        .setRootPath("templates/trimou").setSuffix("mustache").build())
                .registerHelpers(HelpersBuilder.empty().addEach().build())
                .build();
    }

    @Override
    public String id() {
        return "trimou";
    }

    @Override
    public String description() {
        return "Trimou {org.trimou:trimou-core} (Mustache with helpers, interpreted at run time; blocking)";
    }

    private static <T> Templates.Fragments<T> fragments(String page) {
        Mustache head = Compiled.TRIMOU.getMustache(page + "-head");
        Mustache item = Compiled.TRIMOU.getMustache(page + "-item");
        Mustache tail = Compiled.TRIMOU.getMustache(page + "-tail");
        return Templates.Fragments.of(
                out -> head.render(out, null),
                (value, out) -> item.render(out, value),
                out -> tail.render(out, null));
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }
}
