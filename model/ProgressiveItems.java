package model;

import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.disposables.Disposable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;

/**
 * The items of a page as a blocking engine sees them: {@link Observable#blockingIterable()}, with the flush policy
 * applied at the one place a blocking renderer waits for data: {@link #hasNext()} first flushes everything
 * rendered so far, then blocks until the next item (or the end) arrives.
 *
 * <p>Single use: an engine iterates it once. {@link #close()} (or {@link #cancel()} from another thread)
 * disposes the subscription, so an abandoned render never leaves a live timer behind.
 */
public final class ProgressiveItems<T> implements Iterable<T>, AutoCloseable {

    private final Observable<T> source;
    private final ChunkWriter out;
    private volatile Iterator<T> iterator;
    private volatile boolean cancelled;

    public ProgressiveItems(Observable<T> source, ChunkWriter out) {
        this.source = source;
        this.out = out;
    }

    /**
     * The engine's blocking template over the page's items, on the calling thread until the page is rendered (the
     * blocking modes' way): each wait for an item flushes first, and cancelling the render wakes it and fails it.
     */
    public static <T> void renderBlocking(Render render, Page<T> page) throws IOException {
        try (ProgressiveItems<T> items = new ProgressiveItems<>(render.items(page), render.out())) {
            render.whenCancelled(items::cancel);
            render.templates().blocking(page).render(items, render.out());
        }
    }

    @Override
    public Iterator<T> iterator() {
        if (iterator != null) {
            throw new IllegalStateException("the items of a page can be iterated once");
        }
        Iterator<T> items = source.blockingIterable().iterator();   // subscribes now
        iterator = items;
        if (cancelled) {
            dispose(items);
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    out.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                boolean more = items.hasNext();
                if (cancelled) {   // a disposed iterator reports "no more items": never render the tail then
                    throw new CancellationException("render cancelled: the client has gone");
                }
                return more;
            }

            @Override
            public T next() {
                if (!hasNext()) {   // an engine that calls next() alone still flushes before it waits
                    throw new NoSuchElementException();
                }
                return items.next();
            }
        };
    }

    /** Stops the render from another thread: a renderer waiting for an item wakes up and fails. */
    public void cancel() {
        cancelled = true;
        Iterator<T> items = iterator;
        if (items != null) {
            dispose(items);
        }
    }

    @Override
    public void close() {
        Iterator<T> items = iterator;
        if (items != null) {
            dispose(items);
        }
    }

    private static void dispose(Iterator<?> items) {
        if (items instanceof Disposable d) {   // RxJava's BlockingObservableIterator
            d.dispose();
        }
    }
}
