/*
 * The Hyperfoil side of `bench --driver=hyperfoil`, run in a JVM of its own by Java's source launcher
 * (`java -cp <hyperfoil-http 0.25.2 and its dependencies> HyperfoilRunner.java ...`), never compiled into PssrBench:
 * Hyperfoil 0.25 is built on Vert.x 4 and Netty 4.1, PssrBench's servers on Vert.x 5 and Netty 4.2, and one class
 * path cannot hold both (bench/HyperfoilDriver.java resolves this JVM's class path with Maven). It only needs
 * Hyperfoil's classes and the JDK, and talks to PssrBench through files and one stdout line:
 *
 *   parse BENCHMARK.yaml           parses with Hyperfoil's own BenchmarkParser; prints the benchmark's name, phases
 *                                  and agents, each with its inline host or its properties (exit 1 and the parser's
 *                                  message if it does not parse)
 *   run BENCHMARK.yaml OUT.json    runs it on Hyperfoil's in-VM engine (LocalSimulationRunner); prints "measuring"
 *                                  when the first phase that is not a warm-up starts; writes OUT.json; ends (status
 *                                  143) as soon as its standard input ends: bench keeps it a pipe, which the kernel
 *                                  closes when bench ends, SIGKILL included
 *
 * OUT.json has the layout of the `stats` section of Hyperfoil's JSON export (`export -f JSON`, written by the
 * controller's io.hyperfoil.controller.JsonWriter, which is not on Maven Central): per phase and metric the phase,
 * the metric, isWarmup and total.summary, the latter serialised by Hyperfoil's own StatisticsSummary and Jackson
 * mapper exactly as the export does. So one reader (importers/HyperfoilImport.java) reads both. One field is added that
 * the export does not have: `hdrHistogram`, the phase's whole response-time histogram (HdrHistogram's compressed
 * encoding, base64), from which PssrBench writes its hgrm files.
 */

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.api.statistics.StatsExtension;
import io.hyperfoil.core.impl.LocalSimulationRunner;
import io.hyperfoil.core.parser.BenchmarkParser;
import io.vertx.core.json.jackson.DatabindCodec;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

public class HyperfoilRunner {

    /** The percentiles Hyperfoil's controller exports (StatisticsStore.PERCENTILES in 0.25.2). */
    static final double[] PERCENTILES = {0.5, 0.9, 0.99, 0.999, 0.9999};

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[0].equals("parse") || args[0].equals("run") && args.length == 3)) {
            System.err.println("usage: HyperfoilRunner parse BENCHMARK.yaml | run BENCHMARK.yaml OUT.json");
            System.exit(2);
        }
        Benchmark benchmark;
        try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
            benchmark = BenchmarkParser.instance().buildBenchmark(in, BenchmarkData.EMPTY, Map.of());
        } catch (Exception e) {
            System.err.println("Hyperfoil's parser refused " + args[1] + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        if (args[0].equals("parse")) {
            System.out.println("benchmark " + benchmark.name());
            benchmark.phases().stream().sorted((a, b) -> a.name.compareTo(b.name)).forEach(p -> System.out.println(
                    "phase " + p.name + " " + p.model.getClass().getSimpleName() + " duration " + p.duration
                            + " warmup " + p.isWarmup));
            // An agent in the inline form ([user@]host[:port]) or the properties form (sorted, as a map prints)
            Arrays.stream(benchmark.agents()).forEach(a -> System.out.println("agent " + a.name + " "
                    + (a.inlineConfig != null ? a.inlineConfig : new TreeMap<>(a.properties))));
            return;
        }
        // The parent gone (its pipe closed, however it ended): no one reads the figures, and the load must stop.
        Thread.ofPlatform().daemon(true).start(() -> {
            try {
                while (System.in.read(new byte[256]) >= 0) {
                    // bench writes nothing: only the end counts
                }
            } catch (java.io.IOException e) {
                // a broken pipe is an end as well
            }
            Runtime.getRuntime().halt(143);
        });
        run(benchmark, Path.of(args[2]));
        // Vert.x and Hyperfoil's stats executor may leave non-daemon threads behind; the results are written.
        System.exit(0);
    }

    private static void run(Benchmark benchmark, Path out) throws Exception {
        // Per phase and metric: the consumer receives each collection period's increments, which are summed here
        // as the controller's StatisticsStore sums them.
        Map<String, StatisticsSnapshot> totals = new TreeMap<>();
        Map<String, Phase> phases = new TreeMap<>();
        LocalSimulationRunner runner = new LocalSimulationRunner(benchmark,
                (phase, stepId, metric, snapshot, countDown) -> {
                    synchronized (totals) {
                        String key = phase.name + "\u0000" + metric;
                        phases.put(key, phase);
                        totals.computeIfAbsent(key, k -> new StatisticsSnapshot()).add(snapshot);
                    }
                }, null, null) {
            @Override
            protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status,
                                                           boolean sessionLimitExceeded, Throwable error) {
                if (status == PhaseInstance.Status.RUNNING && !phase.isWarmup) {
                    System.out.println("measuring");   // PssrBench samples the server from here on
                    System.out.flush();
                }
                return super.phaseChanged(phase, status, sessionLimitExceeded, error);
            }
        };
        runner.run();

        StatsExtension.registerSubtypes();   // as the controller does, so that "http" status counts serialise
        var mapper = DatabindCodec.mapper();
        ObjectNode root = mapper.createObjectNode();
        root.putObject("info").put("benchmark", benchmark.name());
        ArrayNode stats = root.putArray("stats");
        synchronized (totals) {
            for (Map.Entry<String, StatisticsSnapshot> e : totals.entrySet()) {
                Phase phase = phases.get(e.getKey());
                StatisticsSnapshot s = e.getValue();
                String metric = e.getKey().substring(e.getKey().indexOf('\u0000') + 1);
                ObjectNode entry = stats.addObject();
                entry.put("name", phase.name).put("phase", phase.name).put("iteration", "").put("fork", "")
                        .put("metric", metric).put("isWarmup", phase.isWarmup);
                ObjectNode total = entry.putObject("total");
                total.put("phase", phase.name).put("metric", metric)
                        .put("start", s.histogram.getStartTimeStamp()).put("end", s.histogram.getEndTimeStamp());
                total.set("summary", mapper.valueToTree(s.summary(PERCENTILES)));
                ByteBuffer buffer = ByteBuffer.allocate(s.histogram.getNeededByteBufferCapacity());
                int length = s.histogram.encodeIntoCompressedByteBuffer(buffer);
                entry.put("hdrHistogram", Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
            }
        }
        Files.writeString(out, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    }
}
