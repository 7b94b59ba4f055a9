package model;

/**
 * How a page is rendered, and what that needs: one small file per mode in modes/ plus one line in
 * cli/Registry.java. A mode owns its render algorithm ({@link Render.Algorithm}, through {@link Render}'s small
 * API) and declares as data the kind of template it renders with, the thread it renders on and whether the page
 * goes whole; which engines it runs with follows from the kinds they offer ({@link #supports}), and how a server
 * serves it from the plan of the combination ({@link Serving}), neither written per pair.
 */
public interface Mode extends Render.Algorithm {

    /**
     * Where a render runs: what a mode declares, and what the plan of a combination says ({@link Serving#renderOn},
     * with {@link Serving#onHandler} when it is the handler's own thread). The one notion of it, so the site, the
     * servers and the README's prose read the same thing.
     */
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

        /**
         * Whether the render returns at once and goes on as the data source emits (callbacks or a coroutine), so its
         * threads must never block on a socket.
         */
        public boolean onEmission() {
            return this == CALLBACKS || this == COROUTINE;
        }
    }

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /** One line for help and the README. */
    String summary();

    Runs runs();

    /** The kind of template the mode renders with: the model's ({@link Templates#BLOCKING}) or one of its own. */
    TemplateKind needs();

    /** Whether the engine can render in this mode: it offers the mode's kind of template for every page. */
    default boolean supports(Engine engine) {
        return engine.templates().offers(needs());
    }

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
