package servers;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.time.Duration;
import java.util.Set;

/**
 * Helidon 4.5.0's own stop, split in two: {@link #stopAccepting} closes the listening socket and leaves the open
 * connections serving; {@link #close} ends them.
 *
 * <p>Helidon has no public way to close its listener alone, and closing the socket any other way makes its accept
 * loop call the same stop. That stop ({@code ServerListener.stop()} and {@code suspend(true)}) closes the socket,
 * then asks every connection to close after its current request ({@code ServerConnection.close(false)}, which at
 * once interrupts an idle connection waiting for its request line), then waits for the connections' threads up to
 * {@code shutdownGracePeriod} ({@code ThreadPerTaskExecutor.terminate}, which first interrupts every idle one
 * again, through {@code InterruptableTask.canInterrupt}), then interrupts those left and closes them
 * ({@code close(true)}). So this runs that stop on a thread of its own and, through {@link #selector}, wraps every
 * connection so that the stop's thread alone is ignored in the first two steps: idle keep-alive connections stay
 * open and their next request gets the drain's 503 and {@code Connection: close}, as on the other servers, instead
 * of being closed under a client that may be sending it. {@link #close} interrupts the stop's wait, which makes
 * Helidon interrupt and close whatever is left, as its stop does after its grace period.
 */
final class NimaStop {

    private WebServer server;
    /** The thread running Helidon's stop, once begun; guarded by this, read by the connections. */
    private volatile Thread stopper;

    /** The started server this stops. */
    void server(WebServer server) {
        this.server = server;
    }

    /** {@code selector} with each of its connections wrapped as described above. */
    ServerConnectionSelector selector(ServerConnectionSelector selector) {
        return new ServerConnectionSelector() {
            @Override
            public int bytesToIdentifyConnection() {
                return selector.bytesToIdentifyConnection();
            }

            @Override
            public Support supports(BufferData data) {
                return selector.supports(data);
            }

            @Override
            public Set<String> supportedApplicationProtocols() {
                return selector.supportedApplicationProtocols();
            }

            @Override
            public ServerConnection connection(ConnectionContext ctx) {
                return new Held(selector.connection(ctx));
            }
        };
    }

    /**
     * Closes the listening socket and returns once it is closed: new connections are refused, the open ones go on.
     * Idempotent.
     */
    synchronized void stopAccepting() {
        if (stopper != null) {
            return;
        }
        Thread thread = Thread.ofPlatform().daemon(true).name("nima-stop").unstarted(server::stop);
        stopper = thread;   // before it runs: the connections ask whether the thread closing them is this one
        thread.start();
        // Helidon's stop closes the listening socket before its first wait (for the connections' threads), and
        // nothing before it parks: its lifecycle lock is uncontended, and the JDK closes a blocking channel's
        // descriptor at once under a monitor (BLOCKED, not WAITING, when contended). So the thread's first wait, or
        // its end, means that new connections are refused.
        while (true) {
            Thread.State state = thread.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING
                    || state == Thread.State.TERMINATED) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** Stops at once: interrupts the connections left and waits for Helidon's stop to end. Idempotent. */
    void close() {
        stopAccepting();
        Thread thread = stopper;
        boolean interrupted = false;
        // Helidon's stop waits up to its grace period for the connections, then (once more) for its shared executor;
        // an interrupt ends either wait, so interrupt until the stop has ended.
        while (thread.isAlive()) {
            thread.interrupt();
            try {
                thread.join(Duration.ofMillis(50));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A connection whose graceful close (and interruption while idle) Helidon's stop thread cannot ask for. */
    private final class Held implements ServerConnection, InterruptableTask<Void> {
        private final ServerConnection connection;

        Held(ServerConnection connection) {
            this.connection = connection;
        }

        private boolean askedByStop() {
            return Thread.currentThread() == stopper;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            connection.handle(limit);
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        /** Helidon's idle sweep and the final {@code close(true)} go through; the stop's {@code close(false)} not. */
        @Override
        public void close(boolean interrupt) {
            if (interrupt || !askedByStop()) {
                connection.close(interrupt);
            }
        }

        @Override
        public boolean canInterrupt() {
            return !askedByStop() && connection instanceof InterruptableTask<?> task && task.canInterrupt();
        }
    }
}
