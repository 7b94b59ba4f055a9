package engines;

import model.Engine;
import model.Page;
import model.Presentation;
import model.Stock;
import model.Templates;

import io.jstach.jstache.JStache;
import io.jstach.jstache.JStacheConfig;
import io.jstach.jstachio.escapers.PlainText;


/**
 * JStachio: Mustache templates compiled to Java by an annotation processor at build time. Its generated loop asks
 * for the next item only after writing the current one, so it is progressive over a blocking Iterable.
 *
 * <p>Each page is three Mustache partials (head, item, tail), which JStachio inlines at compile time: the page
 * template includes them around its loop, and the fragments are templates of their own over the same partials.
 */
public final class JStachioEngine implements Engine {

    private static final String DIR = "templates/jstachio/";

    @JStache(path = DIR + "presentations.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsModel(Iterable<Presentation> items) {
    }

    @JStache(path = DIR + "stocks.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksModel(Iterable<Stock> items) {
    }

    // ---- the fragments: the same partials the pages include ----

    @JStache(path = DIR + "presentations-head.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsHead() {
    }

    /** The item partial is written for the loop's context (the item itself), so it is entered as a section. */
    @JStache(template = "{{#item}}{{>" + DIR + "presentations-item.mustache}}{{/item}}")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsItem(Presentation item) {
    }

    @JStache(path = DIR + "presentations-tail.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsTail() {
    }

    @JStache(path = DIR + "stocks-head.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksHead() {
    }

    @JStache(template = "{{#item}}{{>" + DIR + "stocks-item.mustache}}{{/item}}")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksItem(Stock item) {
    }

    @JStache(path = DIR + "stocks-tail.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksTail() {
    }

    @Override
    public String id() {
        return "jstachio";
    }

    @Override
    public String description() {
        return "JStachio {io.jstach:jstachio} (Mustache compiled by an annotation processor; blocking)";
    }

    private static final Templates TEMPLATES = Templates.of("jstachio")
            .add(Page.PRESENTATIONS,
                    (items, out) -> PresentationsModelRenderer.of().execute(new PresentationsModel(items), out),
                    Templates.Fragments.of(
                            out -> PresentationsHeadRenderer.of().execute(new PresentationsHead(), out),
                            (p, out) -> PresentationsItemRenderer.of().execute(new PresentationsItem(p), out),
                            out -> PresentationsTailRenderer.of().execute(new PresentationsTail(), out)))
            .add(Page.STOCKS,
                    (items, out) -> StocksModelRenderer.of().execute(new StocksModel(items), out),
                    Templates.Fragments.of(
                            out -> StocksHeadRenderer.of().execute(new StocksHead(), out),
                            (s, out) -> StocksItemRenderer.of().execute(new StocksItem(s), out),
                            out -> StocksTailRenderer.of().execute(new StocksTail(), out)));

    @Override
    public Templates templates() {
        return TEMPLATES;
    }
}
