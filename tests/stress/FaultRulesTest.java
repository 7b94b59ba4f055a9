package stress;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.Combination;
import cli.Registry;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every HTTP/1.1 stress scenario's pass rule seen failing end to end: the scenario's own code, at short settings,
 * against {@link FaultServer} with the one fault that rule is there to catch, failing for the reason a user reads in
 * stress.csv (the figure the fault moves, and the note). The same scenarios pass against the real servers in
 * StressIT; PassRulesTest feeds the rules figures by hand. Each fault server is a JVM of its own (the scenarios read
 * its threads and memory from /proc, attach over JMX and send it SIGTERM), started in well under a second.
 */
// The full tier's: 8 fault-server JVMs took 55 s in one surefire fork beside other classes (load average 6 to 9), which
// would take the quick tier (2:15) past its 3 minutes.
@Tag("slow")
class FaultRulesTest {

    @TempDir
    Path folder;

    /** Any combination: the fault server ignores which; the scenarios name their rows and logs by it. */
    private static final Combination C = Registry.combinations().get(0);

    private StressSettings settings(FaultServer.Fault fault) {
        return new StressSettings(20, Duration.ofMillis(20), 100, 20, 5, 5, Duration.ofSeconds(1), 10,
                Duration.ofSeconds(1), folder, new PrintStream(OutputStream.nullOutputStream()), 8, 1, 1,
                http.Protocol.H1, SOAK, 8, FaultServer.servers(fault),
                base.Durations.parse(StressSettings.ATTACK_DURATION));
    }

    /** The soak's length here: its shortest, 4 windows of half a second after half a second unsampled. */
    private static final Duration SOAK = Duration.ofSeconds(2);

    private static Outcome judged(String id, Scenario.Measured m) {
        Outcome o = Scenarios.byId(id).judge(C, m);
        assertFalse(o.pass(), id + " must fail: " + o.figures() + " note: " + o.note());
        return o;
    }

    private static long count(Outcome o, String figure) {
        return ((Number) o.figures().get(figure)).longValue();
    }

    private static double num(Outcome o, String figure) {
        return ((Number) o.figures().get(figure)).doubleValue();
    }

    @Test
    void streamsFailsOnAPageThatNeverEnds() throws Exception {
        // the scenario waits the page time + 90 s for a page before it counts it unended; 2 s here
        Outcome o = judged("streams", Streams.measure(C, settings(FaultServer.Fault.ENDLESS_PAGE),
                Duration.ofSeconds(2)));
        assertEquals(0, count(o, "completed"), o.note());
        assertEquals(20, count(o, "errors"));
        assertEquals(20, count(o, "open_peak"), "all open together: only the pages' end is missing");
        assertTrue(o.note().contains("not finished within 2 s=20"), o.note());
    }

    @Test
    void streamsFailsOnPagesThatDiffer() throws Exception {
        Outcome o = judged("streams", Streams.measure(C, settings(FaultServer.Fault.DIFFERENT_PAGES)));
        assertEquals(20, count(o, "completed"), o.note());
        assertEquals(0, count(o, "errors"));
        assertEquals(20, count(o, "distinct_bodies"));
        assertTrue(o.note().contains("20 different bodies"), o.note());
    }

    @Test
    void abortsFailsOnAThreadLeakedPerRequest() throws Exception {
        Outcome o = judged("aborts", Aborts.run(C, settings(FaultServer.Fault.THREAD_PER_REQUEST)));
        assertEquals(count(o, "requests"), count(o, "aborted"), o.note());
        assertTrue(count(o, "threads_after") >= count(o, "threads_baseline") + 100, o.figures().toString());
        assertEquals(-1.0, num(o, "baseline_after_s"));
        // what else the rule reads held: the thread is the one reason (renders and subscriptions are read over JMX,
        // not read when the attach failed: in CI's full tier on 2026-11-28 it did for this test and the shutdown one;
        // abortsCannotPassOnFiguresItCouldNotRead shows what the row says then)
        if (!(o.figures().get("in_flight_after") instanceof Scenario.Unread)) {
            assertEquals(0, count(o, "in_flight_after"), o.figures().toString());
            assertEquals(0, count(o, "subscriptions_after"), o.figures().toString());
            assertTrue(count(o, "virtual_threads_after") <= count(o, "virtual_threads_baseline"),
                    o.figures().toString());
        }
        assertEquals(true, o.figures().get("normal_page_after"));
        assertTrue(o.note().startsWith("not back to baseline within 5 s; threads before ["), o.note());
        assertTrue(o.note().contains("leaked-"), o.note());
    }

    @Test
    void slowReadersFailsWhenOneSlowReaderStallsEveryone() throws Exception {
        Outcome o = judged("slow-readers", SlowReaders.run(C, settings(FaultServer.Fault.ONE_WRITER)));
        // Not one page of the others ended in the window: the rule passed that, reading the p99 of no page as 0,
        // until this test; it now asks for pages served beside the slow readers.
        assertTrue(count(o, "requests_alone") > 0, o.figures().toString());
        assertEquals(0, count(o, "requests_with_slow"), o.figures().toString());
        assertEquals(0, count(o, "errors"));
        assertTrue(num(o, "server_rss_peak_with_slow_mb") <= num(o, "server_rss_peak_alone_mb") + 100);
        assertEquals(true, o.figures().get("normal_page_after"));
        assertEquals("no page of the normal traffic ended beside the slow readers", o.note());
    }

    @Test
    void slowReadersFailsOnMemoryLeakedPerConnection() throws Exception {
        Outcome o = judged("slow-readers", SlowReaders.run(C, settings(FaultServer.Fault.MEMORY_PER_CONNECTION)));
        // 8 MB for each of the 10 slow readers and the 16 new connections beside them
        assertTrue(num(o, "server_rss_peak_with_slow_mb") > num(o, "server_rss_peak_alone_mb") + 100,
                o.figures().toString());
        assertTrue(count(o, "requests_with_slow") > 0, o.figures().toString());
        assertEquals(0, count(o, "errors"));
        assertEquals(true, o.figures().get("normal_page_after"));
    }

    @Test
    void malformedFailsOnAMalformedRequestAnswered200() throws Exception {
        Outcome o = judged("malformed", Malformed.run(C, settings(FaultServer.Fault.ANSWERS_200)));
        assertTrue(count(o, "cases_right") < count(o, "cases"), o.figures().toString());
        assertTrue(o.note().contains("garbage request line: got [200], want [400]"), o.note());
        assertTrue(o.note().contains("missing Host: got [200], want [400]"), o.note());
        assertEquals(true, o.figures().get("server_alive"));
        assertEquals(0, count(o, "stack_trace_lines"));
    }

    @Test
    void idleFailsOnAServerThatNeverClosesAConnection() throws Exception {
        Outcome o = judged("idle", Idle.run(C, settings(FaultServer.Fault.NEVER_CLOSES)));
        assertEquals(0, count(o, "idle_closed"), o.figures().toString());
        assertEquals(0, count(o, "half_sent_closed"));
        assertEquals(0, count(o, "trickling_closed"));
        assertEquals(count(o, "normal_pages"), count(o, "normal_pages_ok"), "the pages beside them were served");
    }

    @Test   // two server JVMs that each run 6 s past SIGTERM, which is what is checked
    void shutdownFailsOnAServerThatIgnoresSigterm() throws Exception {
        Outcome o = judged("shutdown", Shutdown.run(C, settings(FaultServer.Fault.IGNORES_SIGTERM)));
        assertEquals(143, count(o, "exit_code"), o.figures().toString());
        assertTrue(num(o, "exit_after_s") > count(o, "grace_s") + 2, o.figures().toString());
        // the pages that outlive the 1 s grace were let finish, and the JVM exited long after it
        if (!(o.figures().get("overrun_in_flight") instanceof Scenario.Unread)) {   // over JMX (see above)
            assertEquals(count(o, "overrun_pages"), count(o, "overrun_in_flight"), o.figures().toString());
        }
        assertEquals(count(o, "overrun_pages"), count(o, "overrun_complete"), o.figures().toString());
        assertTrue(num(o, "overrun_exit_after_s") > num(o, "overrun_grace_s") + 2, o.figures().toString());
    }

    /** The note of a row whose rule needed a figure the run could not read over JMX: which, and why. */
    private static void notCheckedForWantOfJmx(Outcome o, String needed) {
        assertTrue(o.note().startsWith("not checked: the rule needs " + needed + ", which could not be read; not"
                + " read: "), o.note());
        assertTrue(o.note().contains("(no JMX from the server (java.io.IOException: cannot attach to the server JVM"),
                o.note());
    }

    @Test
    void abortsCannotPassOnFiguresItCouldNotRead() throws Exception {
        // A server that leaks nothing, whose JVM refuses the attach: the renders, subscriptions and virtual threads
        // cannot be read. Before, their -1s read as "not back to baseline" (renders -1, not 0) after 5 s of waiting,
        // with no word of why; the virtual threads' clause passed on -1 <= -1.
        Outcome o = judged("aborts", Aborts.run(C, settings(FaultServer.Fault.NO_ATTACH)));
        for (String jmx : new String[] {"virtual_threads_baseline", "virtual_threads_after", "in_flight_after",
                "subscriptions_after"}) {
            assertTrue(o.figures().get(jmx) instanceof Scenario.Unread, jmx + ": " + o.figures());
        }
        notCheckedForWantOfJmx(o, "virtual_threads_after");
        assertTrue(o.note().contains("virtual_threads_baseline, virtual_threads_after, in_flight_after,"
                + " subscriptions_after (no JMX"), o.note());
        // what could be read held: the server did nothing wrong
        assertEquals(count(o, "requests"), count(o, "aborted"), o.note());
        assertTrue(count(o, "threads_after") <= count(o, "threads_baseline"), o.figures().toString());
        assertTrue(num(o, "baseline_after_s") >= 0, "not waited for what cannot be read: " + o.figures());
        assertEquals(true, o.figures().get("normal_page_after"));
    }

    @Test
    void soakCannotPassOnAHeapItCouldNotRead() throws Exception {
        // The heap after GC is read over JMX; before, both quarters read -0.0 and the rule passed on them.
        Outcome o = judged("soak", Soak.measure(C, settings(FaultServer.Fault.NO_ATTACH)));
        assertTrue(o.figures().get("heap_first_mb") instanceof Scenario.Unread, o.figures().toString());
        assertTrue(o.figures().get("heap_last_mb") instanceof Scenario.Unread, o.figures().toString());
        notCheckedForWantOfJmx(o, "heap_first_mb");
        // the rest was read, and held
        assertTrue(count(o, "pages") > 0, o.figures().toString());
        assertEquals(0, count(o, "errors"), o.figures().toString());
        assertTrue(num(o, "rss_first_mb") > 0 && num(o, "threads_first") > 0 && num(o, "fds_first") > 0,
                o.figures().toString());
    }
}
