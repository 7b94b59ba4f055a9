package bench;

import base.UsageException;
import cli.CliTest;
import cli.Registry;
import harness.ServerProcess;
import importers.HyperfoilImport;
import model.Page;
import site.Combination;
import site.ServeConfig;
import tables.Row;
import tables.Summary;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bench --driver=hyperfoil}: the benchmarks PssrBench writes are what Hyperfoil's own parser accepts (agents
 * included), a short run on Hyperfoil's engine against a real PssrBench server gives a valid row, and the import reads
 * the figures that run wrote. Hyperfoil runs in a JVM of its own whose class path Maven resolves (the first run here
 * downloads io.hyperfoil:hyperfoil-http, about 17 MB, into the local repository).
 */
class HyperfoilDriverTest {

    private static HyperfoilDriver driver;

    @BeforeAll
    static void prepare() throws Exception {
        driver = new HyperfoilDriver().prepare();
    }

    private static Combination vertx() {
        return Registry.combinations().stream().filter(c -> c.server().id().equals("vertx")
                && c.engine().id().equals("jstachio")).findFirst().orElseThrow();
    }

    @Test
    @Tag("slow")   // Hyperfoil's parser runs in a JVM of its own: the full tier's, as the quick one is in-process
    void theBenchmarksParseWithHyperfoilsOwnParserAgentsIncluded(@TempDir Path dir) throws Exception {
        URI base = URI.create("http://server.example:8080/");
        Point closed = new Point(vertx(), Page.STOCKS, 128, 0);
        Path file = dir.resolve("closed.hf.yaml");
        Files.writeString(file, HyperfoilBenchmark.yaml(closed, base, Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofSeconds(10), List.of("host1", "user@host2:22"), 0));
        List<String> parsed = driver.parse(file);
        assertEquals(List.of("benchmark " + HyperfoilBenchmark.name(closed),
                "phase measure Always duration 5000 warmup false", "phase warmup Always duration 10000 warmup true",
                "agent agent-1 host1", "agent agent-2 user@host2:22"), parsed);

        // Named agents, one with properties (two agents on one host, each in a folder of its own)
        Files.writeString(file, HyperfoilBenchmark.yaml(closed, base, Duration.ZERO, Duration.ofSeconds(5),
                Duration.ofSeconds(10), List.of("a1=localhost:2222;dir=/tmp/hf-a1",
                        "a2=root@localhost:2222;dir=/tmp/hf-a2;cpu=1"), 0));
        assertEquals(List.of("benchmark " + HyperfoilBenchmark.name(closed),
                "phase measure Always duration 5000 warmup false",
                "agent a1 {dir=/tmp/hf-a1, host=localhost, port=2222}",
                "agent a2 {cpu=1, dir=/tmp/hf-a2, host=localhost, port=2222, user=root}"), driver.parse(file));

        Point open = new Point(vertx(), Page.PRESENTATIONS, 16, 200);
        Files.writeString(file, HyperfoilBenchmark.yaml(open, base, Duration.ZERO, Duration.ofSeconds(5),
                Duration.ofSeconds(10), List.of(), 2));
        assertEquals(List.of("benchmark " + HyperfoilBenchmark.name(open),
                "phase measure ConstantRate duration 5000 warmup false"), driver.parse(file));

        Files.writeString(file, "name: broken\nphases:\n- p:\n    always:\n      users: x\n");
        assertThrows(java.io.IOException.class, () -> driver.parse(file), "Hyperfoil's parser refuses it");
    }

    @Test
    void aBenchmarksNameCarriesItsPoint() {
        Point p = new Point(vertx(), Page.STOCKS, 128, 250);
        HyperfoilImport.Point back = HyperfoilImport.point(HyperfoilBenchmark.name(p));
        assertEquals(new HyperfoilImport.Point("vertx", "jstachio", p.combination().mode().id(), "stocks", 128, 250),
                back);
        assertEquals(0, HyperfoilImport.point(HyperfoilBenchmark.name(new Point(vertx(), Page.STOCKS, 1, 0))).rate());
        assertNull(HyperfoilImport.point("two-agents"), "another benchmark's name");
        assertNull(HyperfoilImport.point("pssr.vertx.jstachio.virtual.stocks.x1"));
        assertThrows(UsageException.class, () -> HyperfoilBenchmark.yaml(new Point(vertx(), Page.STOCKS, 1, 2.5),
                URI.create("http://h/"), Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1), List.of(), 0),
                "Hyperfoil's usersPerSec is whole");
    }

    @Test
    void agentsTakeANameAndPropertiesAndAMalformedOneIsRefused() {
        List<HyperfoilBenchmark.Agent> agents = HyperfoilBenchmark.agents(List.of("host1",
                "a2=root@localhost:2222;dir=/tmp/hf-a2;cpu=0-1", "user@[::1]:22"));
        assertEquals(new HyperfoilBenchmark.Agent("agent-1", "host1", Map.of()), agents.get(0));
        assertEquals("a2", agents.get(1).name());
        assertEquals(List.of("host", "port", "user", "dir", "cpu"), List.copyOf(agents.get(1).properties().keySet()),
                "the host's parts first, in Hyperfoil's property names");
        assertEquals("2222", agents.get(1).properties().get("port"));
        assertEquals("0-1", agents.get(1).properties().get("cpu"));
        assertEquals(new HyperfoilBenchmark.Agent("agent-3", "user@[::1]:22", Map.of()), agents.get(2));
        for (String bad : List.of("", "a b", "a1=", "x=host:port", "a1=h;dir", "a1=h;dir=x;dir=y", "a1=h:22;port=23",
                "bad name=h", "a1=h;=x")) {
            assertThrows(UsageException.class, () -> HyperfoilBenchmark.agents(List.of(bad)), bad);
        }
        assertThrows(UsageException.class, () -> HyperfoilBenchmark.agents(List.of("a=h1", "a=h2")), "a name twice");
    }

    /**
     * A second on Hyperfoil's engine against PssrBench's vertx server in its own JVM: a valid row of tool
     * hyperfoil with throughput and whole-response times and without TTFB or first item; the figures it wrote read
     * back by the import, and imported into a results folder that report renders.
     */
    @Test
    @Tag("slow")   // a server JVM and a Hyperfoil JVM: the full tier's, as the quick one is in-process
    void anEmbeddedRunOfARealServerGivesARowAndItsExportImports(@TempDir Path out) throws Exception {
        Combination c = vertx();
        try (ServerProcess server = ServerProcess.serve(ServeConfig.of(c, Duration.ofMillis(1)),
                Files.createTempFile(out, "server", ".log"))) {
            Files.createDirectories(out.resolve("hgrm"));
            PointMeasurement m = new PointMeasurement(Duration.ofMillis(500), null, Duration.ofSeconds(1), 1, false,
                    out, driver);
            Point p = new Point(c, Page.STOCKS, 2, 0);
            String name = p.name() + "-rep1";
            byte[] body = verify.Reference.renderAll(List.of(c.engine())).get(Page.STOCKS).get(c.engine());
            Row row = m.measure(server.base(), null, p, body, Double.NaN, () -> false, name);
            assertTrue(row.valid(), row.note());
            assertEquals(HyperfoilImport.TOOL, row.tool());
            assertTrue(row.reqPerS() > 0 && row.requests() > 0, row.toString());
            assertEquals(0L, row.errors(), row.note());
            assertTrue(row.decimal(tables.Metric.TTLB_P50_MS) > 0, row.toString());
            assertNull(row.decimal(tables.Metric.TTFB_P50_MS), "Hyperfoil records no time to first byte");
            assertNull(row.decimal(tables.Metric.FIRST_ITEM_P50_MS), "nor the first item");
            assertTrue(row.note().contains(HyperfoilImport.NOTE), row.note());
            assertTrue(Files.isRegularFile(out.resolve("hgrm/" + name + ".ttlb.hgrm")));

            Path json = out.resolve("hyperfoil/" + name + ".json");
            List<HyperfoilImport.Phase> phases = HyperfoilImport.read(json);
            assertEquals(1, phases.size(), "the warm-up phase is left out");
            assertEquals(row.requests(), phases.get(0).responses());
            assertEquals(phases.get(0).responses(), phases.get(0).status2xx());

            Path imported = out.resolve("imported");
            CliTest.Run run = CliTest.run("hyperfoil-import", "--out=" + imported, json.toString());
            assertEquals(0, run.code(), run.err());
            List<Row> rows = Summary.read(imported.resolve("summary.csv"));
            assertEquals(1, rows.size());
            assertEquals(HyperfoilImport.TOOL, rows.get(0).tool());
            assertEquals(row.requests(), rows.get(0).requests());
            assertEquals(c.mode().id(), rows.get(0).mode());
            CliTest.Run report = CliTest.run("report", imported.toString());
            assertEquals(0, report.code(), report.err());
            assertTrue(Files.readString(imported.resolve("report.html")).contains("hyperfoil"));

            // The same server as a cluster's agents would load it: benchmarks written with their agents, each
            // checked by Hyperfoil's parser, nothing measured.
            Path export = out.resolve("export");
            CliTest.Run written = CliTest.run("bench", "--driver=hyperfoil", "--target=" + server.base(),
                    "--export=" + export, "--agents=loadgen1,user@loadgen2:22", "--connections=8", "--rate=100",
                    "--warmup=5s");
            assertEquals(0, written.code(), written.err());
            String closedName = HyperfoilBenchmark.name(new Point(c, Page.STOCKS, 8, 100)) + ".hf.yaml";
            String yaml = Files.readString(export.resolve(closedName));
            assertTrue(yaml.contains("agents:\n  agent-1: \"loadgen1\"\n  agent-2: \"user@loadgen2:22\"\n"), yaml);
            assertTrue(yaml.contains("constantRate:") && yaml.contains("usersPerSec: 100"), yaml);
            assertEquals(1, export.toFile().list().length, "one point: one benchmark");
            assertTrue(written.out().contains("Hyperfoil's parser accepts it"), written.out());
        }
    }
}
