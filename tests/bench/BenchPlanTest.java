package bench;

import cli.Registry;
import model.Page;
import site.Combination;
import stats.Repetitions;
import tables.Summary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of a sweep's repetitions: shuffled per repetition from the seed, and only what is still missing, or
 * measured again because its window was not valid or was disturbed.
 */
class BenchPlanTest {

    /** Two pages at 1 and 128 connections, auto warm-ups up to 60 s, 5 s windows. */
    private static final BenchConfig.Points POINTS = new BenchConfig.Points(List.of(Page.PRESENTATIONS, Page.STOCKS),
            List.of(1, 128), List.of(), List.of(http.Protocol.H1), List.of(1));

    private static BenchConfig config(List<Page> pages, List<Integer> connections, List<http.Protocol> protocols,
                                      List<Integer> streams, int repeat, long seed, Path out, boolean resume) {
        return BenchConfig.defaults().with(new BenchConfig.Points(pages, connections, List.of(), protocols, streams))
                .with(new BenchConfig.Windows(repeat, seed, BenchConfig.AUTO, Duration.ofSeconds(60),
                        Duration.ofSeconds(5))).with(new BenchConfig.Folder(out, resume));
    }

    private static Sweep sweep(long seed, int repeat) {
        List<Combination> combinations = Registry.combinations().subList(0, 6);
        return new Sweep(config(POINTS.pages(), POINTS.connections(), POINTS.protocols(), POINTS.streams(), repeat,
                seed, Path.of("unused"), false), combinations);
    }

    private static List<String> order(List<?> tasks) {
        return tasks.stream().map(Object::toString).toList();
    }

    @Test
    void eachRepetitionHasEveryPointOnceInAnOrderOfItsOwnFromTheSeed() {
        Sweep s = sweep(42, 5);
        var tasks = s.plan(Map.of());
        assertEquals(6 * 5, tasks.size(), "a fresh JVM per combination and repetition");
        List<List<Combination>> orders = new ArrayList<>();
        for (int rep = 1; rep <= 5; rep++) {
            int r = rep;
            var of = tasks.stream().filter(t -> t.repetition() == r).toList();
            assertEquals(Set.copyOf(s.combinations()), new HashSet<>(of.stream().map(t -> t.combination()).toList()));
            of.forEach(t -> {
                assertEquals(4, t.points().size(), "2 pages x 2 connection counts");
                assertTrue(t.points().get(0).connections() < t.points().get(1).connections(), "ascending in a page");
            });
            orders.add(of.stream().map(t -> t.combination()).toList());
        }
        assertTrue(new HashSet<>(orders).size() > 1, "the order changes between repetitions: " + orders);
        assertEquals(order(tasks), order(sweep(42, 5).plan(Map.of())), "the same seed, the same order");
        assertNotEquals(order(tasks), order(sweep(43, 5).plan(Map.of())), "another seed, another order");
    }

    /** --resume: the repetitions runs.csv holds are not measured again, the rest are. */
    @Test
    void aResumeMeasuresOnlyTheMissingRepetitions() {
        Sweep s = sweep(7, 3);
        Combination c = s.combinations().get(0);
        Point p = new Point(c, Page.STOCKS, 128, 0);
        var tasks = s.plan(Map.of(PointRows.key(p), Set.of(1, 2)));
        long missing = tasks.stream().filter(t -> t.combination().equals(c))
                .flatMap(t -> t.points().stream().map(q -> t.repetition() + " " + q.name()))
                .filter(x -> x.endsWith(p.name())).count();
        assertEquals(1, missing, "repetition 3 only");
        assertEquals(6 * 3 * 4 - 2, tasks.stream().mapToInt(t -> t.points().size()).sum());
    }

    /**
     * --resume with a folder whose runs.csv holds a valid window and one that is not valid: the plan holds only the
     * invalid one's repetition, and a repetition whose every attempt was disturbed, not one that a quiet attempt
     * settled after a disturbed one.
     */
    @Test
    void aResumeMeasuresAgainOnlyTheRepetitionsWhoseWindowWasNotValidOrDisturbed(@TempDir Path dir)
            throws IOException {
        Sweep plain = sweep(7, 2);
        Sweep s = new Sweep(config(List.of(Page.STOCKS), List.of(128), POINTS.protocols(), POINTS.streams(), 2, 7,
                dir, true), plain.combinations().subList(0, 1));
        Point p = new Point(s.combinations().get(0), Page.STOCKS, 128, 0);
        Path csv = dir.resolve(Repetitions.FILE);
        Summary.append(csv, RunsFileTest.window(1, 1000, 0));
        Summary.append(csv, RunsFileTest.invalid(2));
        RunsFile runs = new RunsFile(dir);
        runs.load();
        List<String> planned = s.plan(runs.settled()).stream()
                .flatMap(t -> t.points().stream().map(q -> t.repetition() + " " + q.name())).toList();
        assertEquals(List.of("2 " + p.name()), planned, "the invalid window's repetition only");

        Files.delete(csv);
        Summary.append(csv, RunsFileTest.window(1, 600, 0.7));   // disturbed in every attempt
        Summary.append(csv, RunsFileTest.window(1, 610, 0.6));
        Summary.append(csv, RunsFileTest.window(2, 700, 0.8));   // disturbed, then measured again quietly
        Summary.append(csv, RunsFileTest.window(2, 1000, 0));
        RunsFile disturbed = new RunsFile(dir);
        disturbed.load();
        planned = s.plan(disturbed.settled()).stream()
                .flatMap(t -> t.points().stream().map(q -> t.repetition() + " " + q.name())).toList();
        assertEquals(List.of("1 " + p.name()), planned, "the repetition that stayed disturbed only");
        assertEquals(Repetitions.DISTURBED, disturbed.measuredAgain(PointRows.key(p), 1));
    }

    /**
     * Over HTTP/2 each streams count is a point of its own, named apart from HTTP/1.1's; a resume never takes an h1
     * point's repetitions for the h2c point's.
     */
    @Test
    void overHttp2EachStreamsCountIsAPointAndNotTheHttp1One() {
        Sweep plain = sweep(7, 2);
        Sweep s = new Sweep(config(POINTS.pages(), POINTS.connections(), List.of(http.Protocol.H2C), List.of(1, 16),
                2, 7, plain.out(), false), plain.combinations().subList(0, 1));
        var tasks = s.plan(Map.of());
        tasks.forEach(t -> assertEquals(2 * 2 * 2, t.points().size(), "2 pages x 2 connection counts x 2 streams"));
        Combination c = s.combinations().get(0);
        Point h1 = new Point(c, Page.STOCKS, 8, 0);
        Point h2c = new Point(c, Page.STOCKS, 8, 0, http.Protocol.H2C, 16);
        assertEquals("-stocks-c8", h1.name().substring(h1.name().indexOf("-stocks-")), "names as before protocols");
        assertTrue(h2c.name().endsWith("-stocks-c8-h2c-s16"), h2c.name());
        assertNotEquals(PointRows.key(h1), PointRows.key(h2c));
        assertEquals(2 * 8, s.plan(Map.of(PointRows.key(h1), Set.of(1, 2))).stream()
                .mapToInt(t -> t.points().size()).sum(), "the h1 point's repetitions are not the h2c point's");
        Point measured = new Point(c, Page.PRESENTATIONS, 1, 0, http.Protocol.H2C, 16);
        assertEquals(2 * 8 - 1, s.plan(Map.of(PointRows.key(measured), Set.of(2))).stream()
                .mapToInt(t -> t.points().size()).sum(), "its own repetition is");
    }

    /**
     * Several protocols: a server JVM per combination and protocol, the pairs shuffled together in each repetition
     * (so that no protocol is measured all before another), HTTP/2's points at each streams count and HTTP/1.1's at
     * one request per connection; one protocol keeps the order sweeps had before --protocol took a list.
     */
    @Test
    void protocolsAreInterleavedAServerJvmEachAndHttp1KeepsOneStream() {
        Sweep plain = sweep(11, 4);
        List<http.Protocol> three = List.of(http.Protocol.H1, http.Protocol.H2C, http.Protocol.H2);
        Sweep s = new Sweep(config(POINTS.pages(), POINTS.connections(), three, List.of(16), 4, 11, plain.out(),
                false), plain.combinations().subList(0, 2));
        var tasks = s.plan(Map.of());
        assertEquals(4 * 2 * 3, tasks.size(), "a JVM per repetition, combination and protocol");
        for (var t : tasks) {
            assertEquals(4, t.points().size(), "2 pages x 2 connection counts x one streams count");
            t.points().forEach(p -> {
                assertEquals(t.protocol(), p.protocol());
                assertEquals(t.protocol().http2() ? 16 : 1, p.streams(), p.name());
            });
        }
        boolean interleaved = false;
        for (int rep = 1; rep <= 4; rep++) {
            int r = rep;
            List<http.Protocol> in = tasks.stream().filter(t -> t.repetition() == r).map(t -> t.protocol()).toList();
            assertEquals(6, in.size());
            // not merely each protocol's JVMs one after the other in the list's order
            List<http.Protocol> blocks = new ArrayList<>();
            in.forEach(p -> {
                if (blocks.isEmpty() || blocks.get(blocks.size() - 1) != p) {
                    blocks.add(p);
                }
            });
            interleaved |= blocks.size() > 3;
        }
        assertTrue(interleaved, "protocols interleaved within a repetition: " + order(tasks));

        Sweep one = new Sweep(config(POINTS.pages(), POINTS.connections(), List.of(http.Protocol.H1), List.of(1), 4,
                11, plain.out(), false), plain.combinations());
        assertEquals(order(plain.plan(Map.of())), order(one.plan(Map.of())),
                "one protocol: the order a seed gave before");
    }

    /**
     * --threads: a server JVM per pool size for a combination that has a platform pool (blocking), its points each
     * with their size, named and keyed apart, so that a resume never takes one size's repetitions for the other's; a
     * combination without one (virtual) once, at serve's default, its points without a size; and the two sizes of a
     * point are two summary rows.
     */
    @Test
    void eachPoolSizeIsAServerJvmAndAPointOfItsOwnWhereThereIsAPool() {
        Combination blocking = Registry.combinations().stream().filter(c -> c.server().id().equals("netty")
                && c.engine().id().equals("jstachio") && c.mode().id().equals("blocking")).findFirst().orElseThrow();
        Combination virtual = new Combination(blocking.server(), blocking.engine(), Registry.mode("virtual"));
        assertTrue(blocking.serving().onPlatformPool());
        assertTrue(!virtual.serving().onPlatformPool());
        Sweep plain = sweep(5, 2);
        Sweep s = new Sweep(config(POINTS.pages(), POINTS.connections(), POINTS.protocols(), POINTS.streams(), 2, 5,
                plain.out(), false).with(POINTS.withThreads(List.of(4, 200, 4))), List.of(blocking, virtual));
        var tasks = s.plan(Map.of());
        assertEquals(2 * 3, tasks.size(), "per repetition: blocking on 4 and on 200 threads, virtual once");
        for (var t : tasks) {
            boolean pooled = t.combination().equals(blocking);
            assertTrue(pooled || t.threads() == site.ServeConfig.DEFAULT_THREADS, "started at the default: " + t);
            assertEquals(t.threads() == 4, s.serveConfig(t).args().contains("--threads=4"), "its server JVM's flags: "
                    + s.serveConfig(t).args());
            t.points().forEach(p -> assertEquals(pooled ? Integer.valueOf(t.threads()) : null, p.threads(), p.name()));
        }
        Point four = new Point(blocking, Page.STOCKS, 128, 0, http.Protocol.H1, 1, 4);
        Point more = new Point(blocking, Page.STOCKS, 128, 0);
        assertTrue(four.name().endsWith("-stocks-c128-t4"), four.name());
        assertTrue(more.name().endsWith("-stocks-c128"), "the default's name as before: " + more.name());
        assertEquals(Integer.valueOf(200), more.threads());
        assertEquals(null, new Point(virtual, Page.STOCKS, 128, 0, http.Protocol.H1, 1, 4).threads());
        assertNotEquals(PointRows.key(four), PointRows.key(more));
        assertEquals(2 * 3 * 4 - 2, s.plan(Map.of(PointRows.key(four), Set.of(1, 2))).stream()
                .mapToInt(t -> t.points().size()).sum(), "the 4 threads' repetitions are not the 200's");
        List<tables.Row> windows = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            for (Point p : List.of(four, more)) {
                windows.add(PointRows.failed(p, "-").withRepetition(rep));
            }
        }
        assertEquals(List.of(4, 200), Repetitions.summarize(windows).stream().map(tables.Row::threads).toList(),
                "two summary rows");
    }

    /** A foreign app is one more task per repetition, without a combination, its points named by its label. */
    @Test
    void aForeignAppIsATaskOfItsOwnInEveryRepetition() {
        Sweep plain = sweep(7, 2);
        ForeignApp app = new ForeignApp("webflux-app", Map.of(), Map.of(), Map.of(), -1);
        Sweep s = new Sweep(plain.config(), plain.combinations().subList(0, 1), null, List.of(app),
                plain.driver(), Map.of());
        var tasks = s.plan(Map.of());
        assertEquals(2 * 2, tasks.size(), "the combination and the app, in each of 2 repetitions");
        var foreign = tasks.stream().filter(t -> t.combination() == null).toList();
        assertEquals(2, foreign.size());
        foreign.forEach(t -> t.points().forEach(p -> {
            assertEquals("webflux-app", p.app());
            assertTrue(p.name().startsWith("foreign-webflux-app-foreign-"), p.name());
        }));
        Point done = Point.foreign("webflux-app", Page.STOCKS, 128, 0);
        assertEquals(4 * 4 - 1, s.plan(Map.of(PointRows.key(done), Set.of(1))).stream()
                .mapToInt(t -> t.points().size()).sum(), "a resume skips the app's measured repetitions too");
    }

    /** A routes file's apps (bench --targets): each a task of its own in every repetition, named by its label. */
    @Test
    void eachForeignAppOfARoutesFileIsATaskInEveryRepetition() {
        Sweep plain = sweep(7, 3);
        List<ForeignApp> apps = List.of(new ForeignApp("webflux-a", Map.of(), Map.of(), Map.of(), -1),
                new ForeignApp("mvc-b", Map.of(), Map.of(), Map.of(), -1));
        Sweep s = new Sweep(plain.config(), List.of(), null, apps, plain.driver(), Map.of());
        var tasks = s.plan(Map.of());
        assertEquals(2 * 3, tasks.size(), "two apps in each of 3 repetitions");
        for (int rep = 1; rep <= 3; rep++) {
            int r = rep;
            assertEquals(Set.of("webflux-a", "mvc-b"), tasks.stream().filter(t -> t.repetition() == r)
                    .map(t -> t.points().get(0).app()).collect(java.util.stream.Collectors.toSet()));
        }
        tasks.forEach(t -> assertEquals(1, t.points().stream().map(Point::app).distinct().count(), t.toString()));
        assertEquals(s.foreign().get(1), s.foreign("mvc-b"));
    }
}
