package verify;

import client.H2Client;
import client.H2Dial;
import client.H2Stream;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/2 in clear text by prior knowledge (the connection starts with the HTTP/2 preface, no Upgrade), over the
 * project's HTTP/2 client ({@link H2Client}): the JDK's HttpClient cannot do it. All requests share one connection,
 * each on a stream of its own, as a browser's requests of a page do; every DATA frame is timed as it is read, as
 * {@link TimedFetch} times each piece of a body. Windows as Chromium's ({@link H2Dial#chromium}), not HTTP/2's
 * initial 65,535 bytes: verify checks pages as browsers receive them; what small windows do to pages sharing a
 * connection is for the HTTP/2 stress scenarios (docs/http2.md has what was seen with Helidon). Streams beyond the
 * server's limit wait in the codec until one ends.
 */
final class H2cFetcher implements Fetcher {

    private final EventLoopGroup group = H2Client.loop();
    private H2Client connection;   // opened at the first request, to that request's host and port; guarded by this

    @Override
    public String version() {
        return TimedFetch.HTTP_2;
    }

    @Override
    public CompletableFuture<TimedFetch> get(URI uri) {
        CompletableFuture<TimedFetch> result = new CompletableFuture<>();
        long start = System.nanoTime();
        H2Client parent;
        try {
            parent = connection(uri);
        } catch (IOException e) {
            result.completeExceptionally(e);
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
            return result;
        }
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("http").path(path)
                .authority(uri.getRawAuthority()).add("accept-encoding", TimedFetch.ACCEPT_ENCODING);
        parent.get(headers, start, new Stream(result));
        return result;
    }

    private synchronized H2Client connection(URI uri) throws IOException, InterruptedException {
        // A connection the server has said GOAWAY on takes no new stream: the next request opens another.
        if (connection != null && !connection.lost()) {
            return connection;
        }
        if (connection != null) {
            connection.close();
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : 80;
        connection = H2Client.open(group, uri.getHost(), port, null, uri.getRawAuthority(), H2Dial.chromium(),
                H2Dial.CONNECTION_WINDOW, (int) TimedFetch.CONNECT_TIMEOUT.toMillis(), 1);
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
        }
        H2Client.stop(group);
    }

    /** One request's response: its header fields, then each DATA frame's bytes and arrival, until its end. */
    private static final class Stream implements H2Stream.Listener {
        private final CompletableFuture<TimedFetch> result;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final List<Long> arrivals = new ArrayList<>();
        private final List<Integer> ends = new ArrayList<>();
        private final Map<String, List<String>> fields = new LinkedHashMap<>();

        Stream(CompletableFuture<TimedFetch> result) {
            this.result = result;
        }

        @Override
        public void headers(Http2Headers headers, long nanos) {
            headers.forEach(h -> {
                String name = h.getKey().toString().toLowerCase(Locale.ROOT);
                if (!name.startsWith(":")) {
                    fields.computeIfAbsent(name, n -> new ArrayList<>()).add(h.getValue().toString());
                }
            });
        }

        @Override
        public boolean data(ByteBuf payload, long nanos, boolean last) {
            byte[] bytes = new byte[payload.readableBytes()];
            payload.getBytes(payload.readerIndex(), bytes);
            body.writeBytes(bytes);
            arrivals.add(nanos);
            ends.add(body.size());
            return false;
        }

        @Override
        public void end(H2Stream s, String failure, boolean reset, long nanos) {
            if (failure != null) {
                result.completeExceptionally(new IOException(failure));
            } else {
                result.complete(new TimedFetch(s.status(), HttpHeaders.of(fields, (a, b) -> true),
                        body.toByteArray(), s.headersNanos(), List.copyOf(arrivals), List.copyOf(ends),
                        TimedFetch.HTTP_2));
            }
        }
    }
}
