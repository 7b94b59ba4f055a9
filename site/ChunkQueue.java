package site;

import model.ChunkSink;
import model.Render;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * Hands the chunks of a render that runs on the data source's threads (which must never block on a socket) to a
 * request handler thread that writes them, for a server with no way to answer later (Helidon Níma has no async
 * response API: the handler's virtual thread must write the whole response).
 */
final class ChunkQueue implements ChunkSink {

    private static final Object END = new Object();
    private final LinkedBlockingQueue<Object> chunks = new LinkedBlockingQueue<>();

    @Override
    public void chunk(byte[] bytes) {
        chunks.add(bytes);
    }

    /** Writes every chunk to {@code sink} on this thread until the render ends; throws how it failed. */
    void drainTo(ChunkSink sink, Render render) throws InterruptedException {
        render.done().whenComplete((v, failure) -> chunks.add(failure == null ? END : failure));
        for (Object next = chunks.take(); next != END; next = chunks.take()) {
            if (next instanceof Throwable) {
                return;   // the render failed; the caller reports its failure
            }
            try {
                sink.chunk((byte[]) next);
            } catch (Exception | Error clientGone) {
                render.clientGone(clientGone);
                return;
            }
        }
    }
}
