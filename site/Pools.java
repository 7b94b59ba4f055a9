package site;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Thread pools for the modes, named so that thread dumps and thread counts are readable. */
public final class Pools {

    private Pools() {
    }

    /**
     * The platform pool of the blocking mode: a fixed size with every thread started up front, so the thread
     * count is flat during a measurement (a lazily growing pool would add a thread per request up to its size).
     * Requests beyond the pool size queue, as on a servlet container.
     */
    public static ExecutorService platform(int threads, String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), Thread.ofPlatform().name(name + "-", 0).daemon(true).factory());
        pool.prestartAllCoreThreads();
        return pool;
    }

    /** A new virtual thread per render. */
    public static ExecutorService virtual(String name) {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-", 0).factory());
    }
}
