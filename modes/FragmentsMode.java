package modes;

import core.Engine;
import core.Mode;
import core.Render;
import core.Streaming;
import core.Workers;

import java.util.concurrent.CompletableFuture;

/**
 * Non-blocking rendering for any engine: the engine renders the page's head at once, one fragment per item when
 * the Observable emits it, and the tail on completion, each through its own way of rendering a part of a template
 * (core.Templates.Fragments). No thread waits for data, whatever the engine.
 */
public final class FragmentsMode implements Mode {

    @Override
    public String id() {
        return "fragments";
    }

    @Override
    public String summary() {
        return "any engine renders the head at once, each item's fragment as it is emitted, the tail at the end;"
                + " no thread waits for data";
    }

    @Override
    public Runs runs() {
        return Runs.CALLBACKS;
    }

    @Override
    public boolean supports(Engine engine) {
        return true;   // every engine registers its fragments (core.Templates.add requires them)
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.PROGRESSIVE;   // a fragment per emitted item: no engine loop reads ahead here
    }

    @Override
    public CompletableFuture<Void> start(Render render, boolean here, Workers workers) {
        return render.fragments();
    }
}
