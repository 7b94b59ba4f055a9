package verify;

import base.Durations;

import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One GET, timing when the headers and each piece of the body arrived (relative to the moment the request was
 * handed to the client), and the HTTP version the response came back on ({@link #HTTP_1_1} or {@link #HTTP_2}):
 * made here with the JDK's client, or by {@link H2cFetcher} for HTTP/2 by prior knowledge ({@link Fetcher}).
 */
public record TimedFetch(int status, HttpHeaders headers, byte[] body, long headersNanos, List<Long> arrivalNanos,
                         List<Integer> arrivalEnds, String version) {

    public static final String HTTP_1_1 = "HTTP/1.1";
    public static final String HTTP_2 = "HTTP/2";
    /** Asks for compression, so that verify can see that none is applied. */
    static final String ACCEPT_ENCODING = "gzip, deflate";

    public static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Sends the request; the future completes when the body is complete, or fails if the body was cut. */
    public static CompletableFuture<TimedFetch> get(HttpClient client, URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Accept-Encoding", TimedFetch.ACCEPT_ENCODING).GET().build();
        long start = System.nanoTime();
        long[] headersAt = new long[1];
        Collector collector = new Collector(start);
        return client.sendAsync(request, info -> {
            headersAt[0] = System.nanoTime() - start;
            return HttpResponse.BodySubscribers.fromSubscriber(collector, c -> c.bytes.toByteArray());
        }).thenApply(r -> new TimedFetch(r.statusCode(), r.headers(), r.body(), headersAt[0],
                List.copyOf(collector.arrivals), List.copyOf(collector.ends),
                r.version() == HttpClient.Version.HTTP_2 ? HTTP_2 : HTTP_1_1));
    }

    /** Time to first byte of the body, in nanoseconds; -1 for an empty body. */
    public long ttfbNanos() {
        return arrivalNanos.isEmpty() ? -1 : arrivalNanos.get(0);
    }

    /** Time to the last byte of the body. */
    public long totalNanos() {
        return arrivalNanos.isEmpty() ? headersNanos : arrivalNanos.get(arrivalNanos.size() - 1);
    }

    /** When the body byte at {@code offset} arrived, in nanoseconds since the request was sent. */
    public long arrivalOf(int offset) {
        for (int i = 0; i < arrivalEnds.size(); i++) {
            if (arrivalEnds.get(i) > offset) {
                return arrivalNanos.get(i);
            }
        }
        throw new IllegalArgumentException("offset " + offset + " beyond the body");
    }

    /** How many separate deliveries the body came in (a page that streams arrives in several). */
    public int chunks() {
        return arrivalNanos.size();
    }

    private static final class Collector implements Flow.Subscriber<List<ByteBuffer>> {
        private final long start;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final List<Long> arrivals = new ArrayList<>();
        private final List<Integer> ends = new ArrayList<>();

        Collector(long start) {
            this.start = start;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            long now = System.nanoTime() - start;
            boolean any = false;
            for (ByteBuffer b : buffers) {
                any |= b.hasRemaining();
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
            if (any) {
                arrivals.add(now);
                ends.add(bytes.size());
            }
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
    }

    /** Connect timeout of the clients that talk to a server started elsewhere (verify and bench --target). */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** Why a request failed, in a few words: the JDK's HTTP client often throws exceptions without a message. */
    public static String why(Throwable e) {
        // The most telling cause wins: the client wraps an unknown host in a ConnectException, for one.
        if (has(e, UnresolvedAddressException.class) || has(e, UnknownHostException.class)) {
            return "unknown host";
        }
        if (has(e, HttpConnectTimeoutException.class)) {
            return "no connection within " + Durations.format(CONNECT_TIMEOUT);
        }
        if (has(e, HttpTimeoutException.class)) {
            return "no answer in time";
        }
        String message = firstMessage(e);
        if (has(e, ConnectException.class)) {
            return message == null ? "connection refused" : message.toLowerCase(Locale.ROOT);
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }

    private static boolean has(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String firstMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return null;
    }

    /** The fetch, within 10 s and four times the items' time; a failed one as its own exception. */
    static TimedFetch await(CompletableFuture<TimedFetch> f, double itemsMs) throws Exception {
        try {
            return f.get(10_000 + (long) (itemsMs * 4), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException("no complete response in time");
        }
    }

    /** A failed fetch's exception in a few words. */
    static String describe(Throwable e) {
        return e instanceof java.io.IOException ? why(e)
                : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
