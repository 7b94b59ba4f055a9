package verify;

import http.Protocol;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.concurrent.CompletableFuture;

/** The {@link Fetcher} of each protocol. */
public final class Fetchers {

    private Fetchers() {
    }

    /**
     * The client for {@code protocol}: the JDK's HttpClient pinned to HTTP/1.1 for h1 and h1s, the JDK's HTTP/2
     * client for h2 (ALPN), Netty's HTTP/2 codec for h2c by prior knowledge (the JDK's client has no prior
     * knowledge, only the Upgrade: {@link #jdk}). {@code trust}: the TLS context that trusts the server's
     * certificate (h1s and h2), null in clear text.
     */
    public static Fetcher of(Protocol protocol, SSLContext trust) {
        return switch (protocol) {
            case H1, H1S -> jdk(HttpClient.Version.HTTP_1_1, trust);
            case H2 -> jdk(HttpClient.Version.HTTP_2, trust);
            case H2C -> new H2cFetcher();
        };
    }

    /**
     * The JDK's HttpClient at {@code version}; HTTP_2 over {@code http://} is h2c by the HTTP/1.1 Upgrade, over
     * {@code https://} h2 by ALPN.
     */
    public static Fetcher jdk(HttpClient.Version version, SSLContext trust) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(version).connectTimeout(TimedFetch.CONNECT_TIMEOUT);
        HttpClient client = (trust == null ? builder : builder.sslContext(trust)).build();
        String expected = version == HttpClient.Version.HTTP_2 ? TimedFetch.HTTP_2 : TimedFetch.HTTP_1_1;
        return new Fetcher() {
            @Override
            public CompletableFuture<TimedFetch> get(URI uri) {
                return TimedFetch.get(client, uri);
            }

            @Override
            public String version() {
                return expected;
            }

            @Override
            public void close() {
                client.shutdownNow();
            }
        };
    }
}
