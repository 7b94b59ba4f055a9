package site;

import java.util.concurrent.ExecutorService;

/**
 * The threads the modes render on when not on a request handler's own thread, owned by one {@link Site}: a new
 * virtual thread per render, and the platform pool of {@code --threads}, started on first use.
 */
public final class Workers implements AutoCloseable {

    private final int platformThreads;
    private final ExecutorService virtual = Pools.virtual("render");
    private ExecutorService platform;

    Workers(int platformThreads) {
        this.platformThreads = platformThreads;
    }

    public ExecutorService virtual() {
        return virtual;
    }

    /** The fixed platform pool (every thread started up front, so the thread count is flat in a measurement). */
    public synchronized ExecutorService platform() {
        if (platform == null) {
            platform = Pools.platform(platformThreads, "render");
        }
        return platform;
    }

    @Override
    public synchronized void close() {
        virtual.shutdownNow();
        if (platform != null) {
            platform.shutdownNow();
        }
    }
}
