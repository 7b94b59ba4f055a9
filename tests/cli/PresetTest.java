package cli;

import bench.BenchArgs;
import bench.BenchConfig;
import bench.Sweep;
import model.DataSource;
import model.Page;
import site.Combination;
import tables.Provenance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bench --preset=study}: what it selects is the registry's answer to its engines x modes on each server
 * (not a second list), the flags given beside it narrow or override it, the others are refused in one sentence,
 * and its configuration is written back (BenchArgs, provenance.json for a bare --resume) and read again equal.
 */
class PresetTest {

    private static final Set<String> ENGINES = Set.of("kotlinx", "rocker", "jstachio", "pebble", "freemarker",
            "trimou", "htmlflow", "thymeleaf");
    private static final Set<String> MODES = Set.of("virtual", "blocking", "suspendable", "reactive");

    /** {@code bench ARGS} parsed as the command line parses it, the command returned after its config() ran. */
    private static BenchCommand parsed(List<String> args) {
        CommandLine cli = Cli.commandLine();
        List<String> all = new ArrayList<>(List.of("bench"));
        all.addAll(args);
        cli.parseArgs(all.toArray(String[]::new));
        BenchCommand bench = cli.getSubcommands().get("bench").getCommand();
        bench.config();
        return bench;
    }

    private static List<String> selected(BenchCommand bench) {
        return bench.selection.combinations(List.of(Registry.SERVERS.get(0).id())).stream()
                .map(Combination::toString).toList();
    }

    @Test
    void studyIsTheRegistrysCombinationsOfItsApproachesOnEveryServer() {
        BenchCommand bench = parsed(List.of("--preset=study"));
        List<String> expected = Registry.combinations().stream().filter(c -> ENGINES.contains(c.engine().id())
                && MODES.contains(c.mode().id())).map(Combination::toString).toList();
        assertEquals(expected, selected(bench));
        assertEquals(5 * (8 * 2 + 1 + 2), expected.size(), "8 engines virtual and blocking, HtmlFlow-Susp,"
                + " Thymeleaf-Rx and HtmlFlow-Rx on each of 5 servers");
        for (var s : Registry.SERVERS) {
            assertEquals(19, selected(bench).stream().filter(c -> c.startsWith(s.id() + " ")).count(), s.id());
        }
        List<String> members = List.of("netty htmlflow suspendable", "vertx thymeleaf reactive",
                "netty htmlflow reactive", "javalin kotlinx blocking", "jdk jstachio virtual", "nima rocker blocking");
        members.forEach(m -> assertTrue(selected(bench).contains(m), m));
        List<String> nonMembers = List.of("nima qute virtual", "nima jstachio reactive", "nima jstachio fragments",
                "nima jstachio buffered", "nima thymeleaf suspendable", "nima raw virtual", "nima jte virtual");
        nonMembers.forEach(m -> assertFalse(selected(bench).contains(m), m));
        assertEquals(5 * 22, Sweep.withBaselines(bench.selection.combinations(List.of()), Registry.ENGINES,
                Registry.SERVERS).size(), "raw beside each server's virtual, blocking and reactive modes");

        BenchConfig c = bench.config();
        assertEquals(List.of(Page.PRESENTATIONS, Page.STOCKS), c.points().pages());
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64, 128), c.points().connections());
        assertEquals(List.of(4, 200), c.points().threads());
        assertEquals(DataSource.Timers.byId("io"), c.servers().timers());
        assertEquals(Duration.ofMillis(1), c.servers().delay());
        assertEquals(List.of("-Xms512m", "-Xmx16g", "-XX:+UseG1GC"), c.servers().serverJvm());
        // What the registry cannot run of the cross product is said, the same on every server: one line.
        assertEquals(List.of("on nima, javalin, netty, vertx, jdk: kotlinx suspendable, kotlinx reactive, rocker"
                + " suspendable, rocker reactive, jstachio suspendable, jstachio reactive, pebble suspendable, pebble"
                + " reactive, freemarker suspendable, freemarker reactive, trimou suspendable, trimou reactive,"
                + " thymeleaf suspendable"), Presets.leftOut(bench.selection.servers, bench.selection.engines,
                bench.selection.modes));
    }

    @Test
    void flagsBesideItNarrowOrOverrideIt() {
        BenchCommand nima = parsed(List.of("--preset=study", "--server=nima"));
        assertEquals(19, selected(nima).size());
        assertTrue(selected(nima).stream().allMatch(c -> c.startsWith("nima ")), selected(nima).toString());
        BenchConfig c = parsed(List.of("--preset=study", "--server=netty", "--engine=jstachio,htmlflow",
                "--connections=1,128", "--threads=8", "--page=stocks", "--server-jvm=-Xmx2g", "--repeat=2")).config();
        assertEquals(List.of(1, 128), c.points().connections());
        assertEquals(List.of(8), c.points().threads());
        assertEquals(List.of(Page.STOCKS), c.points().pages());
        assertEquals(List.of("-Xmx2g"), c.servers().serverJvm());
        assertEquals(2, c.windows().repeat());
        assertEquals(Duration.ofMillis(1), c.servers().delay(), "what is not given stays the preset's");
        assertEquals(List.of("netty htmlflow virtual", "netty htmlflow blocking", "netty htmlflow reactive",
                "netty htmlflow suspendable", "netty jstachio virtual", "netty jstachio blocking").stream().sorted()
                .toList(), selected(parsed(List.of("--preset=study", "--server=netty", "--engine=jstachio,htmlflow"))
                ).stream().sorted().toList());
    }

    @Test
    void otherFlagsAndUnknownPresetsAreRefusedInOneSentence() {
        String combines = String.join(", ", Presets.COMBINES);
        Map<List<String>, String> refused = Map.of(
                List.of("--preset=study", "--all"), "--preset=study combines only with " + combines
                        + ", not with --all.",
                List.of("--preset=study", "--rate=100"), "--preset=study combines only with " + combines
                        + ", not with --rate.",
                List.of("--preset=study", "--target=http://127.0.0.1:8080/"), "--preset=study combines only with "
                        + combines + ", not with --target.",
                List.of("--preset=paper"), "--preset takes study, not 'paper'.",
                List.of("--server-jvm=Xmx1g"), "--server-jvm takes JVM options separated by spaces, each starting"
                        + " with '-' (for example \"-Xms512m -Xmx16g -XX:+UseG1GC\"), not 'Xmx1g'.",
                List.of("--server-jvm=-Xmx1g -cp /tmp/x"), "--server-jvm cannot set -cp: bench sets the server JVMs'"
                        + " class path and AOT cache itself (--no-aot-cache starts them without one).",
                List.of("--preset=study", "--server-jvm=-XX:AOTCache=/tmp/a.aot"), "--server-jvm cannot set"
                        + " -XX:AOTCache=/tmp/a.aot: bench sets the server JVMs' class path and AOT cache itself"
                        + " (--no-aot-cache starts them without one).");
        refused.forEach((flags, sentence) -> assertEquals(sentence, assertThrows(base.UsageException.class,
                () -> parsed(flags)).getMessage(), String.join(" ", flags)));
    }

    @Test
    void thePresetsConfigurationIsWrittenBackAndReadAgainEqual(@TempDir Path dir) throws Exception {
        BenchConfig c = parsed(List.of("--preset=study", "--server=nima", "--out=" + dir)).config();
        List<String> args = BenchArgs.of(c);
        assertTrue(args.contains("--server-jvm=-Xms512m -Xmx16g -XX:+UseG1GC"), args.toString());
        assertEquals(c, parsed(args).config(), String.join(" ", args));

        // A bare --resume of the folder goes on with the flags its sweep was run with (provenance.json's).
        CommandLine cli = Cli.commandLine();
        cli.parseArgs("bench", "--preset=study", "--server=nima", "--out=" + dir);
        BenchCommand first = cli.getSubcommands().get("bench").getCommand();
        BenchConfig began = first.config();
        Provenance.add(dir, Provenance.record("bench", "test", Provenance.flags(cli.getSubcommands().get("bench")
                .getParseResult()), Map.of()));
        BenchCommand resumed = parsed(List.of("--resume", "--out=" + dir));
        assertEquals(began.with(new BenchConfig.Folder(dir, true)), resumed.config());
        assertEquals(selected(first), selected(resumed));
        // Not a preset's sweep: the flags given, as before presets.
        Path plain = Files.createDirectories(dir.resolve("plain"));
        Provenance.add(plain, Provenance.record("bench", "test", Map.of("--server", "jdk"), Map.of()));
        assertEquals(BenchConfig.defaults().with(new BenchConfig.Folder(plain, true)),
                parsed(List.of("--resume", "--out=" + plain)).config());
    }

    @Test
    void estimateOnlyPrintsThePlanAndWritesNothing(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path folder = dir.resolve("never");
        int rc = Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), "bench", "--preset=study",
                "--server=nima", "--estimate-only", "--out=" + folder);
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("bench: --preset=study leaves out what the registry cannot run, on nima:"
                + " kotlinx suspendable,"), out.toString());
        assertTrue(out.toString().contains("bench: 22 combinations x 6 repetitions, 2976 windows to measure: about "),
                out.toString());
        assertFalse(Files.exists(folder), "nothing written");
    }
}
