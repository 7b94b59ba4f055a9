package cli;

import bench.BenchConfig;
import bench.LoadDriver;
import site.Combination;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** {@code bench --driver=hyperfoil --export=DIR --target=URL}: the points written as Hyperfoil benchmarks, not run. */
final class BenchExport {

    private BenchExport() {
    }

    /**
     * Writes each point of {@code running} at {@code target} as a benchmark for a Hyperfoil cluster (the
     * configuration checked that the driver exports) and says where, and what to do with them, on {@code o}.
     */
    static void write(BenchConfig config, LoadDriver loadDriver, Combination running, URI target, PrintWriter o)
            throws IOException, InterruptedException {
        BenchConfig.Windows w = config.windows();
        BenchConfig.Load load = config.load();
        List<Path> written = ((LoadDriver.Exports) loadDriver).export(running, config.points().pages(),
                config.points().connections(), config.points().rates(), target, w.fixedWarmup(), w.steady(),
                w.duration(), load.agents(), load.export());
        written.forEach(f -> o.println("bench: wrote " + f + " (Hyperfoil's parser accepts it)"));
        o.println("bench: run each on a Hyperfoil controller (upload, run, export -f JSON) and bring the"
                + " exports back with: pssrbench hyperfoil-import --out=DIR RUN.json ... (docs/hyperfoil.md)");
        o.flush();
    }
}
