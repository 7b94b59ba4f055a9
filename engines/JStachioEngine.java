package engines;

import core.Engine;
import core.Presentation;
import core.Stock;
import io.jstach.jstache.JStache;
import io.jstach.jstache.JStacheConfig;
import io.jstach.jstachio.escapers.PlainText;

import java.io.IOException;
import java.io.Writer;

/**
 * JStachio: Mustache templates compiled to Java by an annotation processor at build time. Its generated loop asks
 * for the next item only after writing the current one, so it is progressive over a blocking Iterable.
 */
public final class JStachioEngine implements Engine {

    @JStache(path = "templates/presentations.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record PresentationsModel(Iterable<Presentation> items) {
    }

    @JStache(path = "templates/stocks.mustache")
    @JStacheConfig(contentType = PlainText.class)
    public record StocksModel(Iterable<Stock> items) {
    }

    @Override
    public String id() {
        return "jstachio";
    }

    @Override
    public String description() {
        return "JStachio 1.3 (Mustache compiled by an annotation processor; blocking)";
    }

    @Override
    public void presentations(Iterable<Presentation> items, Writer out) throws IOException {
        PresentationsModelRenderer.of().execute(new PresentationsModel(items), out);
    }

    @Override
    public void stocks(Iterable<Stock> items, Writer out) throws IOException {
        StocksModelRenderer.of().execute(new StocksModel(items), out);
    }
}
