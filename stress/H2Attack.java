package stress;

import http.Protocol;
import site.Combination;

import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The runner every HTTP/2 attack scenario shares ({@link #of}): the combination's server over h2c or h2, the innocent
 * client ({@link H2Innocent}) fetching pages beside it, first alone (1 s of warm-up, then {@link #BEFORE} measured),
 * then while one attacking connection ({@link H2Attacker}) attacks for {@code --attack-duration}; meanwhile the
 * server's CPU (from /proc, in half-second windows) and its RSS (every 100 ms) are sampled. Afterwards: whether its
 * JVM still runs and serves a page on a new connection. The pass rule asks whether the server survived, held its
 * memory and the innocent pages went on; how the attacker was cut off is a figure, not a rule: cutting it off is a
 * defence, and so is serving it without harm.
 */
final class H2Attack {

    private static final Duration WARM_UP = Duration.ofSeconds(1);
    /** The innocent client's window before the attack, whose p99 the one during the attack is held to. */
    static final Duration BEFORE = Duration.ofSeconds(1);
    /**
     * The bound on the innocent pages' p99 during the attack: this many times their p99 just before, plus {@link
     * #ALLOWANCE_MS}. Loose on purpose: the attacker runs on the same two cores as the server, and a server must do
     * some work for every frame before it can tell an attack from a busy client (Rapid Reset raised the p99 of netty,
     * javalin and vertx to 0.3-0.9 s here while they cut it off within 0.7 s); a denial of service shows as pages that
     * take seconds or never end (javalin under the data dribble: 2 s), outside it.
     */
    static final int FACTOR = 5;
    static final int ALLOWANCE_MS = 1000;

    private H2Attack() {
    }

    /** {@code attack} as a stress scenario over h2c and h2, with the shared runner and rule. */
    static Scenario of(H2Attacks.Attack attack) {
        return new Scenario(attack.id(), Set.of(Protocol.H2C, Protocol.H2), List.of("--attack-duration"),
                (c, s) -> run(attack, c, s), RULE);
    }

    static final Scenario.Rule RULE = new Scenario.Rule(
            f -> "the server survives (its JVM runs, a page on a new connection afterwards); every innocent page"
                    + " whole (at least one during the attack, none failed), their TTLB p99 within " + FACTOR
                    + "x their p99 just before the attack + " + ALLOWANCE_MS + " ms (" + bound(f) + " ms); the"
                    + " server's peak RSS within " + SlowReaders.RSS_SLACK_MB + " MB of its RSS before (heap fixed at"
                    + " 512 MB); cutting the attacker off (GOAWAY, a close) is a defence and passes",
            f -> f.yes("server_alive") && f.yes("page_after") && f.count("innocent_failed") == 0
                    && f.count("innocent_pages") > 0 && f.num("innocent_p99_ms") <= bound(f) && memoryHeld(f));

    /**
     * Whether the server's peak RSS during the attack stayed within {@code slow-readers}' bound ({@link
     * SlowReaders#RSS_SLACK_MB}) of its RSS before. Its heap is fixed and touched at start ({@link
     * SlowReaders#FIXED_HEAP}), as production servers run, so a heap the attack fills shows as an OutOfMemoryError or
     * stalled pages, and RSS grows only outside the heap (direct buffers, thread stacks). With the JVM's default heap
     * (a quarter of the machine's memory) nima's RSS went from 319 MB to 2.5 GB in 2 s of the HPACK bomb, and no rule
     * looked.
     */
    static boolean memoryHeld(Scenario.Figures f) {
        return f.num("server_rss_peak_mb") <= f.num("server_rss_before_mb") + SlowReaders.RSS_SLACK_MB;
    }

    /** The innocent pages' p99 bound in ms, from the figures. */
    static double bound(Scenario.Figures f) {
        return Scenario.round(FACTOR * f.num("innocent_p99_before_ms") + ALLOWANCE_MS);
    }

    static Scenario.Measured run(H2Attacks.Attack attack, Combination c, StressSettings s)
            throws IOException, InterruptedException {
        Duration duration = s.attackDuration();
        try (StressServer server = StressServer.start(StressServer.config(c).withProtocol(s.http2()), s,
                attack.id(), SlowReaders.FIXED_HEAP)) {
            H2Endpoint endpoint = H2Endpoint.of(server);
            Raw.Response page = endpoint.page("/stocks", 10_000);
            EventLoopGroup group = H2Client.loop();
            try (H2Innocent innocent = H2Innocent.start(group, endpoint, page)) {
                innocent.window(WARM_UP);
                H2Innocent.Window before = innocent.window(BEFORE);
                double rssBefore = server.memoryAndThreads()[0] / 1024.0;
                server.resetPeaks();
                CpuSampler cpu = new CpuSampler(server);
                H2Attacker.Result r = H2Attacker.run(endpoint, attack, duration);
                double[] cores = cpu.stop();
                // the last reading too: a sampler held up by a busy server's JMX may have missed the attack
                double rssPeak = Math.max(server.peakRssMb(), server.memoryAndThreads()[0] / 1024.0);
                H2Innocent.Window during = innocent.finish();
                String ended = server.ended();
                boolean pageAfter = ended == null
                        && H2Client.pageWorks(group, endpoint, "/stocks", page.bodyBytes(), page.bodyCrc());
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("protocol", s.http2().id());
                f.put("advisory", attack.advisory());
                f.put("attack_s", duration.toMillis() / 1000.0);
                f.put("attacker_frames", r.frames());
                f.put("attacker_bytes", r.bytes());
                f.put("attacker_frames_received", r.received());
                f.put("attacker_cut", r.cut());
                f.put("attacker_cut_s", r.cutS());
                f.put("server_alive", ended == null);
                f.put("page_after", pageAfter);
                f.put("server_rss_before_mb", Scenario.round(rssBefore));
                f.put("server_rss_peak_mb", Scenario.round(rssPeak));
                f.put("server_cpu_cores", cores[0]);
                f.put("server_cpu_peak_cores", cores[1]);
                f.put("innocent_connections", H2Innocent.CONNECTIONS);
                f.put("innocent_pages_before", before.pages());
                f.put("innocent_p99_before_ms", before.p99Ms());
                f.put("innocent_pages", during.pages());
                f.put("innocent_failed", during.failed());
                f.put("innocent_p99_ms", during.p99Ms());
                f.put("warning_lines", server.warnings());
                String note = "attacker cut off: " + r.cut() + (r.cutS() < 0 ? "" : " after " + r.cutS() + " s")
                        + (before.failed() == 0 ? "" : "; before the attack " + before.failed()
                        + " innocent page(s) failed: " + before.failures());
                return new Scenario.Measured(f, note, why(f, ended, during));
            } finally {
                H2Client.stop(group);
            }
        }
    }

    /** Why the rule failed, clause by clause, from the figures (empty when it held). */
    static String why(Map<String, Object> figures, String ended, H2Innocent.Window during) {
        Scenario.Figures f = new Scenario.Figures(figures);
        List<String> why = new ArrayList<>();
        if (!f.yes("server_alive")) {
            why.add("the server died: " + ended);
        } else if (!f.yes("page_after")) {
            why.add("no page on a new connection after the attack");
        }
        if (f.count("innocent_failed") > 0) {
            why.add(f.count("innocent_failed") + " innocent page(s) failed: " + during.failures());
        }
        if (f.count("innocent_pages") == 0) {
            why.add("no innocent page ended during the attack");
        } else if (f.num("innocent_p99_ms") > bound(f)) {
            why.add("the innocent pages' p99 " + f.num("innocent_p99_ms") + " ms passed the bound " + bound(f)
                    + " ms (p99 before the attack " + f.num("innocent_p99_before_ms") + " ms)");
        }
        if (!memoryHeld(f)) {
            why.add("the server's RSS grew from " + f.num("server_rss_before_mb") + " MB to "
                    + f.num("server_rss_peak_mb") + " MB, more than " + SlowReaders.RSS_SLACK_MB + " MB");
        }
        return why.isEmpty() ? "" : "Failed: " + String.join("; ", why) + ".";
    }

    /** The server's CPU in cores: on average since it started, and the most in any half-second window. */
    private static final class CpuSampler {
        private final StressServer server;
        private final long cpu0;
        private final long t0 = System.nanoTime();
        private final Thread thread;
        private volatile double peak;

        CpuSampler(StressServer server) {
            this.server = server;
            this.cpu0 = server.cpuNanos();
            this.thread = Thread.ofPlatform().daemon(true).name("h2-attack-cpu").start(this::sample);
        }

        private void sample() {
            long lastCpu = cpu0;
            long last = t0;
            while (true) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                long cpu = server.cpuNanos();
                long now = System.nanoTime();
                if (cpu >= 0 && lastCpu >= 0) {
                    peak = Math.max(peak, (cpu - lastCpu) / (double) (now - last));
                }
                lastCpu = cpu;
                last = now;
            }
        }

        /** {average cores, peak cores}, each -1 where /proc could not be read. */
        double[] stop() throws InterruptedException {
            thread.interrupt();
            thread.join();
            long cpu = server.cpuNanos();
            double average = cpu < 0 || cpu0 < 0 ? -1 : (cpu - cpu0) / (double) (System.nanoTime() - t0);
            return new double[] {Scenario.round(average), cpu < 0 ? -1 : Scenario.round(Math.max(peak, average))};
        }
    }
}
