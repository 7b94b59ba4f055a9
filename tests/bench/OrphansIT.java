package bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32, items 4 and 6. Every child JVM ends when its parent ends, SIGKILL included (a CI job's timeout, kill -9):
 * bench's verifier, server and Hyperfoil JVM, stress's server, browser's server, chromedriver and Chromium. And Ctrl-C in the first seconds of bench, before the sweep exists,
 * says so in one sentence, and --resume of the folder it names starts the run. The real jar as a process.
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class OrphansIT {

    private static Path jar;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    private static final List<String> SWEEP = List.of("bench", "--server=jdk", "--engine=jstachio", "--mode=virtual",
            "--no-baseline", "--connections=1", "--warmup=1s", "--duration=2s", "--repeat=1",
            "--windows=1", "--no-aot-cache");   // no AOT training here: AotCacheIT's

    /** The jar with {@code args} (stopped after the test); SIGINT reset to its default (a shell ignores it for background jobs). */
    private Process start(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        started.add(p);
        return p;
    }

    /** The process's output lines, read on a daemon thread. */
    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output unreadable: " + e + ")");
            }
        });
        return lines;
    }

    private static void await(BlockingQueue<String> lines, String text) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.contains(text)) {
                    return;
                }
            }
        }
        throw new AssertionError("no line with '" + text + "' within 90 s: " + seen);
    }

    /** Waits until the descendants (the JVM itself excluded: env runs java in its own place) satisfy {@code ready}. */
    private static List<ProcessHandle> awaitChildren(Process p, Predicate<List<ProcessHandle>> ready, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<ProcessHandle> all = p.descendants().toList();
            if (ready.test(all)) {
                return all;
            }
            assertTrue(System.nanoTime() < deadline && p.isAlive(), what + " within 60 s: " + all);
            Thread.sleep(20);
        }
    }

    /** Whether some process has the word {@code word} (a PssrBench command, a main class) on its command line. */
    private static Predicate<List<ProcessHandle>> running(String word) {
        return all -> all.stream().anyMatch(h -> List.of(arguments(h)).contains(word));
    }

    /** The process's arguments from /proc: ProcessHandle.Info has none for a command line as long as Hyperfoil's. */
    private static String[] arguments(ProcessHandle h) {
        try {
            return Files.readString(Path.of("/proc", String.valueOf(h.pid()), "cmdline")).split("\0");
        } catch (IOException e) {
            return new String[0];   // gone
        }
    }

    /** Whatever a failed test left running is stopped, so that a failure leaves no orphan either. */
    @AfterEach
    void stopWhatIsLeft() {
        for (Process p : started) {
            List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
            p.destroyForcibly();
            all.forEach(ProcessHandle::destroyForcibly);
        }
        started.clear();
    }

    /**
     * SIGKILL to the parent (Process.destroyForcibly sends it on Linux), then every descendant seen before, collected
     * then because after the kill they are re-parented, is gone within 15 s (serve drains for its --grace, 3 s).
     * Whatever is left is killed, so that a failure leaves no orphan either.
     */
    private static void killAndFindNoChild(Process parent, List<ProcessHandle> children, String what)
            throws InterruptedException {
        assertFalse(children.isEmpty(), what + ": children were seen");
        parent.destroyForcibly().waitFor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<String> left = children.stream().filter(ProcessHandle::isAlive)
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList();
        children.forEach(ProcessHandle::destroyForcibly);
        assertEquals(List.of(), left, what + ": children left 15 s after their parent was killed with SIGKILL");
    }

    @Test
    void benchKilledDuringVerificationLeavesNoChild(@TempDir Path out) throws Exception {
        Process bench = start(concat(SWEEP, "--out=" + out));
        await(lines(bench), "windows to measure");   // printed just before the combination is verified
        List<ProcessHandle> children = awaitChildren(bench, running("verify"), "the verifier's JVM");
        killAndFindNoChild(bench, children, "during verification");
        // Ended as its parent ended, not by finishing its check a few seconds later: its log has no verdict.
        try (var logs = Files.list(out.resolve("logs"))) {
            for (Path log : logs.filter(f -> f.toString().endsWith(".verify.log")).toList()) {
                String text = Files.readString(log);
                assertFalse(text.contains("combinations passed") || text.contains("failed"), log + ": " + text);
            }
        }
    }

    @Test
    void benchKilledDuringAWindowLeavesNoChild(@TempDir Path out) throws Exception {
        Process bench = start(concat(SWEEP, "--out=" + out));
        await(lines(bench), "bench: 1/1 ");   // the point's server is up, its warm-up starts
        List<ProcessHandle> children = awaitChildren(bench, running("serve"), "the measured server");
        killAndFindNoChild(bench, children, "during a window");
    }

    /** With --driver=hyperfoil, Hyperfoil's JVM (our runner in it) ends as well as the server's. */
    @Test
    void benchKilledDuringAHyperfoilWindowLeavesNoChild(@TempDir Path out) throws Exception {
        // a window long enough to be caught (it is cut short by the kill)
        Process bench = start(concat(SWEEP.stream().map(a -> a.startsWith("--duration=") ? "--duration=30s" : a)
                .toList(), "--driver=hyperfoil", "--out=" + out));
        await(lines(bench), "bench: 1/1 ");
        List<ProcessHandle> children = awaitChildren(bench, running("HyperfoilRunner"), "Hyperfoil's JVM");
        killAndFindNoChild(bench, children, "during a Hyperfoil window");
    }

    @Test
    void stressKilledDuringAScenarioLeavesNoChild(@TempDir Path out) throws Exception {
        Process stress = start(List.of("stress", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--scenario=idle", "--idle=20", "--half-sent=5", "--trickling=5", "--idle-timeout=10s",
                "--out=" + out));
        List<ProcessHandle> children = awaitChildren(stress, running("serve"), "the scenario's server");
        Thread.sleep(1000);   // the server JVM past its start, its stop handler installed
        killAndFindNoChild(stress, children, "stress");
    }

    /** browser's server JVM, and chromedriver and Chromium (not ours: a watchdog ends them). */
    @Test
    void browserKilledDuringItsLoadsLeavesNoChild(@TempDir Path out) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(browser.Chromium.installed(), "no Chromium and chromedriver");
        Process browser = start(List.of("browser", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--page=presentations", "--runs=50", "--out=" + out));
        awaitChildren(browser, running("serve").and(all -> all.stream().anyMatch(h -> {
            String line = String.join(" ", arguments(h));   // Chromium's own process, not one of its helpers
            return line.contains("chromium") && !line.contains("--type=");
        })), "the server, chromedriver and Chromium");
        Thread.sleep(2000);   // loading pages: Chromium's renderers up
        killAndFindNoChild(browser, browser.descendants().toList(), "browser");
    }

    /**
     * Ctrl-C one second after bench starts, while the sweep is being set up (the reference pages of the
     * combinations take seconds): 130 and bench's one sentence naming --resume, then --resume of that folder, which
     * holds nothing yet, starts the run (stopped again once it has begun).
     */
    @Test
    void ctrlCInTheFirstSecondsSaysSoAndResumeStartsTheRun(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sweep");
        Process bench = start(concat(SWEEP, "--out=" + out));
        Thread.sleep(1000);
        assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(bench.pid())).start().waitFor());
        String said = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bench.waitFor(30, TimeUnit.SECONDS));
        assertEquals(130, bench.exitValue(), said);
        assertEquals(1, said.strip().lines().count(), "one sentence: " + said);
        // bench's own sentence once its command runs, the command line's while it is being built
        assertTrue(said.startsWith("pssrbench: stopped before a first window; measure it with the same flags and"
                + " --resume --out=" + out) || said.startsWith("pssrbench: stopped while starting"), said);
        assertFalse(Files.exists(out.resolve("provenance.json")), "stopped before the sweep began");

        Process resumed = start(concat(SWEEP, "--out=" + out, "--resume"));
        BlockingQueue<String> lines = lines(resumed);
        await(lines, "windows to measure");
        assertEquals(0, new ProcessBuilder("kill", "-TERM", String.valueOf(resumed.pid())).start().waitFor());
        assertTrue(resumed.waitFor(60, TimeUnit.SECONDS));
        assertEquals(130, resumed.exitValue(), String.join("\n", lines));
        assertTrue(Files.isRegularFile(out.resolve("provenance.json")), "the resumed run began the sweep");
    }

    private static List<String> concat(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }
}
