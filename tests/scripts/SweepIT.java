package scripts;

import cli.Registry;
import scripts.ScriptsIT.Done;
import site.Combination;
import tables.Row;
import tables.Summary;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static scripts.ScriptsIT.DOUBLE;
import static scripts.ScriptsIT.ROOT;
import static scripts.ScriptsIT.assertProvenance;
import static scripts.ScriptsIT.onPath;
import static scripts.ScriptsIT.run;

/**
 * scripts/wrk2-sweep.sh end to end, with ScriptsIT's helpers: a class of its own because its real sweep (two cells,
 * each verifying and starting a server) was half of ScriptsIT's time, and classes tagged parallel run side by side
 * while each class runs its tests one at a time (pom.xml): apart, neither outlasts the others of its run.
 */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class SweepIT {

    /**
     * The sweep's plumbing, end to end with real servers: the closed-loop maximum (Debian's wrk), then one point
     * at a fraction of it, both warmed up with Debian's wrk. wrk2 itself is not packaged here, so a test double
     * stands in for it (it checks its arguments as wrk2 does, then runs Debian's wrk and ignores the rate); the test
     * checks the sequence and the rows, not wrk2's numbers.
     */
    @Test
    void aSweepFindsTheMaximumThenRunsTheFractions(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        Combination c = Registry.combinations().get(0);
        Done d = run(ROOT, List.of("env", "WRK2=" + DOUBLE, "WRK=/usr/bin/wrk",
                "scripts/wrk2-sweep.sh", "--server", c.server().id(), "--engine", c.engine().id(),
                "--mode", c.mode().id(), "--page", "presentations", "--connections", "4",
                "--fractions", "50", "--probe-duration", "2s", "--warmup", "1s", "--out", out.toString()));
        assertEquals(0, d.code(), d.out());
        List<String> rows = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(3, rows.size(), rows + "\n" + d.out());
        Row probe = Summary.read(out.resolve("summary.csv")).get(0);
        Row half = Summary.read(out.resolve("summary.csv")).get(1);
        assertEquals("closed", probe.model());
        assertEquals("open", half.model());
        long expected = Math.max(1, Math.round(probe.reqPerS() / 2));
        assertEquals(expected, half.rate(), 1, "50% of the closed-loop maximum");
        assertTrue(d.out().contains("-R" + half.rate() + " --latency -U -s "), "wrk2 gets the rate: " + d.out());
        assertEquals(2, d.out().split("\\+ /usr/bin/wrk -t2 -c4 -d1s http://", -1).length - 1,
                "both cells warm up with Debian's wrk: " + d.out());
        JsonNode cells = assertProvenance(out, "scripts/wrk2-sweep.sh", DOUBLE + ": wrk 4.0.0").path("later_runs");
        assertEquals(2, cells.size(), "one record per cell");
        assertEquals("/usr/bin/wrk: wrk ", cells.path(0).path("load_generator").asText().substring(0, 18));
        assertEquals("-R" + half.rate(), "-R" + cells.path(1).path("flags").path("--rate").asText());
    }

    /**
     * A probe that is not valid gives no maximum: the sweep says why (the probe's own row, read by name), runs no
     * constant-rate point for it instead of taking its throughput (or an earlier row's), and exits 1. The server,
     * driven with --target, answers every request with 500.
     */
    @Test
    void aSweepWhoseProbeIsNotValidRunsNoRateForItAndExitsOne(@TempDir Path out) throws Exception {
        assumeTrue(onPath("wrk"), "Debian's wrk is not installed (apt-get install wrk)");
        HttpServer failing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        failing.createContext("/", exchange -> {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        failing.start();
        try {
            Combination c = Registry.combinations().get(0);
            Done d = run(ROOT, List.of("env", "WRK2=" + DOUBLE, "WRK=/usr/bin/wrk", "scripts/wrk2-sweep.sh",
                    "--target", "http://127.0.0.1:" + failing.getAddress().getPort(), "--server", c.server().id(),
                    "--engine", c.engine().id(), "--mode", c.mode().id(), "--page", "presentations",
                    "--connections", "2", "--fractions", "50", "--probe-duration", "1s", "--warmup", "1s",
                    "--out", out.toString()));
            assertEquals(1, d.code(), d.out());
            Path csv = out.resolve("summary.csv");
            List<Row> rows = Summary.read(csv);
            assertEquals(1, rows.size(), "the probe's row, and no constant-rate run: " + rows);
            assertFalse(rows.get(0).valid());
            String point = c.server().id() + " " + c.engine().id() + " " + c.mode().id() + " presentations c2";
            assertTrue(d.out().contains("pssrbench: the last row of " + csv + " (wrk " + c.server().id() + " "
                    + c.engine().id() + " " + c.mode().id() + " presentations closed c2) is not valid: errors: "),
                    d.out());
            assertTrue(d.out().contains("\nwrk2-sweep: " + point + ": no maximum, so no constant-rate run for it.\n"),
                    d.out());
            assertTrue(d.out().endsWith("\nwrk2-sweep: 1 closed-loop probe(s) not valid (see above): their points"
                    + " have no constant-rate runs.\n"), d.out());
        } finally {
            failing.stop(0);
        }
    }
}
