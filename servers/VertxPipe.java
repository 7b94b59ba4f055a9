package servers;

import model.ChunkSink;
import io.vertx.core.Promise;

import java.util.ArrayDeque;

/**
 * Chunks from a render's thread to the virtual-thread handler that writes them, then the render's end: END, or
 * the failure, for {@link VertxServer}'s virtual-thread handler. The handler waits with {@code Future.await}, never with a JDK
 * blocking call (see VertxServer's class comment); the render's thread never waits (a page is small, and the render is paced by its data source).
 */
final class VertxPipe implements ChunkSink {
    static final Object END = new Object();
    private final ArrayDeque<Object> items = new ArrayDeque<>();
    private Promise<Void> waiting;

    @Override
    public void chunk(byte[] bytes) {
        offer(bytes);
    }

    void end(Throwable failure) {
        offer(failure == null ? END : failure);
    }

    private void offer(Object item) {
        Promise<Void> wake;
        synchronized (this) {
            items.add(item);
            wake = waiting;
            waiting = null;
        }
        if (wake != null) {
            wake.complete();
        }
    }

    /** The next item, awaiting it if there is none yet. */
    Object take() {
        while (true) {
            Promise<Void> next;
            synchronized (this) {
                Object item = items.poll();
                if (item != null) {
                    return item;
                }
                next = Promise.promise();
                waiting = next;
            }
            next.future().await();
        }
    }
}
