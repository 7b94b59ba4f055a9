package modes;

import cli.Registry;
import model.Page;
import site.Combination;
import site.Logs;
import site.RawHttp;
import site.Servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suspendable mode's claim, "no thread waits for data", checked where it can fail: many renders in flight
 * between two items (a long delay per item), and a dump of every thread of the JVM, virtual ones included. In the
 * suspendable mode no thread may be parked inside the template (each render is a suspended coroutine, held by
 * nothing but the data source's timer), the platform threads stay as many as before, and kotlinx-coroutines starts
 * no thread of its own (Dispatchers.Unconfined). The same probe on the virtual mode, where each render is a
 * virtual thread parked in the template's loop over the blocking Iterable, must find them: so it does see a
 * waiting render when there is one.
 */
class SuspendableModeTest {

    private static final int RENDERS = 100;
    /** Long enough that every render is between two items while the threads are dumped. */
    private static final Duration DELAY = Duration.ofMillis(1500);

    @BeforeAll
    static void setUp() {
        Logs.configure();
    }

    @Test
    void suspendedRendersHoldNoThread() throws Exception {
        Probe p = probe("suspendable");
        assertEquals(List.of(), p.waitingInTemplate(), "threads parked inside the template");
        assertEquals(List.of(), p.coroutineThreads(), "kotlinx-coroutines' own threads");
        assertTrue(p.platformAfter - p.platformBefore < 10, "platform threads before " + p.platformBefore
                + ", with " + RENDERS + " renders in flight " + p.platformAfter);
        assertTrue(p.threads.size() - p.allBefore < RENDERS / 4, "threads of any kind (a render that waits"
                + " elsewhere, e.g. in runBlocking, holds one too) before " + p.allBefore + ", with " + RENDERS
                + " renders in flight " + p.threads.size());
    }

    @Test
    void theProbeSeesRendersThatWaitOnAThread() throws Exception {
        Probe p = probe("virtual");
        assertTrue(p.waitingInTemplate().size() >= RENDERS / 2,
                "virtual mode: each render waits on its virtual thread; seen " + p.waitingInTemplate().size());
        assertTrue(p.threads.size() - p.allBefore >= RENDERS / 2, "virtual mode: a thread per render; before "
                + p.allBefore + ", in flight " + p.threads.size());
    }

    /** What the JVM's threads were doing with {@link #RENDERS} htmlflow renders in flight on netty in {@code mode}. */
    private static Probe probe(String mode) throws Exception {
        Combination c = new Combination(Registry.server("netty"), Registry.engine("htmlflow"), Registry.mode(mode));
        try (Servers.Started server = Servers.start(c, DELAY)) {
            for (int i = 0; i < 8; i++) {   // warm-up: event loops, timer threads and classes started
                try (RawHttp.Exchange e = new RawHttp.Exchange(server.port(), Page.values()[i % 2].path())) {
                    e.firstBytes();
                }
            }
            MatrixTest.awaitTrue(() -> server.site().inFlight() == 0, "warm-up renders end");
            int before = platformThreads();
            int allBefore = dump().size();
            List<RawHttp.Exchange> open = new ArrayList<>();
            try {
                for (int i = 0; i < RENDERS; i++) {
                    RawHttp.Exchange e = new RawHttp.Exchange(server.port(), "/stocks");
                    open.add(e);
                }
                for (RawHttp.Exchange e : open) {
                    e.firstBytes();   // the render has started
                }
                MatrixTest.awaitTrue(() -> server.site().inFlight() == RENDERS, RENDERS + " renders in flight");
                Probe p = new Probe(dump(), allBefore, before, platformThreads());
                assertEquals(RENDERS, server.site().inFlight(), "the renders were still in flight when dumped");
                return p;
            } finally {
                for (RawHttp.Exchange e : open) {
                    e.close();
                }
            }
        }
    }

    private static int platformThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Every thread of this JVM, virtual threads included (the JDK's JSON thread dump). */
    private static List<JsonNode> dump() throws Exception {
        Path dir = Files.createTempDirectory("pssr-threads");
        Path file = dir.resolve("threads.json");
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            List<JsonNode> threads = new ArrayList<>();
            for (JsonNode container : new ObjectMapper().readTree(file.toFile()).path("threadDump")
                    .path("threadContainers")) {
                container.path("threads").forEach(threads::add);
            }
            return threads;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    private record Probe(List<JsonNode> threads, int allBefore, int platformBefore, int platformAfter) {

        /** Threads parked (not running) with a frame of the engine's templates on their stack. */
        List<String> waitingInTemplate() {
            List<String> waiting = new ArrayList<>();
            for (JsonNode t : threads) {
                boolean inTemplate = false;
                boolean parked = false;
                for (JsonNode frame : t.path("stack")) {
                    String f = frame.asText();   // "app//engines.HtmlFlowEngine.m(…)": drop the loader/module
                    f = f.substring(f.lastIndexOf('/', Math.max(0, f.indexOf('('))) + 1);
                    inTemplate |= f.startsWith("engines.HtmlFlowEngine") || f.startsWith("htmlflow.");
                    parked |= f.contains("LockSupport.park") || f.contains("Object.wait");
                }
                if (inTemplate && parked) {
                    waiting.add(t.path("name").asText() + "#" + t.path("tid").asText());
                }
            }
            return waiting;
        }

        /** Threads kotlinx-coroutines starts: its Default/IO workers and the executor of its delays. */
        List<String> coroutineThreads() {
            return threads.stream().map(t -> t.path("name").asText())
                    .filter(n -> n.startsWith("DefaultDispatcher-worker") || n.startsWith("kotlinx.coroutines"))
                    .toList();
        }
    }
}
