package core;

/**
 * How a page is rendered, and what that needs: one small file per mode in modes/ plus one line in
 * cli/Registry.java. A mode owns its render algorithm ({@link Render.Algorithm}, through {@link Render}'s small
 * API) and declares the thread it renders on and whether the page goes whole; how a server serves it follows from
 * the plan of the combination ({@link Serving}), which neither the mode nor the server writes per pair.
 */
public interface Mode extends Render.Algorithm {

    /** The threads a render runs on. */
    enum Runs {
        /** A blocking render on a virtual thread. */
        VIRTUAL,
        /** A blocking render on the platform pool of {@code --threads}. */
        PLATFORM,
        /** A non-blocking render on the data source's threads, as items are emitted: no thread waits for data. */
        CALLBACKS,
        /**
         * A suspendable render in a Kotlin coroutine: it suspends while it waits for the next item and is resumed
         * when the data source emits it, so no thread waits for data. Resumed in place on the emitting thread
         * (Dispatchers.Unconfined), so it runs on the data source's threads as {@link #CALLBACKS} does, with no
         * thread of its own; a mode on another dispatcher would be a value of its own.
         */
        COROUTINE;

        /** Whether the render returns at once and goes on as the data source emits (callbacks or a coroutine). */
        public boolean onEmission() {
            return this == CALLBACKS || this == COROUTINE;
        }
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
     * rendering), instead of streamed in chunks. Its render sends one chunk ({@link ChunkWriter#hold()}).
     */
    default boolean wholePage() {
        return false;
    }
}
