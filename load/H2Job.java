package load;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.ssl.SslContext;

import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the HTTP/2 client needs of {@link LoadGenerator.Plan}, so that these files do not depend on the one that
 * starts them: where to send and how (over TLS trusting {@code trust} alone), the load model, and what a correct
 * response is.
 */
record H2Job(URI uri, int connections, int threads, double rate, Duration timeout, long bodyLength, long bodyCrc,
             long firstItemEnd, boolean tls, int streams, X509Certificate trust) {
    boolean openLoop() {
        return rate > 0;
    }

    /** Requests in flight at once: a stream slot each. */
    int slots() {
        return connections * streams;
    }

    String scheme() {
        return tls ? "https" : "http";
    }

    int port() {
        return uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
    }

    /** The request every stream sends: a GET of the page. */
    Http2Headers request() {
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new DefaultHttp2Headers().method("GET").scheme(scheme()).path(path).authority(uri.getRawAuthority());
    }

    /**
     * What the connections share: the job, the window, the TLS context (null in clear text), and the first failure
     * that makes the point unmeasurable (ALPN did not choose h2, the server allows fewer streams than asked, no TLS
     * handshake succeeds); {@code handshaken}: whether any TLS handshake has succeeded (then a failed one is an error
     * of the load, not of the set-up).
     */
    record Shared(H2Job plan, LoadWorker.Window window, SslContext tls, AtomicReference<String> failure,
                  AtomicBoolean handshaken) {
        void fail(String sentence) {
            failure.compareAndSet(null, sentence);
        }
    }
}
