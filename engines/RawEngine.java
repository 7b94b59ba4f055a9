package engines;

import model.Engine;
import model.Page;
import model.Templates;
import modes.ReactiveMode;

import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;

/**
 * The baseline, not a template engine: it writes the page's precomputed markup, the head at once and the i-th
 * item's piece when the i-th item arrives, through the same flush policy, server and data source as the engines.
 * What it costs is the server's and the data source's share of a page, so its throughput is the ceiling that
 * {@code bench} divides every engine's by.
 */
public final class RawEngine implements Engine {

    private final Engine reference;
    private final Map<Page<?>, List<String>> segments = new ConcurrentHashMap<>();
    private final Map<Page<?>, Map<Object, String>> pieces = new ConcurrentHashMap<>();
    private final Templates templates = Templates.of("raw");

    /**
     * @param reference the template engine whose rendering is replayed, piece by piece (verify checks that every
     *                  engine, this one included, serves exactly the same bytes)
     */
    public RawEngine(Engine reference) {
        this.reference = reference;
        for (Page<?> page : Page.values()) {
            register(page);
        }
    }

    private <T> void register(Page<T> page) {
        templates.add(page, (items, out) -> write(segments(page), items, out), Templates.Fragments.of(
                        out -> out.write(segments(page).get(0)),
                        (item, out) -> out.write(pieceOf(page, item)),
                        out -> out.write(segments(page).get(segments(page).size() - 1))))
                .add(ReactiveMode.nonBlocking(page), (items, out) -> writeAsync(segments(page), items, out));
    }

    /**
     * An item's piece, found by identity: the data source emits the page's own item objects, and a piece is
     * precomputed for each, so a fragment costs a lookup like the blocking replay's counter.
     */
    private String pieceOf(Page<?> page, Object item) {
        String piece = pieces.computeIfAbsent(page, p -> {
            Map<Object, String> byItem = new java.util.IdentityHashMap<>();
            for (int i = 0; i < p.items().size(); i++) {
                byItem.put(p.items().get(i), segments(p).get(i + 1));
            }
            return byItem;
        }).get(item);
        if (piece == null) {
            throw new IllegalStateException("not an item of " + page.id() + ": " + item);
        }
        return piece;
    }

    /** The page cut into its head, a piece per item and its tail; rendered on first use, then kept. */
    private List<String> segments(Page<?> page) {
        return segments.computeIfAbsent(page, p -> p.segments(reference.render(p)));
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
    public Templates templates() {
        return templates;
    }

    @Override
    public boolean baseline() {
        return true;
    }

    private static void write(List<String> pieces, Iterable<?> items, Writer out) throws IOException {
        out.write(pieces.get(0));
        int next = 1;
        for (Object ignored : items) {   // the item's value is already in its precomputed piece
            out.write(piece(pieces, next++));
        }
        out.write(tail(pieces, next));
    }

    private static CompletableFuture<Void> writeAsync(List<String> pieces, Observable<?> items, Appendable out) {
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
