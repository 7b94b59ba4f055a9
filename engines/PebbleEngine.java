package engines;

import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;

import io.pebbletemplates.pebble.template.PebbleTemplate;

import java.util.Map;

/**
 * Pebble: text templates interpreted at run time. Its {@code for} loop calls {@code hasNext()} before rendering the
 * current item (to know {@code loop.last}), so over a blocking Iterable each item's markup goes out one item late:
 * the README reports the measured lag instead of hiding it.
 */
public final class PebbleEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        // Defaults kept: HTML auto-escaping on (the summaries are marked "raw" in the template), template cache on.
        static final io.pebbletemplates.pebble.PebbleEngine PEBBLE =
                new io.pebbletemplates.pebble.PebbleEngine.Builder().build();
        static final PebbleTemplate PRESENTATIONS = PEBBLE.getTemplate("templates/pebble/presentations.peb");
        static final PebbleTemplate STOCKS = PEBBLE.getTemplate("templates/pebble/stocks.peb");
        // Each page names its parts as blocks (head, item, tail), which a template without a parent renders in place;
        // the fragments render one block each with evaluateBlock, the item block with the loop's variable.
        static final Templates TEMPLATES = Templates.of("pebble")
                .add(Page.PRESENTATIONS, (items, out) -> PRESENTATIONS.evaluate(out, Map.of("items", items)),
                        fragments(PRESENTATIONS, "p"))
                .add(Page.STOCKS, (items, out) -> STOCKS.evaluate(out, Map.of("items", items)),
                        fragments(STOCKS, "s"));
    }

    @Override
    public String id() {
        return "pebble";
    }

    @Override
    public String description() {
        return "Pebble {io.pebbletemplates:pebble} (text templates interpreted at run time; blocking; renders one item late)";
    }

    @Override
    public Streaming streaming() {
        return Streaming.lookahead(1);   // ForNode.render: next(), then hasNext() for loop.last, then the body
    }

    private static <T> Templates.Fragments<T> fragments(PebbleTemplate template, String itemVariable) {
        return Templates.Fragments.of(
                out -> template.evaluateBlock("head", out, Map.of()),
                (item, out) -> template.evaluateBlock("item", out, Map.of(itemVariable, item)),
                out -> template.evaluateBlock("tail", out, Map.of()));
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }
}
