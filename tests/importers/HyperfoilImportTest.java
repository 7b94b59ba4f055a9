package importers;

import cli.CliTest;
import tables.Metric;
import tables.Row;
import tables.Summary;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The import on a real export: {@code tests/resources/hyperfoil/two-agents.json} is the file Hyperfoil 0.25.2's CLI
 * ({@code export -f JSON}) wrote for a run of a benchmark that {@code bench --driver=hyperfoil --export} wrote,
 * run by a controller that deployed two agents over SSH on this machine (docs/hyperfoil.md has the commands). It
 * is kept as exported. Every expected figure here was read from the file with jq (the expression beside it), not
 * with the code under test.
 */
class HyperfoilImportTest {

    // Read from the fixture with jq: the expression beside each use below.
    private static final String BENCHMARK = "pssr.vertx.jstachio.virtual.stocks.c4";
    private static final String RUN_ID = "0001";
    private static final long RESPONSES = 588;
    private static final long P50_NS = 39_583_743;
    private static final long P99_NS = 306_184_191;
    private static final long MAX_NS = 926_941_183;
    private static final long SPAN_MS = 10_156;
    private static final Map<String, Long> AGENTS = Map.of("a1", 296L, "a2", 292L);
    // [.info.errors[].msg | select(test("Jitter watchdog"))] | length
    private static final int JITTER_WARNINGS = 36;
    // [.info.errors[].msg | select(test("\\| CPU [0-9]+ was used"))] | length
    private static final int CPU_WARNINGS = 4;

    private static Path fixture() throws Exception {
        return Path.of(HyperfoilImportTest.class.getResource("/hyperfoil/two-agents.json").toURI());
    }

    @Test
    void aControllersExportGivesItsMeasuredPhaseAndEachAgentsShare() throws Exception {
        HyperfoilImport.Export export = HyperfoilImport.export(fixture());
        assertEquals(BENCHMARK, export.benchmark());                  // .info.benchmark
        assertEquals(RUN_ID, export.runId());                         // .info.id
        assertFalse(export.cancelled());                              // .info.cancelled
        // .info.errors has 40 entries, all of them the watchdogs' warnings of a load generator short of CPU (this
        // machine's 2 cores ran the controller, both agents, the server and other work): not failures
        assertEquals(List.of(), export.errors());
        assertEquals(JITTER_WARNINGS, export.jitterWarnings());
        assertEquals(CPU_WARNINGS, export.cpuWarnings());
        assertEquals(1, export.phases().size(), "the warm-up is left out");
        HyperfoilImport.Phase m = export.phases().get(0);
        assertEquals("measure", m.phase());                           // .stats[] | select(.isWarmup == false) | .phase
        assertEquals("stocks", m.metric());                           // ... | .metric
        assertEquals(RESPONSES, m.responses());                       // ... | .total.summary.responseCount
        assertEquals(RESPONSES, m.status2xx());                       // ... | .total.summary.extensions.http.status_2xx
        assertEquals(0L, m.errors());
        assertEquals(P50_NS, m.p50());            // ... | .total.summary.percentileResponseTime."50.0"
        assertEquals(P99_NS, m.p99());            // ... | .total.summary.percentileResponseTime."99.0"
        assertEquals(MAX_NS, m.max());                                // ... | .total.summary.maxResponseTime
        assertEquals(SPAN_MS / 1000.0, m.seconds(), 1e-9);            // ... | .total.end - .total.start
        // .agents[] | {name, n: (.stats[] | select(.phase == "measure") | .total.summary.responseCount)}
        assertEquals(AGENTS, m.agentResponses());
        assertEquals(RESPONSES, m.agentResponses().values().stream().mapToLong(Long::longValue).sum(),
                "the agents' shares add up to the total");

        Row row = m.row(HyperfoilImport.point(export.benchmark()), "");
        assertTrue(row.valid(), row.note());
        assertEquals(RESPONSES, row.requests());
        assertEquals(RESPONSES / (SPAN_MS / 1000.0), row.reqPerS(), 0.01);
        assertEquals(P50_NS / 1e6, row.decimal(Metric.TTLB_P50_MS), 0.001);
        assertTrue(row.note().contains("responses per agent: "), row.note());
    }

    @Test
    void theCommandImportsItAndRefusesARunThatFailed(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("imported");
        CliTest.Run run = CliTest.run("hyperfoil-import", "--out=" + out, fixture().toString());
        assertEquals(0, run.code(), run.err());
        List<Row> rows = Summary.read(out.resolve("summary.csv"));
        assertEquals(1, rows.size());
        assertEquals(HyperfoilImport.TOOL, rows.get(0).tool());
        assertEquals(4, rows.get(0).connections());
        assertEquals(RESPONSES, rows.get(0).requests());
        assertTrue(rows.get(0).note().contains("run " + RUN_ID), rows.get(0).note());
        assertTrue(rows.get(0).note().contains("responses per agent: a1 296, a2 292"), rows.get(0).note());
        assertTrue(rows.get(0).note().contains("watchdogs warned"), rows.get(0).note());
        assertTrue(run.out().contains("responses per agent"), run.out());

        // The same export as a run whose agent failed (a copy changed here; the fixture stays as exported)
        ObjectMapper json = new ObjectMapper();
        ObjectNode failed = (ObjectNode) json.readTree(fixture().toFile());
        ((ObjectNode) failed.get("info")).putArray("errors").addObject().put("agent", "a2")
                .put("msg", "Failed to deploy agent");
        Path copy = dir.resolve("failed.json");
        json.writeValue(copy.toFile(), failed);
        CliTest.Run refused = CliTest.run("hyperfoil-import", "--out=" + dir.resolve("other"), copy.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("failed (a2: Failed to deploy agent)"), refused.err());
        assertFalse(Files.exists(dir.resolve("other/summary.csv")), "nothing written");
    }
}
