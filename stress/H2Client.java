package stress;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Settings;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * The well-formed traffic of the HTTP/2 scenarios, over the project's HTTP/2 client ({@link client.H2Client}) at an
 * {@link H2Endpoint}: each GET a stream of its own, its body counted and checksummed (CRC32C, as bench's parser does
 * over HTTP/1.1) as its DATA frames arrive, or reset by this client after its first one if asked. The windows are
 * HTTP/2's initial 65,535 bytes, which the multiplexer's streams hand back as they read: a stress scenario holds the
 * server to what the protocol guarantees every client, not to a browser's larger windows (verify uses those).
 */
final class H2Client implements AutoCloseable {

    private final H2Endpoint endpoint;
    private final client.H2Client connection;

    private H2Client(H2Endpoint endpoint, client.H2Client connection) {
        this.endpoint = endpoint;
        this.connection = connection;
    }

    /** One event-loop thread for a scenario's connections: the client must not take the server's CPU. */
    static EventLoopGroup loop() {
        return client.H2Client.loop();
    }

    static void stop(EventLoopGroup group) {
        client.H2Client.stop(group);
    }

    /**
     * A connection to {@code endpoint}, its preface sent (over TLS: once ALPN chose h2, else an IOException saying
     * what it chose); the server's SETTINGS arrive in their own time.
     */
    static H2Client open(EventLoopGroup group, H2Endpoint endpoint) throws IOException, InterruptedException {
        return new H2Client(endpoint, client.H2Client.open(group, H2Endpoint.HOST, endpoint.port(), endpoint.netty(),
                endpoint.authority(), Http2Settings.defaultSettings(), 0, H2Endpoint.CONNECT_MILLIS,
                H2Endpoint.READY_SECONDS));
    }

    /** The server's SETTINGS_MAX_CONCURRENT_STREAMS (-1: none), once its SETTINGS arrived (within 10 s). */
    long maxConcurrentStreams() throws IOException, InterruptedException {
        return connection.maxConcurrentStreams();
    }

    /** Whether the server said GOAWAY on this connection, or closed it. */
    boolean lost() {
        return connection.lost();
    }

    /** The error code of the server's GOAWAY, or -1 for none. */
    long goAwayError() {
        return connection.goAwayError();
    }

    /**
     * GET {@code path} on a stream of its own; with {@code resetAfterFirstData}, this client resets the stream
     * (RST_STREAM, CANCEL) as soon as its first DATA frame arrives. {@code gauge} (or null) counts the stream from
     * its HEADERS' departure to its end. Never completes exceptionally: a failure is in the {@link H2Stream.Got}.
     */
    CompletableFuture<H2Stream.Got> get(String path, boolean resetAfterFirstData, H2Stream.Gauge gauge) {
        CompletableFuture<H2Stream.Got> result = new CompletableFuture<>();
        connection.get(new DefaultHttp2Headers().method("GET").scheme(endpoint.scheme()).path(path)
                .authority(endpoint.authority()), System.nanoTime(), new client.H2Stream.Listener() {
            private final CRC32C crc = new CRC32C();
            private boolean counted;

            @Override
            public void sent() {
                if (gauge != null) {
                    counted = true;
                    gauge.up();
                }
            }

            @Override
            public boolean data(ByteBuf payload, long nanos, boolean last) {
                crc.update(payload.nioBuffer(payload.readerIndex(), payload.readableBytes()));
                return resetAfterFirstData && !last;
            }

            @Override
            public void end(client.H2Stream s, String failure, boolean reset, long nanos) {
                if (counted) {
                    gauge.down();
                }
                result.complete(new H2Stream.Got(s.status(), s.bodyBytes(), crc.getValue(), failure,
                        s.headersNanos(), nanos, reset));
            }
        });
        return result;
    }

    /** GET {@code path}, waiting up to {@code timeoutSeconds}; a timeout is a failed {@link H2Stream.Got}. */
    H2Stream.Got fetch(String path, int timeoutSeconds) throws InterruptedException {
        try {
            return get(path, false, null).get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return new H2Stream.Got(0, 0, 0, "not finished within " + timeoutSeconds + " s", -1, -1, false);
        }
    }

    /** A normal page on a new connection: 200 and equal to the page of {@code length} bytes and CRC32C {@code crc}. */
    static boolean pageWorks(EventLoopGroup group, H2Endpoint endpoint, String path, long length, long crc)
            throws InterruptedException {
        try (H2Client client = open(group, endpoint)) {
            return client.fetch(path, 30).page(length, crc);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
