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
// would take the quick tier (2:15) past its 3 minutes; 15 tests took 86 s alone (load average 2 to 4, 2026-11-28).
@Tag("slow")
class FaultRulesTest {

    @TempDir
    Path folder;

    /** Any combination: the fault server ignores which; the scenarios name their rows and logs by it. */
    private static final Combination C = Registry.combinations().get(0);

    private StressSettings settings(FaultServer.Fault... faults) {
        return new StressSettings(20, Duration.ofMillis(20), 100, 20, 5, 5, Duration.ofSeconds(1), 10,
                Duration.ofSeconds(1), folder, new PrintStream(OutputStream.nullOutputStream()), 8, 1, 1,
                http.Protocol.H1, SOAK, 8, FaultServer.servers(faults),
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

    @Test
    void soakFailsOnHeapKeptPerPage() throws Exception {
        Outcome o = judged("soak", Soak.measure(C, settings(FaultServer.Fault.HEAP_PER_PAGE)));
        assertTrue(o.figures().get("heap_first_mb") instanceof Number, o.figures() + " note: " + o.note());
        double first = num(o, "heap_first_mb");
        double last = num(o, "heap_last_mb");
        assertTrue(last > first * (1 + Soak.HEAP_PCT / 100) + Soak.HEAP_SLACK_MB, o.figures() + " note: " + o.note());
        // the heap's clause alone fails: pages whole, threads and open files held
        assertTrue(count(o, "pages") > 0, o.figures().toString());
        assertEquals(0, count(o, "errors"), o.figures().toString());
        assertTrue(num(o, "threads_last") <= num(o, "threads_first") + Soak.THREADS_SLACK, o.figures().toString());
        assertTrue(num(o, "fds_last") <= num(o, "fds_first") + Soak.FDS_SLACK, o.figures().toString());
    }

    @Test
    void abortsFailsOnRendersSubscriptionsAndVirtualThreadsLeakedPerAbort() throws Exception {
        Outcome o = judged("aborts", Aborts.run(C, settings(FaultServer.Fault.LEAKS_PER_ABORT)));
        long requests = count(o, "requests");
        assertEquals(requests, count(o, "aborted"), o.note());
        // every aborted page of the warm-up and of the run: each left its render, subscription and virtual thread
        assertTrue(count(o, "in_flight_after") >= requests, o.figures().toString());
        assertEquals(count(o, "in_flight_after"), count(o, "subscriptions_after"), o.figures().toString());
        assertTrue(count(o, "virtual_threads_after") >= count(o, "virtual_threads_baseline") + requests,
                o.figures().toString());
        assertTrue(count(o, "threads_after") <= count(o, "threads_baseline"), "no platform thread: "
                + o.figures());
        assertEquals(true, o.figures().get("normal_page_after"));
        assertEquals(-1.0, num(o, "baseline_after_s"));
        assertTrue(o.note().contains(", in flight " + count(o, "in_flight_after") + ", subscriptions "), o.note());
        // Each clause fails on its own figure from this run, the other two set back to their baseline.
        java.util.Map<String, Object> back = new java.util.LinkedHashMap<>(o.figures());
        back.put("virtual_threads_after", o.figures().get("virtual_threads_baseline"));
        back.put("in_flight_after", 0L);
        back.put("subscriptions_after", 0L);
        Scenario.Rule rule = Scenarios.byId("aborts").rule();
        assertTrue(rule.pass(back), "with the three back, the rest of the run passes: " + back);
        for (String leaked : new String[] {"virtual_threads_after", "in_flight_after", "subscriptions_after"}) {
            java.util.Map<String, Object> one = new java.util.LinkedHashMap<>(back);
            one.put(leaked, o.figures().get(leaked));
            assertFalse(rule.pass(one), leaked + " alone fails the rule: " + one);
        }
    }

    @Test
    void malformedFailsOnAStackTraceInTheLog() throws Exception {
        Outcome o = judged("malformed", Malformed.run(C, settings(FaultServer.Fault.LOGS_STACK_TRACE)));
        assertEquals(count(o, "cases"), count(o, "cases_right"), "every case answered right: " + o.note());
        assertEquals(true, o.figures().get("server_alive"));
        // a trace per refused case (9 of the 12), each its exception's line and at least one frame
        assertTrue(count(o, "stack_trace_lines") >= 9, o.figures().toString());
        assertEquals(count(o, "stack_trace_lines") + " stack-trace line(s) in the server's log", o.note());
    }

    @Test
    void idleFailsOnANormalPageRefusedBesideThem() throws Exception {
        Outcome o = judged("idle", Idle.run(C, settings(FaultServer.Fault.REFUSES_PAGES_WHEN_CROWDED)));
        assertEquals(count(o, "idle"), count(o, "idle_closed"), o.figures().toString());
        assertEquals(count(o, "half_sent"), count(o, "half_sent_closed"), o.figures().toString());
        assertEquals(count(o, "trickling"), count(o, "trickling_closed"), o.figures().toString());
        assertTrue(num(o, "trickling_close_max_s") <= num(o, "idle_timeout_s") + 2, o.figures().toString());
        long failed = count(o, "normal_pages") - count(o, "normal_pages_ok");
        assertTrue(failed >= 1, "the page asked while they were open: " + o.figures());
        assertTrue(o.note().endsWith("; " + failed + " of " + count(o, "normal_pages") + " normal pages failed"),
                o.note());
    }

    /** The first part's clauses that a fault of the stop leaves alone: exit 0 in time, no page faked, none cut. */
    private static void stoppedInTime(Outcome o) {
        assertEquals(0, count(o, "exit_code"), o.figures().toString());
        assertTrue(num(o, "exit_after_s") <= count(o, "grace_s") + 2, o.figures().toString());
        assertEquals(0, count(o, "other_before") + count(o, "other_after"), o.figures().toString());
        assertTrue(count(o, "status_503_after") + count(o, "refused_after") > 0, o.figures().toString());
    }

    @Test
    void shutdownFailsOnPagesEndedAsIfWholeAtSigterm() throws Exception {
        Outcome o = judged("shutdown", Shutdown.run(C, settings(FaultServer.Fault.FALSE_COMPLETE)));
        assertTrue(count(o, "false_complete_before") + count(o, "false_complete_after") > 0, o.figures().toString());
        stoppedInTime(o);
        assertEquals(0, count(o, "warning_lines"), o.figures().toString());
        assertEquals(0, count(o, "closed_no_response_new_after"), o.figures().toString());
        // the pages past the grace, too, end whole-looking at SIGTERM: none left to cut, nothing announced
        assertEquals(count(o, "overrun_pages"), count(o, "overrun_complete"), o.figures().toString());
        assertEquals(0, count(o, "overrun_exit_code"), o.figures().toString());
        assertTrue(o.note().contains(count(o, "overrun_pages") + " page(s) ended complete."), o.note());
        // The first part's clause fails alone: with the part past the grace set back to what serve's stop gives
        // (every page cut and announced), and then the false pages back to none, the rule passes.
        java.util.Map<String, Object> cutRight = new java.util.LinkedHashMap<>(o.figures());
        cutRight.put("overrun_cut", o.figures().get("overrun_pages"));
        cutRight.put("overrun_complete", 0L);
        cutRight.put("overrun_warning_lines", 1L);
        cutRight.put("overrun_announced", true);
        Scenario.Rule rule = Scenarios.byId("shutdown").rule();
        assertFalse(rule.pass(cutRight), "the false pages alone fail the rule: " + cutRight);
        cutRight.put("false_complete_before", 0L);
        cutRight.put("false_complete_after", 0L);
        assertTrue(rule.pass(cutRight), "with them back too, the rest of the run passes: " + cutRight);
    }

    @Test
    void shutdownFailsOnANewConnectionCutAfterSigtermAndOnAWarningAsItStops() throws Exception {
        // Two faults in one server pair (a shutdown run starts two JVMs): each moves figures of its own, and neither
        // hides the other (the warning is one more log line; the pages in flight still finish within the grace, so
        // the reconnecting clients meet the open listener). FALSE_COMPLETE would: its pages end at SIGTERM and the
        // JVM with them, before a client reconnects.
        Outcome o = judged("shutdown", Shutdown.run(C, settings(FaultServer.Fault.CUTS_NEW_CONNECTIONS,
                FaultServer.Fault.WARNS_ON_STOP)));
        long cutNew = count(o, "closed_no_response_new_after");
        assertTrue(cutNew > 0, o.figures().toString());
        assertTrue(o.note().contains(cutNew + " request(s) on connections opened after SIGTERM closed without a"
                + " response."), o.note());
        assertEquals(1, count(o, "warning_lines"), o.figures().toString());
        stoppedInTime(o);
        assertEquals(0, count(o, "false_complete_before") + count(o, "false_complete_after"), o.figures().toString());
        // past the grace: the pages cut, but the drain's line is not the only warning
        assertEquals(count(o, "overrun_pages"), count(o, "overrun_cut"), o.figures().toString());
        assertEquals(2, count(o, "overrun_warning_lines"), o.figures().toString());
        assertEquals(false, o.figures().get("overrun_announced"));
        // Each clause fails on its own figures from this run, the others set back to what serve's stop gives.
        java.util.Map<String, Object> back = new java.util.LinkedHashMap<>(o.figures());
        back.put("closed_no_response_after", count(o, "closed_no_response_after") - cutNew);
        back.put("closed_no_response_new_after", 0L);
        back.put("warning_lines", 0L);
        back.put("overrun_warning_lines", 1L);
        back.put("overrun_announced", true);
        Scenario.Rule rule = Scenarios.byId("shutdown").rule();
        assertTrue(rule.pass(back), "with those back, the rest of the run passes: " + back);
        String[][] clauses = {{"closed_no_response_after", "closed_no_response_new_after"}, {"warning_lines"},
                {"overrun_warning_lines", "overrun_announced"}};
        for (String[] clause : clauses) {
            java.util.Map<String, Object> one = new java.util.LinkedHashMap<>(back);
            for (String figure : clause) {
                one.put(figure, o.figures().get(figure));
            }
            assertFalse(rule.pass(one), String.join(", ", clause) + " alone fails the rule: " + one);
        }
    }
}
