package engines;

import core.Engine;
import core.Templates;
import core.Page;
import core.Presentation;
import core.Stock;
import io.jstach.jstache.JStache;
import io.jstach.jstache.JStacheConfig;
import io.jstach.jstachio.escapers.PlainText;


/**
 * JStachio: Mustache templates compiled to Java by an annotation processor at build time. Its generated loop asks
 * for the next item only after writing the current one, so it is progressive over a blocking Iterable.
 */
public final class JStachioEngine implements Engine {

    @JStache(path = "templates/jstachio/presentations.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsModel(Iterable<Presentation> items) {
    }

    @JStache(path = "templates/jstachio/stocks.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksModel(Iterable<Stock> items) {
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
            .add(Page.PRESENTATIONS, (items, out) -> PresentationsModelRenderer.of()
                    .execute(new PresentationsModel(items), out))
            .add(Page.STOCKS, (items, out) -> StocksModelRenderer.of().execute(new StocksModel(items), out));

    @Override
    public Templates templates() {
        return TEMPLATES;
    }
}
