package modes;

import core.Engine;
import core.Mode;
import core.Render;
import core.Streaming;
import core.Workers;

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
    public boolean supports(Engine engine) {
        return true;   // every engine renders over a blocking Iterable
    }

    @Override
    public Streaming streaming(Engine engine) {
        return engine.streaming();   // over the blocking Iterable, as the engine reads it
    }

    @Override
    public CompletableFuture<Void> start(Render render, boolean here, Workers workers) {
        return Mode.blocking(render::blocking, here && Thread.currentThread().isVirtual(), workers.virtual());
    }
}
