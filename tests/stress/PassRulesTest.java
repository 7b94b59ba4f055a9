package stress;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every HTTP/1.1 scenario's pass rule, fed figures: those of a real passing run (nima/jstachio/virtual at StressIT's
 * small sizes, 2026-11-27; shutdown's as docs/stress.md gives them) pass, and the figures a misbehaving server would
 * make (a page that never ends, a leak, ignoring SIGTERM, a malformed request answered 200, everyone stalled behind
 * one slow reader, an idle connection never closed) fail. FaultRulesTest shows each rule failing end to end, against
 * a server that really misbehaves (FaultServer).
 */
class PassRulesTest {

    /** Figures from "k1", v1, "k2", v2, ... in that order. */
    private static Map<String, Object> figures(Object... nameThenValue) {
        Map<String, Object> f = new LinkedHashMap<>();
        for (int i = 0; i < nameThenValue.length; i += 2) {
            f.put((String) nameThenValue[i], nameThenValue[i + 1]);
        }
        return f;
    }

    /** {@code base} with {@code nameThenValue} changed. */
    private static Map<String, Object> with(Map<String, Object> base, Object... nameThenValue) {
        Map<String, Object> f = new LinkedHashMap<>(base);
        f.putAll(figures(nameThenValue));
        return f;
    }

    private static void passes(String id, Map<String, Object> f) {
        assertTrue(Scenarios.byId(id).rule().pass(f), id + " passes on " + f);
    }

    private static void fails(String id, Map<String, Object> f, String why) {
        assertFalse(Scenarios.byId(id).rule().pass(f), id + " must fail: " + why + " " + f);
    }

    private static final Map<String, Object> STREAMS = figures("connections", 200, "completed", 200, "errors", 0,
            "open_peak", 200, "distinct_bodies", 1, "page_s", 0.4, "wall_s", 1.07, "connect_p99_ms", 28.06,
            "ttfb_p50_ms", 475.14, "ttfb_p99_ms", 629.76, "ttlb_p50_ms", 935.42, "ttlb_p99_ms", 1051.65,
            "server_rss_peak_mb", 420.69, "server_threads_peak", 35L, "server_virtual_threads_peak", 203L,
            "listen_drops", 0L);

    @Test
    void streamsFailsOnAPageThatNeverEndsAndOnPagesThatDiffer() {
        passes("streams", STREAMS);
        assertEquals("every page 200, complete and identical; all 200 open together",
                Scenarios.byId("streams").rule().sentence(STREAMS));
        fails("streams", with(STREAMS, "completed", 199, "errors", 1), "a page that never ends");
        fails("streams", with(STREAMS, "distinct_bodies", 2), "a page that differs from the others");
        fails("streams", with(STREAMS, "open_peak", 150), "connections served one after another");
        fails("streams", with(STREAMS, "errors", 1), "an error");
    }

    private static final Map<String, Object> ABORTS = figures("requests", 100, "aborted", 100,
            "baseline_after_s", 0.11, "threads_baseline", 13, "threads_after", 13, "virtual_threads_baseline", 3L,
            "virtual_threads_after", 3L, "in_flight_after", 0, "subscriptions_after", 0, "normal_page_after", true,
            "warning_lines", 0L);

    @Test
    void abortsFailsOnALeak() {
        passes("aborts", ABORTS);
        fails("aborts", with(ABORTS, "threads_after", 113, "baseline_after_s", -1.0), "a thread per aborted page");
        fails("aborts", with(ABORTS, "virtual_threads_after", 103L, "baseline_after_s", -1.0), "virtual threads");
        fails("aborts", with(ABORTS, "in_flight_after", 100, "baseline_after_s", -1.0), "renders never cancelled");
        fails("aborts", with(ABORTS, "subscriptions_after", 100, "baseline_after_s", -1.0), "subscriptions kept");
        fails("aborts", with(ABORTS, "normal_page_after", false), "no page afterwards");
        fails("aborts", with(ABORTS, "aborted", 90), "pages that never started");
    }

    private static final Map<String, Object> SLOW_READERS = figures("slow_readers", 20, "slow_read_kb", 56L,
            "requests_alone", 1006L, "requests_with_slow", 1066L, "errors", 0L, "ttlb_p99_alone_ms", 76.29,
            "ttlb_p99_with_slow_ms", 100.16, "server_rss_peak_alone_mb", 685.63, "server_rss_peak_with_slow_mb", 686.5,
            "normal_page_after", true, "warning_lines", 0L);

    @Test
    void slowReadersFailsWhenEveryoneStallsBehindThem() {
        passes("slow-readers", SLOW_READERS);
        passes("slow-readers", with(SLOW_READERS, "ttlb_p99_with_slow_ms", 157.5));   // 2 x 76.29 + 5 = 157.58, the bound
        fails("slow-readers", with(SLOW_READERS, "ttlb_p99_with_slow_ms", 2031.0, "requests_with_slow", 40L),
                "everyone stalled behind the slow readers");
        // stalled so long that no page beside them ended in the window: the p99 of no page is 0
        fails("slow-readers", with(SLOW_READERS, "requests_with_slow", 0L, "ttlb_p99_with_slow_ms", 0.0),
                "no page served beside the slow readers");
        fails("slow-readers", with(SLOW_READERS, "ttlb_p99_with_slow_ms", 157.7), "just past the bound");
        fails("slow-readers", with(SLOW_READERS, "server_rss_peak_with_slow_mb", 786.0), "memory per slow reader");
        fails("slow-readers", with(SLOW_READERS, "errors", 3L), "errors beside them");
        fails("slow-readers", with(SLOW_READERS, "normal_page_after", false), "no page afterwards");
    }

    private static final Map<String, Object> MALFORMED = figures("cases", 12, "cases_right", 12, "server_alive", true,
            "stack_trace_lines", 0L, "warning_lines", 0L);

    @Test
    void malformedFailsOnAMalformedRequestAnswered200() {
        passes("malformed", MALFORMED);
        fails("malformed", with(MALFORMED, "cases_right", 11), "a garbage request line answered 200");
        fails("malformed", with(MALFORMED, "server_alive", false), "a server that died of a case");
        fails("malformed", with(MALFORMED, "stack_trace_lines", 14L), "a stack trace in the log");
    }

    private static final Map<String, Object> IDLE = figures("idle", 50, "half_sent", 10, "trickling", 10,
            "idle_timeout_s", 1.0, "open_s", 0.02, "idle_closed", 50, "half_sent_closed", 10, "trickling_closed", 10,
            "trickling_close_max_s", 0.91, "last_close_s", 1.07, "normal_pages", 2, "normal_pages_ok", 2,
            "normal_page_max_ms", 612L, "server_rss_peak_mb", 431.89, "server_threads_peak", 30L,
            "warning_lines", 0L);

    @Test
    void idleFailsOnConnectionsNeverClosedAndOnSlowloris() {
        passes("idle", IDLE);
        assertTrue(Scenarios.byId("idle").rule().sentence(IDLE).contains("within the idle timeout + 2.0 s"));
        passes("idle", with(IDLE, "trickling_close_max_s", 3.0));   // 1 s + 2 s, the bound
        fails("idle", with(IDLE, "idle_closed", 0), "idle connections kept open");
        fails("idle", with(IDLE, "half_sent_closed", 9), "a half-sent request waited for");
        fails("idle", with(IDLE, "trickling_closed", 0), "slowloris served");
        fails("idle", with(IDLE, "trickling_close_max_s", 3.01), "a trickling head closed past the bound");
        fails("idle", with(IDLE, "normal_pages_ok", 1), "a normal page failed meanwhile");
        // the bound grows with the timeout: a fifth of it past 10 s
        passes("idle", with(IDLE, "idle_timeout_s", 30.0, "trickling_close_max_s", 36.0));
        fails("idle", with(IDLE, "idle_timeout_s", 30.0, "trickling_close_max_s", 36.01), "past 30 s + 6 s");
    }

    private static final Map<String, Object> SHUTDOWN = figures("clients", 16, "complete_before", 412L,
            "complete_after", 16L, "cut_before", 0L, "cut_after", 0L, "false_complete_before", 0L,
            "false_complete_after", 0L, "status_503_before", 0L, "status_503_after", 15L,
            "closed_no_response_before", 0L, "closed_no_response_after", 1L, "refused_before", 0L,
            "refused_after", 16L, "other_before", 0L, "other_after", 0L, "connections_at_sigterm", 16,
            "closed_no_response_new_after", 0L, "grace_s", 3L, "exit_code", 0, "exit_after_s", 0.61,
            "warning_lines", 0L, "overrun_pages", 4, "overrun_page_s", 5.0, "overrun_grace_s", 1.0,
            "overrun_in_flight", 4, "overrun_cut", 4L, "overrun_complete", 0L, "overrun_no_response", 0L,
            "overrun_other", 0L, "overrun_last_end_s", 1.03, "overrun_exit_code", 0, "overrun_exit_after_s", 1.41,
            "overrun_warning_lines", 1, "overrun_announced", true);

    @Test
    void shutdownFailsOnAServerThatIgnoresSigterm() {
        passes("shutdown", SHUTDOWN);
        assertTrue(Scenarios.byId("shutdown").rule().sentence(SHUTDOWN).contains("exit 0 within the 3 s grace"));
        // still running 13 s after SIGTERM: awaitExit gives -1; its pages went on to the end
        fails("shutdown", with(SHUTDOWN, "exit_code", -1, "exit_after_s", 13.0), "SIGTERM ignored");
        fails("shutdown", with(SHUTDOWN, "overrun_exit_code", -1, "overrun_exit_after_s", 11.0,
                "overrun_cut", 0L, "overrun_complete", 4L), "SIGTERM ignored by the second server");
        fails("shutdown", with(SHUTDOWN, "exit_after_s", 5.01), "an exit past the grace + 2 s");
        fails("shutdown", with(SHUTDOWN, "exit_code", 1), "a failed exit");
        fails("shutdown", with(SHUTDOWN, "false_complete_after", 1L), "a cut page that ends as if complete");
        fails("shutdown", with(SHUTDOWN, "closed_no_response_new_after", 1L, "closed_no_response_after", 2L),
                "a request on a connection accepted after SIGTERM cut");
        fails("shutdown", with(SHUTDOWN, "closed_no_response_after", 17L), "more than one per kept connection");
        fails("shutdown", with(SHUTDOWN, "other_after", 2L), "another answer");
        fails("shutdown", with(SHUTDOWN, "warning_lines", 1L), "a warning while stopping");
        fails("shutdown", with(SHUTDOWN, "overrun_complete", 1L, "overrun_cut", 3L), "an overrun page let finish");
        fails("shutdown", with(SHUTDOWN, "overrun_announced", false), "the drain's line missing");
        fails("shutdown", with(SHUTDOWN, "overrun_in_flight", 3), "SIGTERM before every page was in flight");
    }

    @Test
    void aRuleThatReadsAFigureTheRunDidNotWriteSaysWhich() {
        Map<String, Object> f = with(STREAMS);
        f.remove("distinct_bodies");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Scenarios.byId("streams").rule().pass(f));
        assertTrue(e.getMessage().startsWith("no figure distinct_bodies among "), e.getMessage());
    }

    @Test
    void aRuleNeverPassesOnAFigureItCouldNotRead() {
        // The attach to the server failed (as in CI's full tier): every figure read over JMX is not read. The
        // virtual threads' clause passed on -1 <= -1 before; now the row fails and its note says why first.
        Scenario.Unread noJmx = new Scenario.Unread("no JMX from the server (attach refused)");
        Map<String, Object> f = with(ABORTS, "virtual_threads_baseline", noJmx, "virtual_threads_after", noJmx,
                "in_flight_after", noJmx, "subscriptions_after", noJmx);
        fails("aborts", f, "its virtual threads, renders and subscriptions could not be read");
        Outcome o = Scenarios.byId("aborts").judge(cli.Registry.combinations().get(0),
                new Scenario.Measured(f, "a note of the run"));
        assertFalse(o.pass());
        assertEquals("not checked: the rule needs virtual_threads_after, which could not be read; not read:"
                + " virtual_threads_baseline, virtual_threads_after, in_flight_after, subscriptions_after (no JMX"
                + " from the server (attach refused)). a note of the run", o.note());
        fails("aborts", with(ABORTS, "in_flight_after", noJmx), "one figure not read is enough");
        fails("shutdown", with(SHUTDOWN, "overrun_in_flight", noJmx), "the pages in flight at SIGTERM not read");
        // A rule that does not read the figure is not held back by it: streams' virtual-thread peak is no clause.
        passes("streams", with(STREAMS, "server_virtual_threads_peak", noJmx));
        assertEquals("", Scenarios.byId("streams").judge(cli.Registry.combinations().get(0),
                new Scenario.Measured(with(STREAMS, "server_virtual_threads_peak", noJmx), "")).note());
    }
}
