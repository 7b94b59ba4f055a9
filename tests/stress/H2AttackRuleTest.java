package stress;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pass rule every HTTP/2 attack shares ({@link H2Attack#RULE}), fed figures: a server that served the attacker,
 * and one that cut it off with GOAWAY, pass; a server that died, one that no longer serves a page, one whose memory
 * the attack blew up, and one beside which the innocent pages stalled or failed, fail, and the note says which
 * clause failed.
 */
class H2AttackRuleTest {

    /** The figures of a run that passed, in the shape {@link H2Attack#run} writes them. */
    private static Map<String, Object> passing() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("protocol", "h2c");
        f.put("advisory", "CVE-2023-44487");
        f.put("attack_s", 1.0);
        f.put("attacker_frames", 120_000L);
        f.put("attacker_bytes", 4_400_000L);
        f.put("attacker_frames_received", 12L);
        f.put("attacker_cut", "GOAWAY ENHANCE_YOUR_CALM");
        f.put("attacker_cut_s", 0.02);
        f.put("server_alive", true);
        f.put("page_after", true);
        f.put("server_rss_before_mb", 300.5);
        f.put("server_rss_peak_mb", 310.2);
        f.put("server_cpu_cores", 0.9);
        f.put("server_cpu_peak_cores", 1.2);
        f.put("innocent_connections", 4);
        f.put("innocent_pages_before", 130L);
        f.put("innocent_p99_before_ms", 40.0);
        f.put("innocent_pages", 110L);
        f.put("innocent_failed", 0L);
        f.put("innocent_p99_ms", 90.0);
        f.put("warning_lines", 0L);
        return f;
    }

    private static Map<String, Object> with(Object... nameThenValue) {
        Map<String, Object> f = passing();
        for (int i = 0; i < nameThenValue.length; i += 2) {
            f.put((String) nameThenValue[i], nameThenValue[i + 1]);
        }
        return f;
    }

    private static final H2Innocent.Window STALLED = new H2Innocent.Window(3, 12, 0,
            Map.of("not finished within 10 s", 12));

    @Test
    void aServerThatCutsTheAttackerOffOrServesItWithoutHarmPasses() {
        assertTrue(H2Attack.RULE.pass(passing()));
        assertTrue(H2Attack.RULE.pass(with("attacker_cut", "none", "attacker_cut_s", -1.0)));
        assertTrue(H2Attack.RULE.pass(with("innocent_p99_ms", 1200.0)), "5 x 40 + 1000 ms, the bound");
        assertEquals("", H2Attack.why(passing(), null, STALLED));
        assertTrue(H2Attack.RULE.sentence(passing()).contains("(1200.0 ms)"), H2Attack.RULE.sentence(passing()));
    }

    @Test
    void aServerThatDiedFails() {
        Map<String, Object> died = with("server_alive", false, "page_after", false);
        assertFalse(H2Attack.RULE.pass(died));
        assertTrue(H2Attack.why(died, "killed by SIGKILL", STALLED).startsWith("Failed: the server died: killed by"
                + " SIGKILL"), H2Attack.why(died, "killed by SIGKILL", STALLED));
        Map<String, Object> noPage = with("page_after", false);
        assertFalse(H2Attack.RULE.pass(noPage));
        assertEquals("Failed: no page on a new connection after the attack.", H2Attack.why(noPage, null, STALLED));
    }

    @Test
    void innocentPagesThatStalledOrFailedFail() {
        Map<String, Object> slow = with("innocent_p99_ms", 1200.01);
        assertFalse(H2Attack.RULE.pass(slow), "just past the bound");
        assertEquals("Failed: the innocent pages' p99 1200.01 ms passed the bound 1200.0 ms (p99 before the attack"
                + " 40.0 ms).", H2Attack.why(slow, null, STALLED));
        Map<String, Object> stalled = with("innocent_pages", 3L, "innocent_failed", 12L, "innocent_p99_ms", 35.0);
        assertFalse(H2Attack.RULE.pass(stalled));
        assertEquals("Failed: 12 innocent page(s) failed: {not finished within 10 s=12}.",
                H2Attack.why(stalled, null, STALLED));
        // stalled so long that none ended: the p99 of no page is 0, which must not pass
        Map<String, Object> none = with("innocent_pages", 0L, "innocent_p99_ms", 0.0);
        assertFalse(H2Attack.RULE.pass(none));
        assertEquals("Failed: no innocent page ended during the attack.", H2Attack.why(none, null, STALLED));
    }

    @Test
    void aServerWhoseMemoryTheAttackBlewUpFails() {
        assertTrue(H2Attack.RULE.pass(with("server_rss_peak_mb", 400.5)), "300.5 + 100 MB, the bound");
        // nima under the HPACK bomb with the JVM's default heap: 319 MB before, 2,542 MB at its peak
        Map<String, Object> bomb = with("server_rss_before_mb", 319.0, "server_rss_peak_mb", 2542.0,
                "attacker_cut", "stopped reading");
        assertFalse(H2Attack.RULE.pass(bomb));
        assertEquals("Failed: the server's RSS grew from 319.0 MB to 2542.0 MB, more than 100 MB.",
                H2Attack.why(bomb, null, STALLED));
        assertFalse(H2Attack.RULE.pass(with("server_rss_peak_mb", 400.51)), "just past the bound");
        assertTrue(H2Attack.RULE.sentence(passing()).contains("peak RSS within 100 MB"),
                H2Attack.RULE.sentence(passing()));
    }
}
