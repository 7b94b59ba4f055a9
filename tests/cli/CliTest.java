package cli;

import base.Durations;
import model.Engine;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Servers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class CliTest {

    public record Run(int code, String out, String err) {
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void listPrintsEveryValidCombinationAndNothingElse() {
        Run r = run("list");
        assertEquals(0, r.code());
        assertEquals(Registry.combinations().stream().map(Combination::toString).toList(), r.out().lines().toList());
        assertEquals("", r.err());
    }

    @Test
    void helpShowsTheRegistryAndTheDefaults() {
        Run top = run("--help");
        assertEquals(0, top.code());
        Registry.SERVERS.forEach(s -> assertTrue(top.out().contains(s.id()), s.id()));
        Registry.ENGINES.forEach(e -> assertTrue(top.out().contains(e.id()), e.id()));
        Run serve = run("serve", "--help");
        assertEquals(0, serve.code());
        assertTrue(serve.out().contains("(default: " + Registry.SERVERS.get(0).id() + ")"), serve.out());
        assertTrue(serve.out().contains("(default: 1ms)"), serve.out());
        assertTrue(serve.out().contains("(default: 127.0.0.1)"), serve.out());
    }

    /** Bad input: exit 2, one line on stderr that names what is allowed, nothing on stdout, no stack trace. */
    private static void refused(String expectedFragment, String... args) {
        Run r = run(args);
        assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
        assertEquals("", r.out());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("pssrbench: "), r.err());
        assertTrue(lines.get(0).contains(expectedFragment), r.err());
    }

    @Test
    void badInputIsRefusedInOneSentence() {
        refused("unknown server 'tomcat'; valid servers: " + Registry.serverIds(), "--server=tomcat");
        refused("unknown engine 'jsp'; valid engines: " + Registry.engineIds(), "--engine=jsp");
        refused("unknown mode 'async'; valid modes: virtual, blocking, reactive", "--mode=async");
        refused("valid modes for them: virtual, blocking", "--engine=jstachio", "--mode=reactive");
        refused("write a number and a unit", "--delay=5");
        refused("write a number and a unit", "--delay=fast");
        refused("--port must be between 0 and 65535", "--port=70000");
        refused("--host=0 is a shorthand that hides which address it means (0 is every interface)", "--host=0");
        refused("Unknown option: '--colour=red'", "--colour=red");
        refused("unknown server 'tomcat'", "verify", "--server=nima,tomcat");
        refused("at least 10ms", "verify", "--delay=1ms");
        refused("unknown mode 'async'", "verify", "--mode=async");
        refused("--protocol=h2c is not available with server jdk, which speaks h1; the servers that speak it: ",
                "verify", "--server=jdk", "--protocol=h2c");
        refused("unknown page 'home'; valid pages: presentations, stocks", "bench", "--page=home");
        refused("--rate takes positive requests per second", "bench", "--rate=0");
        refused("write a number and a unit", "bench", "--duration=3");
        refused("--resume continues a sweep: name its folder with --out=DIR", "bench", "--resume");
        refused("--repeat takes a whole number of at least 1", "bench", "--repeat=0");
        refused("--driver takes pssrbench or hyperfoil", "bench", "--driver=wrk");
        refused("--protocol must be one of h1, h1s, h2c, h2, not h3", "bench", "--protocol=h3");
        refused("--protocol takes h1, h2c or h2 for bench: its load generator does not speak HTTP/1.1 over TLS (h1s)",
                "bench", "--protocol=h1s");
        refused("--protocol takes h1, h2c or h2 for bench: its load generator does not speak HTTP/1.1 over TLS (h1s)",
                "bench", "--protocol=h1,h2c,h1s");
        refused("--streams sets the HTTP/2 streams in flight per connection: it needs --protocol=h2c or h2",
                "bench", "--protocol=h1,h1", "--streams=8");
        refused("--protocol=h2c is not available with server jdk, which speaks h1; the servers that speak it: ",
                "bench", "--server=jdk", "--protocol=h1,h2c");
        refused("--streams sets the HTTP/2 streams in flight per connection: it needs --protocol=h2c or h2",
                "bench", "--streams=8");
        refused("--streams takes whole numbers from 1 to 1000", "bench", "--protocol=h2c", "--streams=0");
        refused("--streams takes whole numbers from 1 to 1000", "bench", "--protocol=h2", "--streams=16,1001");
        refused("--driver=hyperfoil measures over HTTP/1.1 only: leave out --protocol, or use --driver=pssrbench for"
                + " h2c", "bench", "--driver=hyperfoil", "--protocol=h2c");
        refused("--protocol=h2c is not available with server jdk, which speaks h1; the servers that speak it: ",
                "bench", "--server=jdk", "--protocol=h2c");
        refused("--protocol=h2 measures servers that bench starts: over TLS it trusts only the certificate it made",
                "bench", "--protocol=h2", "--target=http://127.0.0.1:9/");
        refused("--export writes Hyperfoil benchmarks: add --driver=hyperfoil", "bench", "--export=/tmp/x");
        refused("--agents names the hosts of an exported benchmark: add --export=DIR", "bench", "--agents=h1");
        refused("--export needs --target=URL", "bench", "--driver=hyperfoil", "--export=/tmp/x");
        refused("--agents takes [NAME=][user@]host[:port][;key=value...] per agent", "bench", "--driver=hyperfoil",
                "--export=/tmp/x", "--agents=a1=loadgen:ssh");
        refused("--warmup-max must be at least 10s: auto compares two blocks of 5 one-second windows", "bench",
                "--warmup-max=9s");
        refused("--warmup takes auto or a duration: cannot read the duration 'soon'; write a number and a unit",
                "bench", "--warmup=soon");
        refused("--target is one running server", "bench", "--server=nima,netty", "--target=http://127.0.0.1:1/");
        refused("--target is one running server", "verify", "--all", "--target=http://127.0.0.1:1/");
        refused("--target takes an http:// or https:// URL", "verify", "--target=127.0.0.1:8080");
        refused("--target takes an http:// or https:// URL", "bench", "--target=localhost:8080");
        refused("--all selects every combination", "bench", "--all", "--engine=pebble");
        refused("--threads takes whole numbers from 1 to 10000", "bench", "--threads=0");
        refused("'many' is not an int", "bench", "--threads=many");
        refused("--threads sizes a platform pool, and none of the selected combinations runs on one", "bench",
                "--mode=virtual,reactive", "--threads=4");
        refused("no such folder", "report", "/nonexistent/pssrbench");
    }

    /**
     * --resume of a folder that holds another command's results refuses; one that holds nothing yet (a sweep stopped
     * while it was set up) starts the run instead (InterruptIT shows that).
     */
    @Test
    void resumeOfAFolderWithoutASweepIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("provenance.json"), "{\"pssrbench\": \"0\", \"command\": \"stress\","
                + " \"flags\": {}}");
        refused("nothing to resume", "bench", "--resume", "--out=" + dir);
    }

    /** A refused flag points to the help of the command that refused it, where that flag is described. */
    @Test
    void aRefusedFlagPointsToItsCommandsHelp() {
        Run bench = run("bench", "--duration=3");
        assertTrue(bench.err().endsWith(" See 'pssrbench help bench'.\n"), bench.err());
        Run serve = run("--delay=fast");
        assertTrue(serve.err().endsWith(" See 'pssrbench help serve'.\n"), serve.err());
    }

    /** A negative duration can be read: it is refused for being negative, not for being unreadable. */
    @Test
    void aNegativeDurationIsToldItMustNotBeNegative() {
        refused("the duration '-5ms' must not be negative", "--delay=-5ms");
        refused("the duration '-1s' must not be negative", "bench", "--duration=-1s");
        refused("cannot read the duration '-fast'", "--delay=-fast");
    }

    @Test
    void aPortInUseIsReportedInOneSentenceWithExitCode1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            for (Server s : Registry.SERVERS) {
                Run r = run("--server=" + s.id(), "--port=" + taken.getLocalPort());
                assertEquals(1, r.code(), s.id() + ": " + r.err());
                assertTrue(r.err().contains("already in use"), s.id() + ": " + r.err());
                assertEquals(1, r.err().lines().count(), s.id() + ": " + r.err());
            }
        }
    }

    @Test
    void durationsAcceptUnits() {
        assertEquals(java.time.Duration.ofMillis(1), Durations.parse("1ms"));
        assertEquals(java.time.Duration.ofNanos(500_000), Durations.parse("500us"));
        assertEquals(java.time.Duration.ofNanos(1_500_000), Durations.parse("1.5ms"));
        assertEquals(java.time.Duration.ofSeconds(2), Durations.parse("2s"));
        assertEquals(java.time.Duration.ZERO, Durations.parse("0"));
        assertEquals("1500us", Durations.format(Durations.parse("1.5ms")));
        assertEquals("50ms", Durations.format(Durations.parse("50ms")));
    }

    /** A failure of the world, not of the input: exit 1, exactly {@code sentence} on stderr, nothing on stdout. */
    private static void failed(String sentence, String... args) {
        Run r = run(args);
        assertEquals(1, r.code(), String.join(" ", args) + " -> " + r.out() + r.err());
        assertEquals("", r.out());
        assertEquals(List.of(sentence), r.err().lines().toList());
    }

    /** A sweep that is short if it ever starts: these tests expect it to be refused before anything runs. */
    private static String[] shortBench(Path out, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("bench", "--server=nima", "--engine=raw",
                "--mode=virtual", "--no-baseline", "--page=presentations", "--connections=1", "--warmup=0",
                "--duration=1ms", "--out=" + out));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Test
    void aTargetWhereNothingAnswersIsOneSentenceAndWritesNothing(@TempDir Path tmp) {
        String dead = "http://127.0.0.1:1/";
        failed("pssrbench: nothing answers at " + dead + ": connection refused.", "verify", "--target=" + dead,
                "--server=nima", "--engine=jstachio", "--mode=virtual");
        failed("pssrbench: nothing answers at " + dead + ": connection refused.", "verify", "--target=" + dead);
        Path results = tmp.resolve("results");
        failed("pssrbench: nothing answers at " + dead + ": connection refused.", "bench", "--target=" + dead,
                "--server=nima", "--engine=jstachio", "--mode=virtual", "--out=" + results);
        assertFalse(Files.exists(results), "no results folder");
    }

    @Test
    void whyARequestFailedIsAFewWordsEvenWhenTheClientGivesNoMessage() {
        var refused = new java.net.ConnectException();
        refused.initCause(new java.nio.channels.ClosedChannelException());   // what the JDK's client throws
        assertEquals("connection refused", verify.TimedFetch.why(refused));
        var unknown = new java.net.ConnectException();
        unknown.initCause(new java.nio.channels.UnresolvedAddressException());
        assertEquals("unknown host", verify.TimedFetch.why(unknown));
        assertEquals("no connection within 5s", verify.TimedFetch.why(new java.net.http.HttpConnectTimeoutException("x")));
    }

    /** The case: serve as documented (1 ms per item), then verify --target at it. */
    @Test
    void verifyTargetChecksAServerAtTheDefaultDelayWithoutAMisleadingFailure() {
        Combination c = Registry.combinations().get(0);
        try (Servers.Started s = Servers.start(c, ServeConfig.DEFAULT_DELAY)) {
            for (List<String> named : List.of(List.of("--server=" + c.server().id(), "--engine=" + c.engine().id(),
                    "--mode=" + c.mode().id()), List.<String>of())) {
                List<String> args = new java.util.ArrayList<>(List.of("verify", "--target=" + s.uri("/"),
                        "--concurrency=5"));
                args.addAll(named);
                Run r = run(args.toArray(String[]::new));
                assertEquals(0, r.code(), named + ": " + r.out() + r.err());
                assertTrue(r.out().contains("1ms per item, less than the 10ms at which streaming can be told"
                        + " from noise: progressive arrival is not checked"), r.out());
                assertTrue(r.out().lines().anyMatch(l -> List.of(l.split(" +")).subList(0, 3).equals(List.of(
                        c.server().id(), c.engine().id(), c.mode().id())) && l.endsWith("OK")), r.out());
                assertFalse(r.out().contains("NaN"), r.out());
            }
        }
    }

    @Test
    void verifyTargetChecksProgressiveArrivalWhenTheServersDelayShowsIt() {
        Combination c = Registry.combinations().get(0);
        try (Servers.Started s = Servers.start(c, Duration.ofMillis(20))) {
            Run r = run("verify", "--target=" + s.uri("/"), "--concurrency=5");
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("runs " + c + " with 20ms per item"), r.out());
            assertFalse(r.out().contains("not checked"), r.out());
        }
    }

    @Test
    void aTargetThatRunsSomethingElseThanNamedIsRefused() {
        Combination c = Registry.combinations().get(0);
        Engine other = Registry.ENGINES.stream().filter(e -> e != c.engine()).findFirst().orElseThrow();
        try (Servers.Started s = Servers.start(c, ServeConfig.DEFAULT_DELAY)) {
            String target = "--target=" + s.uri("/");
            refused("the server at " + s.uri("/") + " runs " + c + ", not --engine=" + other.id()
                    + "; leave out --server, --engine and --mode to take them from it.", "verify", target,
                    "--engine=" + other.id());
            refused("the server at " + s.uri("/") + " runs " + c + ", not --engine=" + other.id(), "bench", target,
                    "--engine=" + other.id());
            refused("the server at " + s.uri("/") + " runs with 1ms per item (its serve --delay); leave out --delay",
                    "verify", target, "--delay=50ms");
        }
    }

    /** Not a pssrbench serve (or an older one): the combination must be named, and is then taken on trust. */
    @Test
    void aServerWithoutInfoJsonIsTakenOnTrustWhenItsCombinationIsNamed() throws Exception {
        var server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);   // no contexts: 404 for every path
        server.start();
        try {
            String target = "--target=http://127.0.0.1:" + server.getAddress().getPort() + "/";
            refused("does not say what it runs (/info.json answered 404): name its combination with --server,"
                    + " --engine and --mode, or measure it as a foreign app with --label=NAME and --delay.", "verify",
                    target);
            Run named = run("verify", target, "--server=nima", "--engine=jstachio", "--mode=virtual",
                    "--concurrency=2");
            assertEquals(1, named.code(), named.out() + named.err());
            assertTrue(named.out().contains("taken on trust as nima jstachio virtual with 50ms per item (--delay)"),
                    named.out());
            assertTrue(named.out().contains("status 404, expected 200"), named.out());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void cpuListsAreCheckedBeforeAnythingStarts(@TempDir Path tmp) {
        Path results = tmp.resolve("results");
        refused("--server-cpus takes a list of this machine's CPUs", shortBench(results, "--server-cpus=abc"));
        refused("--server-cpus takes a list of this machine's CPUs", shortBench(results, "--server-cpus=0-4095"));
        refused("--client-cpus takes a list of this machine's CPUs", shortBench(results, "--client-cpus=abc"));
        refused("--client-cpus takes a list of this machine's CPUs", shortBench(results, "--client-cpus=1-0"));
        assertFalse(Files.exists(results), "no results folder");
    }

    @Test
    void anUnknownCommandNamesTheCommandsAndHelpIsOne() {
        String commands = "commands: serve (the default), list, verify, bench, browser, stress, wrk-row, hyperfoil-import, last-row,"
                + " provenance,"
                + " report, compare, study, help.";
        refused("unknown command 'frob'; " + commands, "frob");
        refused("unknown command 'frob'; " + commands, "help", "frob");
        Run help = run("help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().contains("Commands:") && help.out().contains("verify"), help.out());
        Run helpBench = run("help", "bench");
        assertEquals(0, helpBench.code(), helpBench.err());
        assertTrue(helpBench.out().contains("--server-cpus"), helpBench.out());
    }

    /**
     * stress over HTTP/2: h1, h2c and h2 only (not h1s); a server named with --server that does not speak h2c or h2 is
     * refused, naming the servers that do (from their declared protocols); an HTTP/1.1 scenario is not one of theirs.
     */
    @Test
    void stressOverH2cRefusesWhatItCannotRun() {
        Server without = Registry.SERVERS.stream().filter(s -> !s.protocols().contains(http.Protocol.H2C))
                .findFirst().orElseThrow();
        String speakers = String.join(", ", Registry.SERVERS.stream()
                .filter(s -> s.protocols().contains(http.Protocol.H2C)).map(Server::id).toList());
        refused("--protocol=h2c is not available with server " + without.id() + ", which speaks "
                + http.Protocol.ids(without.protocols()) + "; the servers that speak it: " + speakers + ".",
                "stress", "--protocol=h2c", "--server=" + without.id());
        Server withoutTls = Registry.SERVERS.stream().filter(s -> !s.protocols().contains(http.Protocol.H2))
                .findFirst().orElseThrow();
        String tlsSpeakers = String.join(", ", Registry.SERVERS.stream()
                .filter(s -> s.protocols().contains(http.Protocol.H2)).map(Server::id).toList());
        refused("--protocol=h2 is not available with server " + withoutTls.id() + ", which speaks "
                + http.Protocol.ids(withoutTls.protocols()) + "; the servers that speak it: " + tlsSpeakers + ".",
                "stress", "--protocol=h2", "--server=" + withoutTls.id());
        refused("--protocol takes h1, h2c or h2 for stress: its client does not speak HTTP/1.1 over TLS (h1s).",
                "stress", "--protocol=h1s");
        // the registry's list, which the attacks made long: h2-streams, h2-resets, ..., h2-resource-loop
        refused("unknown scenario 'malformed' for --protocol=h2; scenarios: h2-streams, h2-resets, h2-slow-reader,"
                + " h2-malformed, h2-rapid-reset, ", "stress", "--protocol=h2", "--scenario=malformed");
        refused("unknown scenario 'streams' for --protocol=h2c; scenarios: "
                + stress.Scenarios.idText(http.Protocol.H2C) + ".", "stress", "--protocol=h2c", "--scenario=streams");
        refused("unknown scenario 'h2-streams' for --protocol=h1; scenarios: streams,", "stress",
                "--scenario=h2-streams");
        refused("--slow-readers-window must be longer than 0", "stress", "--slow-readers-window=0s");
        refused("--soak-duration must be at least 4s", "stress", "--soak-duration=3s");
        refused("--soak-connections take at least 1", "stress", "--soak-connections=0");
        refused("--attack-duration must be longer than 0, e.g. 5s.", "stress", "--attack-duration=0s");
    }

    /** Every option that takes a duration names every unit Durations accepts, minutes included. */
    @Test
    void everyDurationOptionNamesItsUnits() {
        CommandLine cli = new CommandLine(new Cli());
        int durations = 0;
        for (CommandLine sub : cli.getSubcommands().values()) {
            for (CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
                if (o.type() == Duration.class) {
                    durations++;
                    String text = String.join(" ", o.description());
                    assertTrue(text.contains("ns, us, ms, s or m (minutes)"), sub.getCommandName() + " "
                            + o.longestName() + ": " + text);
                }
            }
        }
        assertEquals(13, durations, "serve --delay --grace --idle-timeout, verify --delay, bench --warmup-max --duration"
                + " --delay, browser --delay, stress --streams-delay --idle-timeout --slow-readers-window"
                + " --soak-duration --attack-duration");
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
    }
}
