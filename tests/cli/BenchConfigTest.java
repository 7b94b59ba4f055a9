package cli;

import bench.BenchConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bench's configuration: its flags parsed into one value, whose defaults are the flags' defaults and which writes
 * itself back as flags that parse into an equal value (what a parent that starts bench relies on).
 */
class BenchConfigTest {

    /** {@code bench ARGS} parsed as the command line parses it, into the value its run would check and use. */
    private static BenchConfig parsed(List<String> args) {
        CommandLine cli = Cli.commandLine();
        List<String> all = new ArrayList<>(List.of("bench"));
        all.addAll(args);
        cli.parseArgs(all.toArray(String[]::new));
        BenchCommand bench = cli.getSubcommands().get("bench").getCommand();
        return bench.config();
    }

    @Test
    void noFlagIsTheDefaultsAndWritesNoFlag() {
        assertEquals(BenchConfig.defaults(), parsed(List.of()));
        assertEquals(List.of(), bench.BenchArgs.of(BenchConfig.defaults()));
    }

    @Test
    void everyFlagIsWrittenBackAndParsesIntoAnEqualConfiguration() {
        BenchConfig c = parsed(List.of("--page=presentations,stocks", "--connections=1,128", "--protocol=h1,h2c",
                "--streams=1,16", "--rate=100,250.5", "--repeat=3", "--seed=42", "--warmup=2000ms",
                "--warmup-max=30s", "--duration=2s", "--source-scheduler=io", "--delay=2ms", "--load-threads=2",
                "--server-cpus=0", "--client-cpus=1", "--out=/tmp/sweep", "--resume", "--jfr", "--no-baseline",
                "--settle=1500ms", "--windows=3", "--precision=2.5", "--repeat-max=12", "--no-aot-cache",
                "--threads=4,200"));
        assertEquals(c, parsed(bench.BenchArgs.of(c)), String.join(" ", bench.BenchArgs.of(c)));
        assertTrue(bench.BenchArgs.of(c).contains("--warmup=2s"), "a duration as parsed: " + bench.BenchArgs.of(c));
        assertTrue(bench.BenchArgs.of(c).contains("--rate=100,250.5"), "a whole rate without its decimals: " + bench.BenchArgs.of(c));
        assertTrue(bench.BenchArgs.of(c).contains("--settle=1500ms") && bench.BenchArgs.of(c).contains("--precision=2.5"), "as parsed: " + bench.BenchArgs.of(c));
        BenchConfig exact = parsed(List.of("--precision=off", "--settle=off", "--repeat=4"));
        assertEquals(exact, parsed(bench.BenchArgs.of(exact)), String.join(" ", bench.BenchArgs.of(exact)));
        assertEquals(4, exact.windows().repeatMax(), "without --precision, exactly --repeat");
        assertEquals(null, exact.windows().settleTime());
        assertEquals("5", parsed(List.of("--repeat=4", "--precision=5")).windows().precision(),
                "--repeat with --precision: at least");
        assertEquals("off", parsed(List.of("--repeat=4")).windows().precision(), "--repeat alone: exactly");
        assertEquals(6, BenchConfig.defaults().windows().repeatMax(), "exactly 6 by default");
        assertEquals(10, parsed(List.of("--precision=5")).windows().repeatMax(), "6 to 10 with --precision");
        BenchConfig many = parsed(List.of("--repeat=12", "--precision=5"));
        assertEquals(12, many.windows().repeatMax(), "the cap is never below --repeat");
        assertEquals(many, parsed(bench.BenchArgs.of(many)), String.join(" ", bench.BenchArgs.of(many)));

        BenchConfig export = parsed(List.of("--driver=hyperfoil", "--export=/tmp/hf", "--agents=a1=localhost:2222",
                "--target=http://127.0.0.1:8080/", "--warmup=auto"));
        assertEquals(export, parsed(bench.BenchArgs.of(export)), String.join(" ", bench.BenchArgs.of(export)));
        assertEquals(List.of("--driver=hyperfoil", "--export=/tmp/hf", "--agents=a1=localhost:2222",
                "--target=http://127.0.0.1:8080/"), bench.BenchArgs.of(export), "only what differs from the defaults");
    }

    /**
     * --threads: a list of pool sizes, a size named twice measured once, written back only where it is not serve's
     * default; refused in one sentence out of range, and with --target, whose server has its own pool.
     */
    @Test
    void threadsIsAListOfPoolSizes() {
        assertEquals(List.of(200), BenchConfig.defaults().points().threads(), "serve's default");
        BenchConfig two = parsed(List.of("--threads=4,200,4"));
        assertEquals(List.of(4, 200), two.points().threads());
        assertEquals(List.of("--threads=4,200"), bench.BenchArgs.of(two));
        assertEquals(two, parsed(bench.BenchArgs.of(two)));
        java.util.Map<List<String>, String> refused = java.util.Map.of(
                List.of("--threads=0"), "--threads takes whole numbers from 1 to 10000, the platform pool sizes of the"
                        + " servers bench starts.",
                List.of("--threads=4,10001"), "--threads takes whole numbers from 1 to 10000, the platform pool sizes"
                        + " of the servers bench starts.",
                List.of("--threads=4", "--target=http://127.0.0.1:9/"), "--threads sizes the pools of the servers"
                        + " bench starts: a --target runs with its own (serve --threads), which bench records.");
        refused.forEach((flags, sentence) -> assertEquals(sentence, org.junit.jupiter.api.Assertions.assertThrows(
                base.UsageException.class, () -> parsed(flags)).getMessage(), String.join(" ", flags)));
    }

    /** Each of the repetition flags refused in one sentence that names what it takes. */
    @Test
    void theRepetitionFlagsRefuseWhatTheyCannotTake() {
        java.util.Map<List<String>, String> refused = java.util.Map.of(
                List.of("--windows=0"), "--windows takes auto or a whole number from 1 to 10, not 0.",
                List.of("--windows=many"), "--windows takes auto or a whole number from 1 to 10, not many.",
                List.of("--precision=0"), "--precision takes off or a percentage above 0 and below 100, not 0.",
                List.of("--precision=tight"), "--precision takes off or a percentage above 0 and below 100, not tight.",
                List.of("--repeat=8", "--repeat-max=7", "--precision=5"), "--repeat-max must be at least --repeat (8): it caps the"
                        + " repetitions --precision adds.");
        refused.forEach((flags, sentence) -> assertEquals(sentence, org.junit.jupiter.api.Assertions.assertThrows(
                base.UsageException.class, () -> parsed(flags)).getMessage(), String.join(" ", flags)));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(base.UsageException.class,
                () -> parsed(List.of("--settle=soon"))).getMessage().startsWith("--settle takes off or a duration: "));
    }
}
