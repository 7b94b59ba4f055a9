package modes;

import core.Engine;
import core.Mode;
import core.Render;
import core.Streaming;
import core.Workers;

import java.util.concurrent.CompletableFuture;

/**
 * Classic server-side rendering, the baseline that progressive rendering is measured against: the engine renders
 * the whole page to memory on a virtual thread (the request's own when the server has one), and the page is sent
 * at once with {@code Content-Length} after the last item.
 */
public final class BufferedMode implements Mode {

    @Override
    public String id() {
        return "buffered";
    }

    @Override
    public String summary() {
        return "classic SSR, the baseline: the whole page is rendered to memory on a virtual thread, then sent at"
                + " once with Content-Length";
    }

    @Override
    public Runs runs() {
        return Runs.VIRTUAL;
    }

    @Override
    public boolean supports(Engine engine) {
        return true;   // every engine renders over a blocking Iterable
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.AFTER_DATA;
    }

    @Override
    public boolean wholePage() {
        return true;
    }

    @Override
    public CompletableFuture<Void> start(Render render, boolean here, Workers workers) {
        return Mode.blocking(render::buffered, here && Thread.currentThread().isVirtual(), workers.virtual());
    }
}
