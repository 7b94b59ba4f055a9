package bench;

import harness.ServerProcess;
import model.Engine;
import model.Page;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/** A repetition's JVM warmed up once, at each page's heaviest point, so that its points only settle. */
final class WarmOnce {

    private WarmOnce() {
    }

    /**
     * Warm once per JVM: with an adaptive warm-up and --settle, a server started here and more than one point, each
     * page of the repetition is loaded at its heaviest point (its last: connections ascend) until steady, before its
     * points are measured in ascending order, each after a settle only. Measured here: after a warm-up at its first
     * point (1 connection), a point at 128 connections settled for 2 s read 7 to 15% below one warmed up on its own,
     * its JIT and heap not yet at that load; a page warmed on another page's load likewise. Returns the pages warmed.
     */
    static Set<Page> pages(Sweep.Task task, URI base, ServerProcess server, Map<Page, Map<Engine, byte[]>> expected,
                           PointMeasurement measurement, Duration settle, BooleanSupplier stopped)
            throws IOException, InterruptedException {
        Set<Page> warmed = new java.util.HashSet<>();
        if (server == null || !measurement.adaptive() || settle == null
                || task.points().size() < 2) {
            return warmed;
        }
        Map<Page, Point> heaviest = new java.util.LinkedHashMap<>();
        task.points().forEach(p -> heaviest.put(p.page(), p));   // in order measured: each page's last is its heaviest
        for (Point p : heaviest.values()) {
            byte[] body = expected.get(p.page()).values().iterator().next();
            if (stopped.getAsBoolean() || !measurement.warm(base, server, p, body, stopped, p.name() + "-rep"
                    + task.repetition() + "-jvm")) {
                break;   // not steady at its heaviest load: this page's points warm up each (and the later pages')
            }
            warmed.add(p.page());
        }
        return warmed;
    }

}
