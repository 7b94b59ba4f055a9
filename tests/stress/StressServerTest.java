package stress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which of a server's threads are its own, as aborts and h2-resets count them (Linux names, cut at 15). */
class StressServerTest {

    @Test
    void theVirtualThreadsCarriersAndTimerAreTheJvmsOwn() {
        // a carrier added while a virtual thread blocked in file I/O outlives the 5 s the rule waits (CI, 2026-11-28)
        for (String own : new String[] {"ForkJoinPool-1-", "VirtualThread-u", "C2 CompilerThre", "GC Thread#0"}) {
            assertTrue(StressServer.jvmOwn(own), own);
        }
    }

    @Test
    void theServersOwnPoolsStayCounted() {
        // a thread per connection, the common pool and a pool the server made itself are the server's
        for (String app : new String[] {"ForkJoinPool-2-", "ForkJoinPool-10", "ForkJoinPool.co", "nioEventLoopGro",
                "RxCachedThreadS", "qtp12345-17", "java"}) {
            assertFalse(StressServer.jvmOwn(app), app);
        }
    }
}
