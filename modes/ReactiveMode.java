package modes;

import core.Engine;
import core.Mode;
import core.Render;
import core.Streaming;
import core.Workers;

import java.util.concurrent.CompletableFuture;

/** The engine's non-blocking API renders each item as the Observable emits it, on RxJava's threads. */
public final class ReactiveMode implements Mode {

    @Override
    public String id() {
        return "reactive";
    }

    @Override
    public String summary() {
        return "the engine's async API renders each item as the Observable emits it; no thread waits for data";
    }

    @Override
    public Runs runs() {
        return Runs.CALLBACKS;
    }

    @Override
    public boolean supports(Engine engine) {
        return engine.nonBlocking();
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.PROGRESSIVE;   // the engine renders each item when it is emitted
    }

    @Override
    public CompletableFuture<Void> start(Render render, boolean here, Workers workers) {
        return render.reactive();
    }
}
