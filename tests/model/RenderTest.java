package model;

import cli.Registry;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Site;
import site.Tier;
import verify.Reference;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engines and the flush policy, without a server. */
class RenderTest {

    private static final Duration DELAY = Duration.ofMillis(40);

    /**
     * The timed renders run three at a time (JUnit's parallel execution, pom.xml; the class's other tests stay one at
     * a time): each is 10 or 20 items 40 ms apart on RxJava's timers and spends nearly all its time waiting, with a
     * tolerance of half a delay and up to three attempts. One at a time they took 52 s of CI's run (86 cases, 0.4 to
     * 0.8 s each; CI on 2026-11-24), the largest unit-test class after MatrixTest.
     */
    private static final java.util.concurrent.Semaphore TIMING = new java.util.concurrent.Semaphore(3);

    /**
     * One untimed render first, so that the timed ones below measure the flush policy and not this JVM's first use
     * of RxJava's timers and the engines' classes (on a busy 2-core machine that alone can exceed one delay).
     */
    @BeforeAll
    static void warmUp() {
        for (Engine engine : Registry.ENGINES) {
            ServeConfig config = ServeConfig.of(new Combination(Registry.SERVERS.get(0), engine,
                    Registry.modes(engine).get(0)), Duration.ofMillis(1));
            try (Site site = config.site()) {
                site.startLater(site.render(Page.STOCKS, bytes -> { })).done().join();
            }
        }
    }

    @Test
    void everyEngineRendersTheReferencePageWithTheSameBytes() {
        Map<Page, Map<Engine, byte[]>> all = Reference.renderAll(Registry.ENGINES);
        for (Page page : Page.values()) {
            byte[] first = null;
            for (var rendered : all.get(page).entrySet()) {
                String html = new String(rendered.getValue(), StandardCharsets.UTF_8);
                assertEquals(List.of(), Reference.check(page, html), rendered.getKey().id() + " " + page.id());
                if (first == null) {
                    first = rendered.getValue();
                } else {
                    assertArrayEquals(first, rendered.getValue(), rendered.getKey().id() + " " + page.id());
                }
            }
        }
    }

    @Test
    void everyEnginesFragmentsAddUpToItsPage() {
        assertEquals(List.of(), Reference.fragmentProblems(Registry.ENGINES));
    }

    /**
     * Two renders' fragments interleaved part by part, as two requests in the fragments mode are: each still adds up
     * to its page. An engine whose fragments keep state of a render (HtmlFlow's open document, kotlinx.html's
     * consumer) must keep it per render ({@link Templates.Fragments#start}), or the second head would take over the
     * first render's output.
     */
    @Test
    void everyEnginesFragmentsOfTwoRendersInterleavedAddUpToTheirPages() throws Exception {
        for (Engine engine : Registry.ENGINES) {
            for (Page<?> page : Page.values()) {
                assertEquals(List.of(engine.render(page), engine.render(page)), interleaved(engine, page),
                        engine.id() + " " + page.id());
            }
        }
    }

    private static <T> List<String> interleaved(Engine engine, Page<T> page) throws java.io.IOException {
        Templates.Fragments<T> fragments = engine.templates().fragments(page);
        List<Templates.Fragments<T>> renders = List.of(fragments.start(), fragments.start());
        List<java.io.StringWriter> outs = List.of(new java.io.StringWriter(), new java.io.StringWriter());
        for (int r = 0; r < 2; r++) {
            renders.get(r).head(outs.get(r));
        }
        for (T item : page.items()) {
            for (int r = 0; r < 2; r++) {
                renders.get(r).item(item, outs.get(r));
            }
        }
        for (int r = 0; r < 2; r++) {
            renders.get(r).tail(outs.get(r));
        }
        return outs.stream().map(java.io.StringWriter::toString).toList();
    }

    @Test
    void theReferenceCheckCatchesAWrongPage() {
        byte[] good = Reference.renderAll(Registry.ENGINES).get(Page.STOCKS).values().iterator().next();
        String html = new String(good, StandardCharsets.UTF_8);
        assertEquals(List.of(), Reference.check(Page.STOCKS, html));
        assertTrue(Reference.check(Page.STOCKS, html.replace("<td>0.13</td>", "<td>0.14</td>")).get(0)
                .startsWith("differs from the reference page"));
        assertTrue(Reference.check(Page.STOCKS, html.replace("</tr><tr class=\"even\">", "<tr class=\"even\">"))
                .stream().anyMatch(p -> p.startsWith("HTML parse error") || p.startsWith("differs")));
    }

    /** Every engine in every mode but blocking, each page (one diagonal of them in the quick tier). */
    static Stream<Arguments> rendersWithTimings() {
        List<Arguments> all = new ArrayList<>();
        for (Engine engine : Registry.ENGINES) {
            // Blocking renders like virtual on another kind of thread; every other mode delivers its own way.
            for (Mode approach : Registry.MODES.stream().filter(m -> !m.id().equals("blocking")).toList()) {
                if (approach.supports(engine)) {
                    for (Page page : Page.values()) {
                        all.add(Arguments.of(engine.id(), approach.id(), page.id()));
                    }
                }
            }
        }
        return Tier.cases(all, List.<java.util.function.Function<Arguments, ?>>of(a -> a.get()[0], a -> a.get()[1],
                a -> a.get()[2])).stream();
    }

    /**
     * The flush policy: the head is one chunk sent before the first item exists, then each item's markup goes out
     * before the next item could have been emitted (or, for an engine that reads one item ahead, exactly when it is).
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("rendersWithTimings")
    @Execution(ExecutionMode.CONCURRENT)
    void eachItemIsFlushedBeforeTheRendererWaitsForTheNext(String engineId, String approachId, String pageId)
            throws Exception {
        TIMING.acquire();
        try {
            flushedBeforeTheNext(engineId, approachId, pageId);
        } finally {
            TIMING.release();
        }
    }

    private static void flushedBeforeTheNext(String engineId, String approachId, String pageId) throws Exception {
        // Up to three renders: a stall of the machine (another process, a collection) can delay one render's items
        // by more than the half delay the rule allows; a wrong declaration fails every render the same way.
        for (int attempt = 1; ; attempt++) {
            try {
                timedRender(engineId, approachId, pageId);
                return;
            } catch (AssertionError e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static void timedRender(String engineId, String approachId, String pageId) throws Exception {
        Engine engine = Registry.engine(engineId);
        Page page = Page.byId(pageId);
        Server anyServer = Registry.SERVERS.get(0);
        ServeConfig config = ServeConfig.of(new Combination(anyServer, engine, Registry.mode(approachId)), DELAY);
        try (Site site = config.site()) {
            timedRender(site, config, engine, page);
        }
    }

    private static void timedRender(Site site, ServeConfig config, Engine engine, Page page) throws Exception {
        List<long[]> chunks = new CopyOnWriteArrayList<>();   // {nanos since start, cumulative bytes}
        long start = System.nanoTime();
        long[] total = {0};
        Render render = site.render(page, bytes -> {
            total[0] += bytes.length;
            chunks.add(new long[] {System.nanoTime() - start, total[0]});
        });
        site.startLater(render);   // on the mode's own threads, as for a server that answers later
        render.done().get(10, TimeUnit.SECONDS);

        byte[] expected = Reference.renderAll(Registry.ENGINES).get(page).get(engine);
        assertEquals(expected.length, total[0], "bytes");
        int items = page.items().size();
        long delay = DELAY.toNanos();
        Streaming streaming = config.mode().streaming(engine);
        if (streaming.afterData()) {
            assertTrue(chunks.get(0)[0] >= items * delay, "declared to send nothing before the last item, but the"
                    + " first chunk went out at " + chunks.get(0)[0] / 1_000_000 + " ms");
            if (config.mode().wholePage()) {
                assertEquals(1, chunks.size(), "the whole page in one piece");
            }
            assertEquals(0, site.inFlight());
            return;
        }
        assertTrue(chunks.get(0)[0] < delay, "the head must be sent before the first item is emitted, not after "
                + chunks.get(0)[0] / 1_000_000 + " ms");
        int lookahead = streaming.lookahead();
        if (lookahead == 0) {
            assertEquals(items + 2, chunks.size(), "one head chunk, one per item, one tail");
        } else {   // the last items and the tail may share a chunk
            assertTrue(chunks.size() >= items + 2 - lookahead && chunks.size() <= items + 2, chunks.size() + " chunks");
        }
        int[] itemEnds = page.itemEnds(expected);
        long head = chunks.get(0)[0];
        long[] sent = new long[items + 1];
        for (int i = 1; i <= items; i++) {
            sent[i] = timeWhenSent(chunks, itemEnds[i - 1]);
        }
        // A timer never fires early, so item 1 + lookahead cannot exist before that many delays: a lower bound that
        // no load can break, which a declared lookahead must meet.
        assertTrue(lookahead == 0 || sent[1] >= (1 + lookahead) * delay, "item 1 sent at " + sent[1] / 1_000_000
                + " ms, before item " + (1 + lookahead) + " could exist: a lookahead of " + lookahead
                + " is declared but less was measured");
        // Upper bounds against a fixed schedule would fail under load (each timer starts when the previous item
        // is emitted, so the source slips behind i × delay); as verify does, the last item, which comes with the
        // end of the data whatever the lookahead, calibrates the source's real period.
        double lag = verify.Arrival.medianLagNanos(head, java.util.Arrays.copyOfRange(sent, 1, items + 1));
        assertTrue(lag < (lookahead + 0.5) * delay, String.format(java.util.Locale.ROOT, "items sent %.1f ms after"
                + " they exist (median), more than a lookahead of %d allows", lag / 1e6, lookahead));
        assertTrue(lag > (lookahead - 0.5) * delay, String.format(java.util.Locale.ROOT, "items sent %.1f ms after"
                + " they exist (median), sooner than the declared lookahead of %d", lag / 1e6, lookahead));
        assertEquals(0, site.inFlight());
    }

    private static long timeWhenSent(List<long[]> chunks, long offset) {
        return chunks.stream().filter(c -> c[1] >= offset).findFirst().orElseThrow()[0];
    }
}
