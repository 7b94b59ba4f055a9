package stress;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the scenarios take: the streams scenario's connection count and per-item delay, the aborts' count, the idle
 * scenario's connections (idle, half-sent, trickling) and the idle timeout its server gets, the slow readers and the
 * measured window of the normal traffic beside them, where results and logs go, the shutdown scenario's keep-alive
 * clients (its second part has a quarter as many pages, at least 1), and the HTTP/2 streams scenario's connections
 * and streams on each, the soak's length and connections, each HTTP/2 attack's length; and {@code stress
 * --protocol} (h1 for the HTTP/1.1 scenarios; h2c or h2 for the HTTP/2 ones, whose servers are started with it and
 * which connect over it).
 */
public record StressSettings(int streams, Duration streamsDelay, int aborts, int idle, int halfSent, int trickling,
                             Duration idleTimeout, int slowReaders, Duration slowReadersWindow, Path folder,
                             PrintStream out, int shutdownClients, int h2Connections, int h2Streams,
                             http.Protocol protocol, Duration soakDuration, int soakConnections,
                             Servers servers, Duration attackDuration) {

    /**
     * How a scenario's server JVM starts: {@link #SERVE}, as {@code serve} runs the combination, for every user of
     * stress; a test hands in a server that misbehaves on purpose (tests/stress/FaultServer), so that each pass rule
     * is seen failing on the code that measures the real servers.
     */
    public interface Servers {
        harness.ServerProcess start(site.ServeConfig config, java.util.List<String> jvmFlags, Path log)
                throws java.io.IOException, InterruptedException;
    }

    public static final Servers SERVE = (config, jvmFlags, log) -> harness.ServerProcess.start(config,
            java.util.List.of(), jvmFlags, log);

    /** The settings with {@link #SERVE}'s servers and the default attack length. */
    public StressSettings(int streams, Duration streamsDelay, int aborts, int idle, int halfSent, int trickling,
                          Duration idleTimeout, int slowReaders, Duration slowReadersWindow, Path folder,
                          PrintStream out, int shutdownClients, int h2Connections, int h2Streams,
                          http.Protocol protocol, Duration soakDuration, int soakConnections) {
        this(streams, streamsDelay, aborts, idle, halfSent, trickling, idleTimeout, slowReaders, slowReadersWindow,
                folder, out, shutdownClients, h2Connections, h2Streams, protocol, soakDuration, soakConnections,
                SERVE, base.Durations.parse(ATTACK_DURATION));
    }

    // Each setting's default, once: stress's options take these (picocli wants constant text), and docs/stress.md
    // is checked against them (tests/stress/ScenarioDocsTest).
    public static final String CONNECTIONS = "10000";
    public static final String STREAMS_DELAY = "250ms";
    public static final String H2_CONNECTIONS = "8";
    public static final String H2_STREAMS = "100";
    public static final String ABORTS = "1000";
    public static final String SLOW_READERS = "100";
    public static final String SLOW_READERS_WINDOW = "5s";
    public static final String IDLE = "5000";
    public static final String HALF_SENT = "200";
    public static final String TRICKLING = "200";
    public static final String IDLE_TIMEOUT = http.ConnectionLimits.DEFAULT_IDLE_TIMEOUT_TEXT;
    public static final String SHUTDOWN_CLIENTS = "64";
    // A minute: enough to see a leak of a few KB per page at 16 connections, short enough for stress's default run
    // of every scenario; a soak worth quoting is asked for (--soak-duration=30m).
    public static final String SOAK_DURATION = "60s";
    public static final String SOAK_CONNECTIONS = "16";
    // Long enough for a flood to fill a server's queues or a decoder's buffers many times over (most defences cut
    // the attacker off within the first second), short enough to run all eleven attacks on a server in two minutes.
    public static final String ATTACK_DURATION = "5s";

    /** Every setting a scenario may read ({@link Scenario#settings()}): stress's option and its default. */
    public static final Map<String, String> DEFAULTS = ordered("--connections", CONNECTIONS, "--streams-delay",
            STREAMS_DELAY, "--h2-connections", H2_CONNECTIONS, "--h2-streams", H2_STREAMS, "--aborts", ABORTS,
            "--slow-readers", SLOW_READERS, "--slow-readers-window", SLOW_READERS_WINDOW, "--idle", IDLE, "--half-sent",
            HALF_SENT, "--trickling", TRICKLING, "--idle-timeout", IDLE_TIMEOUT, "--shutdown-clients",
            SHUTDOWN_CLIENTS, "--soak-duration", SOAK_DURATION, "--soak-connections", SOAK_CONNECTIONS,
            "--attack-duration", ATTACK_DURATION);

    private static Map<String, String> ordered(String... optionThenDefault) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < optionThenDefault.length; i += 2) {
            m.put(optionThenDefault[i], optionThenDefault[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** The protocol of the HTTP/2 scenarios: one stress may use that takes the HTTP/2 client (h2c or h2). */
    http.Protocol http2() {
        java.util.List<http.Protocol> http2 = http.Protocol.Command.STRESS.protocols().stream()
                .filter(http.Protocol::http2).toList();
        if (!http2.contains(protocol)) {
            throw new IllegalArgumentException("the HTTP/2 scenarios run over " + http.Protocol.ids(http2) + ", not "
                    + protocol.id() + ".");
        }
        return protocol;
    }
}
