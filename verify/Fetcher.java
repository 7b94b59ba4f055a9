package verify;

import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * A client that really speaks one protocol ({@link Fetchers} makes them), for verify: every request of a page's verification goes through it,
 * so the protocol is a parameter of one code path ({@link Verifier}), not a copy of it. Each {@link TimedFetch} says
 * the version its response came on, which the verifier checks: the JDK's client silently upgrades a clear-text
 * request to HTTP/2 when asked for it, and falls back to HTTP/1.1 when ALPN does not give h2.
 */
public interface Fetcher extends AutoCloseable {

    /** Sends a GET; the future completes when the body is complete, or fails if it was cut. */
    CompletableFuture<TimedFetch> get(URI uri);

    /** The version every response must come back on: {@link TimedFetch#HTTP_1_1} or {@link TimedFetch#HTTP_2}. */
    String version();

    @Override
    void close();
}
