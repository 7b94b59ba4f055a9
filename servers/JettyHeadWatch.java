package servers;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.CyclicTimeout;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Jetty's missing request-head timeout: closes a connection whose request head (request line and headers) has not
 * arrived within the timeout of the moment the connection became ready for a request (opened, or its previous
 * response completed).
 *
 * <p>Jetty 12.1 bounds a head only by the connection's idle timeout, which every byte read restarts, so a client
 * that trickled its head a byte at a time, each within the timeout of the last, was never closed (measured: five
 * such clients still open 5 s into a 2 s timeout). Its {@code MinimumDataRateHandler} (and the deprecated
 * {@code HttpConfiguration.setMinRequestDataRate}) bound the request body, which a handler reads after the head.
 *
 * <p>How, with Jetty's own APIs: as a {@link Connection.Listener} on the connector, it gives each connection a
 * {@link CyclicTimeout} when it opens and sets it; as a {@link HttpConfiguration.Customizer}, which Jetty runs once
 * a head has been parsed, before the handler, it cancels it, and sets it again when the request's stream completes
 * (its response written). CyclicTimeout is the timer Jetty itself uses for connection idleness, built for a timeout
 * that is cancelled and set again on every request: that costs two compare-and-sets and at most one scheduler task
 * per connection at a time, not one per request.
 */
final class JettyHeadWatch implements Connection.Listener, HttpConfiguration.Customizer {

    private final Connector connector;
    private final long timeoutMs;
    private final Map<Connection, CyclicTimeout> clocks = new ConcurrentHashMap<>();

    JettyHeadWatch(Connector connector, Duration timeout) {
        this.connector = connector;
        this.timeoutMs = timeout.toMillis();
    }

    /**
     * HTTP/1.1 connections only: one served over TLS opens as a TLS connection and then the HTTP/1.1 one within it,
     * whose requests cancel its clock; an HTTP/2 connection carries many streams at once, so no head bounds it (a
     * clock set again by one stream's end would cut the others' pages).
     */
    @Override
    public void onOpened(Connection connection) {
        if (!(connection instanceof org.eclipse.jetty.server.internal.HttpConnection)) {
            return;
        }
        CyclicTimeout clock = new CyclicTimeout(connector.getScheduler()) {
            @Override
            public void onTimeoutExpired() {
                connection.close();
            }
        };
        clocks.put(connection, clock);
        clock.schedule(timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void onClosed(Connection connection) {
        CyclicTimeout clock = clocks.remove(connection);
        if (clock != null) {
            clock.destroy();
        }
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        CyclicTimeout clock = clocks.get(request.getConnectionMetaData().getConnection());
        if (clock != null) {
            clock.cancel();
            request.addHttpStreamWrapper(stream -> new HttpStream.Wrapper(stream) {
                @Override
                public void succeeded() {
                    // Set before the stream completes: completing lets the connection parse its next (pipelined)
                    // head, whose customize must find the clock set to cancel it.
                    clock.schedule(timeoutMs, TimeUnit.MILLISECONDS);
                    super.succeeded();
                }
            });
        }
        return request;
    }
}
