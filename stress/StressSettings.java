package stress;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the scenarios take: the streams scenario's connection count and per-item delay, the aborts' count, the idle
 * scenario's connections (idle, half-sent, trickling) and the idle timeout its server gets, where results and logs
 * go, and the shutdown scenario's keep-alive clients (its second part has a quarter as many pages, at least 1).
 */
public record StressSettings(int streams, Duration streamsDelay, int aborts, int idle, int halfSent, int trickling,
                             Duration idleTimeout, int slowReaders, Path folder, PrintStream out,
                             int shutdownClients) {
}
