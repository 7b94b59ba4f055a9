package core;

import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.CompletableFuture;

/**
 * A template engine plug-in: one file in engines/ plus one line in {@link Registry}.
 *
 * <p>Every engine renders both pages to exactly the same bytes. Blocking renders pull items from an
 * {@link Iterable} that blocks until the next item arrives (and flushes before it does, see
 * {@link ChunkWriter}); an engine must write each item's markup before asking for the next one if it is to be
 * progressive. Engines with a non-blocking API ({@link #nonBlocking()}) also implement the {@code *Async} methods.
 */
public interface Engine {

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /** One line for help and the README: library, version and style. */
    String description();

    /**
     * Whether the engine has a non-blocking API (the {@code *Async} methods): the modes that render as items are
     * emitted need one. Which modes an engine supports follows from this ({@link Mode#supports}).
     */
    default boolean nonBlocking() {
        return false;
    }

    /**
     * How many items the engine reads ahead of the markup it writes over a blocking Iterable: 0 for an engine that
     * writes each item before asking for the next, 1 for one whose loop calls {@code hasNext()} before rendering
     * the current item (so each item's markup goes out when the next item arrives). The tests measure it.
     */
    default int lookahead() {
        return 0;
    }

    /**
     * True for a baseline that renders no template: its throughput is the server's ceiling, against which
     * {@code bench} reports every engine's ({@code ceiling_fraction}).
     */
    default boolean baseline() {
        return false;
    }

    void presentations(Iterable<Presentation> items, Writer out) throws IOException;

    void stocks(Iterable<Stock> items, Writer out) throws IOException;

    /**
     * Non-blocking render: write the head at once, each item's markup when the Observable emits it, and the tail
     * on completion, then complete the future. If the Observable fails, complete the future exceptionally and
     * never write the tail.
     */
    default CompletableFuture<Void> presentationsAsync(Observable<Presentation> items, Appendable out) {
        throw new UnsupportedOperationException(id() + " has no non-blocking API");
    }

    default CompletableFuture<Void> stocksAsync(Observable<Stock> items, Appendable out) {
        throw new UnsupportedOperationException(id() + " has no non-blocking API");
    }
}
