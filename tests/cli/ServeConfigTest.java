package cli;

import http.ConnectionLimits;
import http.Protocol;
import model.DataSource;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Site;
import site.Tier;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One configuration value, one way to write it as serve's flags and one to read it back: what
 * {@link ServeConfig#args()} writes, serve's own option parsing reads back equal, and what a running server says at
 * /info.json reads back ({@link Target}) as the configuration it was started with.
 */
class ServeConfigTest {

    /** serve's parsing of {@code args}, as the command line runs it (its converters, defaults and help text). */
    private static ServeConfig parsed(List<String> args) {
        CommandLine cli = Cli.commandLine();
        List<String> line = new java.util.ArrayList<>(List.of("serve"));
        line.addAll(args);
        cli.parseArgs(line.toArray(String[]::new));
        return ((ServeCommand) cli.getSubcommands().get("serve").getCommand()).config();
    }

    @Test
    void argsParsedBackByServeAreTheSameConfiguration() {
        for (Combination c : Tier.cases(Registry.combinations(), List.<java.util.function.Function<Combination, ?>>of(
                Combination::engine, Combination::mode, Combination::server))) {
            ServeConfig defaults = ServeConfig.defaults(c);
            assertEquals(List.of("--server=" + c.server().id(), "--engine=" + c.engine().id(),
                    "--mode=" + c.mode().id()), defaults.args(), "serve's defaults write only the combination");
            assertEquals(defaults, parsed(defaults.args()), c.toString());
            ServeConfig every = ServeConfig.of(c, Duration.ofNanos(1_500_000)).withHost("::1")
                    .withTimers(DataSource.Timers.IO).withThreads(7).withGrace(Duration.ofMillis(250))
                    .withFailAfter(3).withLimits(new ConnectionLimits(128, Duration.ofSeconds(5)));
            assertEquals(every, parsed(every.args()), String.join(" ", every.args()));
            if (c.server().protocols().contains(Protocol.H2)) {
                ServeConfig h2 = every.withProtocol(Protocol.H2);
                assertEquals(h2, parsed(h2.args()), String.join(" ", h2.args()));
                ServeConfig userCertificate = h2.withTlsFiles(Path.of("/etc/pssrbench/cert.pem"),
                        Path.of("/etc/pssrbench/key.pem"));
                assertEquals(userCertificate, parsed(userCertificate.args()), String.join(" ", userCertificate.args()));
            }
            ServeConfig noDelay = ServeConfig.of(c, Duration.ZERO);
            assertEquals(noDelay, parsed(noDelay.args()), String.join(" ", noDelay.args()));
        }
    }

    @Test
    void whatARunningServerSaysReadsBackAsItsConfiguration() {
        for (Server server : Registry.SERVERS) {
            Combination c = Registry.combinations().stream().filter(x -> x.server() == server).findFirst()
                    .orElseThrow();
            // /info.json carries the combination, the delay, the scheduler, the pool size and the protocol (h2c,
            // which answers HTTP/1.1 too, where the server speaks it); the rest is serve's defaults on both sides.
            ServeConfig config = ServeConfig.of(c, Duration.ofNanos(1_500_000)).withTimers(DataSource.Timers.IO)
                    .withThreads(7).withProtocol(server.protocols().contains(Protocol.H2C) ? Protocol.H2C
                            : Protocol.H1);
            Site site = config.site();
            Server.Running running = server.start(config.listen(), site);
            try {
                Target target = Target.resolve("http://127.0.0.1:" + running.port() + "/", false, null, null, null,
                        ServeConfig.DEFAULT_DELAY, false, null);
                assertEquals(config.withPort(running.port()), target.config(), server.id());
                assertEquals(config.delay(), target.delay(), server.id());
            } finally {
                running.close();
                site.close();
            }
        }
    }
}
