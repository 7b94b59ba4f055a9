package servers;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Helidon's missing request-head timeout: closes a connection whose request head (request line and headers) has not
 * arrived within the timeout of the moment the connection became ready for a request (accepted, or its previous
 * response written).
 *
 * <p>Helidon 4.5.0's idle sweep covers only part of it: it closes a connection whose request line has not arrived
 * within the timeout of Helidon's own last-request time, which it reads from a clock that ticks once a second, and
 * it skips a connection whose request line has arrived but whose headers have not (Helidon counts it busy); a
 * client that trickled its headers after a request line was never closed. Counting the headers from the request
 * line instead would let a head take twice the timeout (a request line that took most of it, then the headers).
 *
 * <p>How: {@link #selector} wraps Helidon's HTTP/1 connection selector, which creates the connection as it is
 * accepted, on the virtual thread that serves it for its whole life; the connection's {@link Clock} lives in a
 * thread local of that thread, where Helidon also calls {@link #headers} and the handler calls {@link #responded}.
 * A clock is a deadline (two volatile writes per request) and at most one check on a shared timer thread, which
 * finds the head received and stops, or the deadline later and waits again, or the deadline passed and closes the
 * socket: no task per request, no thread per connection.
 */
final class NimaHeadWatch implements Http1ConnectionListener {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon(true).name("nima-head-timeout").unstarted(r));
    private static final ThreadLocal<Clock> CLOCK = new ThreadLocal<>();
    /** The deadline while no head is awaited: between a request's headers and the end of its response. */
    private static final long NONE = Long.MAX_VALUE;

    private final long timeoutNanos;

    NimaHeadWatch(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /** Helidon's HTTP/1 selector, which also starts each new connection's clock. */
    ServerConnectionSelector selector(ServerConnectionSelector http1) {
        return new ServerConnectionSelector() {
            @Override
            public int bytesToIdentifyConnection() {
                return http1.bytesToIdentifyConnection();
            }

            @Override
            public Support supports(BufferData data) {
                return http1.supports(data);
            }

            @Override
            public Set<String> supportedApplicationProtocols() {
                return http1.supportedApplicationProtocols();
            }

            @Override
            public ServerConnection connection(ConnectionContext ctx) {
                Clock clock = new Clock(ctx);
                CLOCK.set(clock);
                clock.ready();
                return http1.connection(ctx);
            }
        };
    }

    /**
     * The request line has arrived. Its connection's clock is running already (from the accept or the last
     * response); if it is not (a connection this watch did not see accepted, a response this server did not write),
     * it starts now, so that the headers are bounded at least from here.
     */
    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        Clock clock = CLOCK.get();
        if (clock == null || clock.ctx != ctx) {
            clock = new Clock(ctx);
            CLOCK.set(clock);
        }
        if (clock.deadline == NONE) {
            clock.ready();
        }
    }

    /** The head is complete: no deadline until the response has been written. */
    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        Clock clock = CLOCK.get();
        if (clock != null && clock.ctx == ctx) {
            clock.deadline = NONE;
        }
    }

    /** The handler wrote its whole response: the connection's next head is due within the timeout. */
    static void responded() {
        Clock clock = CLOCK.get();
        if (clock != null) {
            clock.ready();
        }
    }

    /** One connection's deadline for its next head, and the check that enforces it. */
    private final class Clock implements Runnable {
        private final ConnectionContext ctx;
        /** {@link System#nanoTime} by which the awaited head must be complete, or {@link #NONE}. */
        volatile long deadline = NONE;
        /** A check of this clock is on the timer; guarded by this. */
        private boolean checking;

        Clock(ConnectionContext ctx) {
            this.ctx = ctx;
        }

        void ready() {
            deadline = System.nanoTime() + timeoutNanos;
            synchronized (this) {
                if (!checking) {
                    checking = true;
                    TIMER.schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
                }
            }
        }

        /** On the timer: nothing awaited (stop), the deadline ahead (check again then), or passed (close). */
        @Override
        public void run() {
            synchronized (this) {
                long due = deadline;
                if (due == NONE) {
                    checking = false;
                    return;
                }
                long left = due - System.nanoTime();
                if (left > 0) {
                    TIMER.schedule(this, left, TimeUnit.NANOSECONDS);
                    return;
                }
                checking = false;
                deadline = NONE;
            }
            ctx.serverSocket().close();   // a closed connection's last check closes it again: harmless
        }
    }
}
