package modes;

import model.Engine;
import model.Mode;
import model.ProgressiveItems;
import model.Render;
import model.Streaming;
import model.TemplateKind;
import model.Templates;

import java.io.IOException;
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
    public TemplateKind needs() {
        return Templates.BLOCKING;   // every engine renders over a blocking Iterable
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.AFTER_DATA;
    }

    @Override
    public boolean wholePage() {
        return true;
    }

    /**
     * The blocking render into memory: every flush is held until the end, then the whole page goes to the server
     * as one chunk (a failed page sends nothing).
     */
    @Override
    public CompletableFuture<Void> render(Render render) throws IOException {
        render.out().hold();
        ProgressiveItems.renderBlocking(render, render.page());
        render.out().release();
        return CompletableFuture.completedFuture(null);
    }
}
