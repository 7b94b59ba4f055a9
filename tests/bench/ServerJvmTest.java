package bench;

import cli.Registry;
import harness.AotCache;
import harness.ServerProcess;
import http.Protocol;
import site.Combination;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --server-jvm reaches the server JVM's command line, the AOT cache's key and provenance.json. */
class ServerJvmTest {

    private static final List<String> PAPER = List.of("-Xms512m", "-Xmx16g", "-XX:+UseG1GC");

    private static Sweep sweep(List<String> serverJvm) {
        BenchConfig.Servers d = BenchConfig.defaults().servers();
        BenchConfig c = BenchConfig.defaults().with(BenchConfig.defaults().windows().withSeed(1))
                .with(new BenchConfig.Folder(Path.of("unused"), false))
                .with(new BenchConfig.Servers(d.delay(), d.timers(), null, null, false, false, false, serverJvm));
        return new Sweep(c, Registry.combinations().subList(0, 1));
    }

    @Test
    void theOptionsComeAfterBenchsOwnAndBeforeTheAotCachesOnTheServersCommandLine() {
        List<String> aot = AotCache.useFlags(Path.of("/cache/nima.aot"));
        List<String> command = ServerProcess.command(List.of(), sweep(PAPER).serverJvmFlags(aot), "serve");
        int xmx = command.indexOf("-Xmx16g");
        assertTrue(xmx > command.indexOf("--enable-native-access=ALL-UNNAMED") && xmx >= 0, command.toString());
        assertTrue(command.indexOf("-Xms512m") < xmx && xmx < command.indexOf("-XX:+UseG1GC"), command.toString());
        assertTrue(command.indexOf("-XX:+UseG1GC") < command.indexOf("-XX:AOTCache=/cache/nima.aot")
                && command.indexOf("-XX:AOTCache=/cache/nima.aot") < command.indexOf("PssrBench"), command.toString());
        assertEquals(aot, sweep(List.of()).serverJvmFlags(aot), "none given: the cache's alone, as before");
    }

    @Test
    void theyArePartOfTheAotCachesKeyAndOfProvenance() throws Exception {
        Combination c = Registry.combinations().get(0);
        String none = AotTraining.key(c, Protocol.H1, List.of());
        assertEquals(AotCache.key(AotCache.classPath(), System.getProperty("java.vm.version"),
                ServerProcess.jvmFlags(c.server()), Point.label(c, Protocol.H1)), none, "without any, the key of before");
        assertNotEquals(none, AotTraining.key(c, Protocol.H1, PAPER));
        @SuppressWarnings("unchecked")
        Map<String, List<String>> flags = (Map<String, List<String>>) sweep(PAPER).provenance()
                .get("server_jvm_flags");
        assertTrue(flags.get(c.server().id()).containsAll(PAPER), flags.toString());
    }
}
