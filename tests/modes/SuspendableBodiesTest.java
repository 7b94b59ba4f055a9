package modes;

import cli.Registry;
import model.DataSource;
import model.Page;
import model.Render;
import site.Combination;
import site.Logs;
import site.ServeConfig;
import site.Site;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suspendable mode's pages, many at once, on RxJava's io scheduler (each item on another thread): every one
 * must be the page. Under load a render was once seen to send a wrong body (bench, netty, stocks, 128 connections,
 * {@code --source-scheduler=io}: 1 in 14,287). The cause, in {@link SuspendableMode}: a resumption of the coroutine
 * that kotlinx-coroutines queues instead of running in place (Dispatchers.Unconfined queues a resumption nested in
 * another one's event loop on the same thread), so that the item was written after the emission had returned
 * while the next emission, on another thread, flushed the same writer.
 *
 * <p>The race needs an item emitted while the render's starting thread is still subscribing (RxJava's concatMap
 * then emits it on that thread, inside kotlinx's event loop) and the next one while that thread writes it; items
 * a few microseconds apart, and renders started from several threads at once, make both likely, so the renders
 * run in this JVM through the site the servers use (no sockets: more renders a second, and no server's own
 * threads in the way).
 */
class SuspendableBodiesTest {

    private static final int RENDERS = 10_000;
    private static final int STARTERS = 4;
    private static final int IN_FLIGHT = 256;
    private static final Duration DELAY = Duration.ofNanos(5_000);

    @BeforeAll
    static void setUp() {
        Logs.configure();
    }

    @Test
    void manyConcurrentRendersOnTheIoSchedulerAllSendThePage() throws Exception {
        Combination c = new Combination(Registry.server("netty"), Registry.engine("htmlflow"),
                Registry.mode("suspendable"));
        byte[] want = c.engine().render(Page.STOCKS).getBytes(StandardCharsets.UTF_8);
        ServeConfig config = ServeConfig.of(c, DELAY).withTimers(DataSource.Timers.IO);
        AtomicInteger wrong = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> example = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        CountDownLatch ended = new CountDownLatch(RENDERS);
        ExecutorService starters = Executors.newFixedThreadPool(STARTERS);
        try (Site site = config.site()) {
            for (int i = 0; i < RENDERS; i++) {
                inFlight.acquire();
                starters.execute(() -> {
                    ByteArrayOutputStream body = new ByteArrayOutputStream();
                    Render render = site.render(Page.STOCKS, bytes -> {
                        synchronized (body) {
                            body.write(bytes);
                        }
                    });
                    site.startLater(render).done().whenComplete((v, failure) -> {
                        byte[] got;
                        synchronized (body) {
                            got = body.toByteArray();
                        }
                        if (failure != null) {
                            failed.incrementAndGet();
                            example.compareAndSet(null, String.valueOf(failure));
                        } else if (!Arrays.equals(want, got)) {
                            wrong.incrementAndGet();
                            int at = Arrays.mismatch(want, got);
                            int from = Math.max(0, at - 100);
                            example.compareAndSet(null, got.length + " bytes instead of " + want.length
                                    + ", first difference at byte " + at + ": '" + new String(got, from,
                                    Math.min(got.length, at + 300) - from, StandardCharsets.UTF_8) + "'");
                        }
                        inFlight.release();
                        ended.countDown();
                    });
                });
            }
            assertTrue(ended.await(60, TimeUnit.SECONDS), ended.getCount() + " renders did not end");
            assertEquals(0, site.inFlight(), "every render ended");
        } finally {
            starters.shutdownNow();
        }
        assertTrue(wrong.get() + failed.get() == 0, RENDERS + " renders: " + wrong + " wrong bodies and " + failed
                + " failed renders (e.g. " + example.get() + ")");
    }
}
