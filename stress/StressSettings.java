package stress;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the scenarios take: the streams scenario's connection count and per-item delay, the aborts' count, the idle
 * scenario's connections (idle, half-sent, trickling) and the idle timeout its server gets, the slow readers and the
 * measured window of the normal traffic beside them, where results and logs go, the shutdown scenario's keep-alive
 * clients (its second part has a quarter as many pages, at least 1), and the HTTP/2 streams scenario's connections
 * and streams on each; and {@code stress --protocol} (h1 for the HTTP/1.1 scenarios; h2c or h2 for the HTTP/2 ones,
 * whose servers are started with it and which connect over it).
 */
public record StressSettings(int streams, Duration streamsDelay, int aborts, int idle, int halfSent, int trickling,
                             Duration idleTimeout, int slowReaders, Duration slowReadersWindow, Path folder,
                             PrintStream out, int shutdownClients, int h2Connections, int h2Streams,
                             core.Protocol protocol) {

    /** The protocol of the HTTP/2 scenarios: one stress may use that takes the HTTP/2 client (h2c or h2). */
    core.Protocol http2() {
        java.util.List<core.Protocol> http2 = core.Protocol.Command.STRESS.protocols().stream()
                .filter(core.Protocol::http2).toList();
        if (!http2.contains(protocol)) {
            throw new IllegalArgumentException("the HTTP/2 scenarios run over " + core.Protocol.ids(http2) + ", not "
                    + protocol.id() + ".");
        }
        return protocol;
    }
}
