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
        assertEquals(List.of(), BenchConfig.defaults().args());
    }

    @Test
    void everyFlagIsWrittenBackAndParsesIntoAnEqualConfiguration() {
        BenchConfig c = parsed(List.of("--page=presentations,stocks", "--connections=1,128", "--protocol=h1,h2c",
                "--streams=1,16", "--rate=100,250.5", "--repeat=3", "--seed=42", "--warmup=2000ms",
                "--warmup-max=30s", "--duration=2s", "--source-scheduler=io", "--delay=2ms", "--load-threads=2",
                "--server-cpus=0", "--client-cpus=1", "--out=/tmp/sweep", "--resume", "--jfr", "--no-baseline",
                "--no-aot-cache"));
        assertEquals(c, parsed(c.args()), String.join(" ", c.args()));
        assertTrue(c.args().contains("--warmup=2s"), "a duration as parsed: " + c.args());
        assertTrue(c.args().contains("--rate=100,250.5"), "a whole rate without its decimals: " + c.args());

        BenchConfig export = parsed(List.of("--driver=hyperfoil", "--export=/tmp/hf", "--agents=a1=localhost:2222",
                "--target=http://127.0.0.1:8080/", "--warmup=auto"));
        assertEquals(export, parsed(export.args()), String.join(" ", export.args()));
        assertEquals(List.of("--driver=hyperfoil", "--export=/tmp/hf", "--agents=a1=localhost:2222",
                "--target=http://127.0.0.1:8080/"), export.args(), "only what differs from the defaults");
    }
}
