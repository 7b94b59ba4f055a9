package core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * How a page render is scheduled and fed: one small file per mode in modes/ plus one line in cli/Registry.java. A
 * mode never names a server: servers only carry chunks ({@link Site#streamHere}, {@link Site#streamLater}), and
 * what a mode means on a given server follows from the server's threads ({@link Server#handlerThreads}).
 */
public interface Mode {

    /** The threads a render runs on. */
    enum Runs {
        /** A blocking render on a virtual thread. */
        VIRTUAL,
        /** A blocking render on the platform pool of {@code --threads}. */
        PLATFORM,
        /** A non-blocking render on the data source's threads, as items are emitted: no thread waits for data. */
        CALLBACKS
    }

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /** One line for help and the README. */
    String summary();

    Runs runs();

    /** Whether the engine can render in this mode: what it needs is what the engine provides. */
    boolean supports(Engine engine);

    /**
     * How the page's items reach the client with this engine in this mode: what {@code verify} checks and the README
     * reports (a blocking mode inherits the engine's {@link Engine#streaming()}).
     */
    Streaming streaming(Engine engine);

    /**
     * Whether the page is rendered whole to memory and then sent with {@code Content-Length} (classic server-side
     * rendering), instead of streamed in chunks.
     */
    default boolean wholePage() {
        return false;
    }

    /**
     * Starts one render. {@code here}: the calling thread is a request handler that may run the render itself if it
     * is of the kind this mode wants (the server waits for the page on it); otherwise the render goes to
     * {@code workers}. Returns when the render has been started (or, when it ran here, finished).
     */
    CompletableFuture<Void> start(Render render, boolean here, Workers workers);

    /** A blocking render ({@code render}): on the calling thread when {@code inline}, else on {@code elsewhere}. */
    static CompletableFuture<Void> blocking(Runnable render, boolean inline, Executor elsewhere) {
        if (inline) {
            render.run();
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(render, elsewhere);
    }
}
