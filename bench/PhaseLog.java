package bench;

import harness.ServerProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code phases.csv}: the fixed costs of each server JVM a sweep started, one row per repetition of a combination
 * over a protocol, in seconds: its verification (in the repetition that paid it), its AOT cache's training or
 * lookup, its start until it answered, the JMX attach, the data source's timing (every page's floor), and its stop.
 * What a repetition costs besides its warm-ups and windows, as data, so that a cut in any of them can be seen.
 */
final class PhaseLog {

    static final String FILE = "phases.csv";
    static final List<String> HEADER = List.of("repetition", "unit", "verify_s", "aot_s", "ready_s", "jmx_s",
            "floor_s", "stop_s");

    private final Path file;

    PhaseLog(Path folder) {
        this.file = folder.resolve(FILE);
    }

    /**
     * One server JVM's row: {@code verifyNanos} and {@code aotNanos} measured around it (0 when not paid here),
     * {@code server} the JVM (null: it did not start, then only those two).
     */
    void record(int repetition, String unit, long verifyNanos, long aotNanos, ServerProcess server)
            throws IOException {
        Map<String, Long> p = server == null ? Map.of() : server.phases();
        String row = String.join(",", String.valueOf(repetition), unit, seconds(verifyNanos), seconds(aotNanos),
                seconds(p.get("ready")), seconds(p.get("jmx")), seconds(p.get("floor")), seconds(p.get("stop")));
        if (!Files.exists(file)) {   // a resumed sweep appends to the rows it has
            Files.writeString(file, String.join(",", HEADER) + "\n", StandardCharsets.UTF_8);
        }
        Files.writeString(file, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private static String seconds(Long nanos) {
        return nanos == null ? "" : String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
