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
 * A blocking engine renders on a platform thread of a fixed pool of {@code --threads}: the request's own when the
 * server runs its handlers on such a pool (Jetty), else the render pool's.
 */
public final class BlockingMode implements Mode {

    @Override
    public String id() {
        return "blocking";
    }

    @Override
    public String summary() {
        return "a blocking engine renders on a fixed pool of platform threads (--threads)";
    }

    @Override
    public Runs runs() {
        return Runs.PLATFORM;
    }

    @Override
    public TemplateKind needs() {
        return Templates.BLOCKING;   // every engine renders over a blocking Iterable
    }

    @Override
    public Streaming streaming(Engine engine) {
        return engine.streaming();   // over the blocking Iterable, as the engine reads it
    }

    @Override
    public CompletableFuture<Void> render(Render render) throws IOException {
        ProgressiveItems.renderBlocking(render, render.page());
        return CompletableFuture.completedFuture(null);
    }
}
