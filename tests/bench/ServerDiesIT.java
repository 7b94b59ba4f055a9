package bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32, item 4: a server JVM that dies during a repetition (kill -9 here, as the kernel's OOM killer or an
 * operator ends it) is said in one sentence, what was measured is kept, the dead window is recorded as such, and the
 * repetition is measured again in a fresh JVM once; a server that dies again ends bench with exit 3. The real jar as
 * a process, its server found in its process tree and killed by PID (one given too small a heap: ServerOomIT).
 */
// Not tagged parallel: in the parallel run (CI, 2026-11-28) its bench's verification missed verify's timing rules under
// the load of eleven classes on 2 cores, and the classes there that time a Ctrl-C failed beside it. Its kills follow
// bench's progress lines, not a clock from the server's start, which under load had landed before the server served.
class ServerDiesIT {

    private static Path jar;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    /** One point, one repetition; a window long enough to be killed in. */
    private Process bench(Path out) throws IOException {
        return bench(out, "--connections=2");
    }

    private Process bench(Path out, String... more) throws IOException {
        return bench(started, out, more);
    }

    /** bench as above with {@code more} flags, its process added to {@code started}: ServerOomIT's too. */
    static Process bench(List<Process> started, Path out, String... more) throws IOException {
        findJar();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString(), "bench", "--server=jdk", "--engine=jstachio", "--mode=virtual",
                "--no-baseline", "--warmup=1s", "--duration=4s", "--repeat=1", "--windows=1",
                "--no-aot-cache", "--out=" + out));
        command.addAll(List.of(more));
        Process p = new ProcessBuilder(command).start();
        started.add(p);
        return p;
    }

    /** The bench JVM's {@code serve} child other than {@code not} (-1: any), waited for up to 90 s. */
    private static ProcessHandle server(Process bench, long not) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && bench.isAlive()) {
            Optional<ProcessHandle> serve = bench.descendants().filter(h -> h.pid() != not && arguments(h)
                    .contains("serve")).findFirst();
            if (serve.isPresent()) {
                return serve.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no server JVM within 90 s (bench alive: " + bench.isAlive() + ")");
    }

    private static List<String> arguments(ProcessHandle h) {
        try {
            return List.of(Files.readString(Path.of("/proc", String.valueOf(h.pid()), "cmdline")).split("\0"));
        } catch (IOException e) {
            return List.of();   // gone
        }
    }

    /**
     * kill -9 of {@code server} 2 s after bench's next progress line, which it prints when a server is up and the
     * point's warm-up (1 s) starts: in its window (4 s), or at the end of its warm-up on a slow machine.
     */
    private static void kill(ProcessHandle server, Progress progress) throws Exception {
        progress.next();
        Thread.sleep(2000);
        assertTrue(server.isAlive(), "the server ended before it was killed");
        assertEquals(0, new ProcessBuilder("kill", "-9", String.valueOf(server.pid())).start().waitFor());
    }

    /**
     * bench's standard output read line by line as it comes: the whole text at the end, and each progress line
     * ("bench: 2/2 repetition 1/1 ...") as it is printed.
     */
    static final class Progress {
        private static final Pattern LINE = Pattern.compile("^bench: \\d+/\\d+ repetition ");
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final CompletableFuture<String> text = new CompletableFuture<>();

        Progress(java.io.InputStream in) {
            Thread.ofPlatform().daemon(true).name("bench-progress").start(() -> {
                StringBuilder all = new StringBuilder();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        all.append(line).append('\n');
                        if (LINE.matcher(line).find()) {
                            lines.add(line);
                        }
                    }
                } catch (IOException e) {
                    all.append("(unreadable: ").append(e).append(')');
                }
                text.complete(all.toString());
            });
        }

        /** Waits up to 90 s for the next progress line. */
        void next() throws InterruptedException {
            assertTrue(lines.poll(90, TimeUnit.SECONDS) != null, "a progress line within 90 s");
        }
    }

    /** What bench printed (stdout and stderr apart) and its exit status, once it ended (within 120 s). */
    record Ended(String out, String err, int status) {
    }

    static Ended end(Process bench, CompletableFuture<String> out, CompletableFuture<String> err)
            throws Exception {
        assertTrue(bench.waitFor(120, TimeUnit.SECONDS), "bench ended within 120 s");
        // The output ends with bench unless a child that outlived it holds it open. (It once read "open past 10 s"
        // in the parallel run: its reads then waited for the common pool's one thread, see harness.Drain.)
        return new Ended(out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS), bench.exitValue());
    }

    @Test
    void aServerKilledOnceIsSaidAndItsRepetitionMeasuredAgainInAFreshJvm(@TempDir Path out) throws Exception {
        Process bench = bench(out);
        Progress said = new Progress(bench.getInputStream());
        var err = harness.Drain.of(bench.getErrorStream());
        ProcessHandle first = server(bench, -1);
        kill(first, said);
        Ended ended = end(bench, said.text, err);
        String all = ended.out() + ended.err();
        assertTrue(all.contains("bench: the server of repetition 1 of jdk-jstachio-virtual died ")
                && all.contains("(killed by signal 9 (SIGKILL)); repetition 1 is measured again in a fresh JVM (1 of"
                + " at most 1)."), all);
        assertEquals(0, ended.status(), all);   // the fresh JVM's window is the repetition's: a valid point
        assertTrue(Files.isRegularFile(out.resolve("logs/jdk-jstachio-virtual.rep1-2.server.log")), "a second JVM");
        String runs = Files.readString(out.resolve("runs.csv"));
        assertTrue(runs.lines().count() >= 2 && !runs.contains("the server died"), "the fresh JVM's window: " + runs);
        // Killed in its window: that window is kept, moved with its note beside runs.csv, as a --resume moves one.
        if (all.contains("died during the window of")) {
            assertTrue(Files.readString(out.resolve("runs-replaced.csv"))
                    .contains("the server died during this window (killed by signal 9 (SIGKILL))"));
        }
    }

    @Test
    void aServerKilledTwiceInOneRepetitionEndsBenchWithExit3KeepingWhatWasMeasured(@TempDir Path out)
            throws Exception {
        Process bench = bench(out);
        Progress said = new Progress(bench.getInputStream());
        var err = harness.Drain.of(bench.getErrorStream());
        ProcessHandle first = server(bench, -1);
        kill(first, said);
        kill(server(bench, first.pid()), said);
        Ended ended = end(bench, said.text, err);
        String all = ended.out() + ended.err();
        assertEquals(3, ended.status(), all);
        assertTrue(ended.err().startsWith("pssrbench: the server of repetition 1 of jdk-jstachio-virtual died ")
                && ended.err().contains("(killed by signal 9 (SIGKILL)), after 1 fresh JVM for that repetition"
                + " already; bench ends here (exit 3)"), ended.err());
        assertEquals(1, ended.err().strip().lines().count(), "one sentence: " + ended.err());
        assertTrue(Files.isRegularFile(out.resolve("provenance.json")), "the folder is kept");
        assertTrue(Files.isRegularFile(out.resolve("logs/jdk-jstachio-virtual.rep1-2.server.log")), "a second JVM");
    }

    /** Whatever a failed test left running is stopped, so that a failure leaves no orphan either. */
    @AfterEach
    void stopWhatIsLeft() {
        stop(started);
    }

    static void stop(List<Process> started) {
        for (Process p : started) {
            List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
            p.destroyForcibly();
            all.forEach(ProcessHandle::destroyForcibly);
        }
        started.clear();
    }
}
