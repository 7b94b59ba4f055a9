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

/** A blocking engine renders on a virtual thread: the request's own when the server has one, else a new one. */
public final class VirtualMode implements Mode {

    @Override
    public String id() {
        return "virtual";
    }

    @Override
    public String summary() {
        return "a blocking engine renders on a virtual thread";
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
        return engine.streaming();   // over the blocking Iterable, as the engine reads it
    }

    @Override
    public CompletableFuture<Void> render(Render render) throws IOException {
        ProgressiveItems.renderBlocking(render, render.page());
        return CompletableFuture.completedFuture(null);
    }
}
