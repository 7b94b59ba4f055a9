package engines;

import core.Engine;
import core.Page;
import core.Presentation;
import core.Reference;
import core.Registry;
import core.Stock;
import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.io.Writer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The baseline, not a template engine: it writes the page's precomputed markup, the head at once and the i-th
 * item's piece when the i-th item arrives, through the same flush policy, server and data source as the engines.
 * What it costs is the server's and the data source's share of a page, so its throughput is the ceiling that
 * {@code bench} divides every engine's by.
 */
public final class RawEngine implements Engine {

    /** Computed on first use, not at class initialisation: the registry that lists this engine is needed. */
    private static final class Segments {
        static final Map<Page, List<String>> BY_PAGE = compute();

        private static Map<Page, List<String>> compute() {
            // The first template engine of the registry renders the bytes once; verify checks that every engine,
            // this one included, serves exactly the same bytes.
            Engine template = Registry.ENGINES.stream().filter(e -> !e.baseline()).findFirst().orElseThrow();
            Map<Page, List<String>> all = new EnumMap<>(Page.class);
            for (Page page : Page.values()) {
                all.put(page, page.segments(Reference.render(page, template)));
            }
            return all;
        }
    }

    @Override
    public String id() {
        return "raw";
    }

    @Override
    public String description() {
        return "Baseline, no template engine: the page's precomputed bytes, one piece per item as it arrives";
    }

    @Override
    public boolean nonBlocking() {
        return true;
    }

    @Override
    public boolean baseline() {
        return true;
    }

    @Override
    public void presentations(Iterable<Presentation> items, Writer out) throws IOException {
        write(Page.PRESENTATIONS, items, out);
    }

    @Override
    public void stocks(Iterable<Stock> items, Writer out) throws IOException {
        write(Page.STOCKS, items, out);
    }

    @Override
    public CompletableFuture<Void> presentationsAsync(Observable<Presentation> items, Appendable out) {
        return writeAsync(Page.PRESENTATIONS, items, out);
    }

    @Override
    public CompletableFuture<Void> stocksAsync(Observable<Stock> items, Appendable out) {
        return writeAsync(Page.STOCKS, items, out);
    }

    private static void write(Page page, Iterable<?> items, Writer out) throws IOException {
        List<String> pieces = Segments.BY_PAGE.get(page);
        out.write(pieces.get(0));
        int next = 1;
        for (Object ignored : items) {   // the item's value is already in its precomputed piece
            out.write(piece(pieces, next++));
        }
        out.write(tail(pieces, next));
    }

    private static CompletableFuture<Void> writeAsync(Page page, Observable<?> items, Appendable out) {
        List<String> pieces = Segments.BY_PAGE.get(page);
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            out.append(pieces.get(0));   // before subscribing: the subscription flushes the head
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        int[] next = {1};
        items.subscribe(item -> out.append(piece(pieces, next[0]++)), done::completeExceptionally, () -> {
            try {
                out.append(tail(pieces, next[0]));
                done.complete(null);
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static String piece(List<String> pieces, int index) {
        if (index >= pieces.size() - 1) {
            throw new IllegalStateException("more items than the page has (" + (pieces.size() - 2) + ")");
        }
        return pieces.get(index);
    }

    private static String tail(List<String> pieces, int next) {
        if (next != pieces.size() - 1) {
            throw new IllegalStateException((next - 1) + " items, the page has " + (pieces.size() - 2));
        }
        return pieces.get(pieces.size() - 1);
    }
}
