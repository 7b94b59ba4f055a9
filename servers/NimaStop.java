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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

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
 *
 * <p>When new connections are refused: not when Helidon's {@code ServerSocketChannel.close()} returns. Its listener
 * thread ({@code server-@default-listener}, a platform thread) is then blocked in {@code accept(2)}, and the JDK
 * closes such a channel by pointing its descriptor elsewhere and signalling the thread: the kernel keeps the
 * listening socket, and goes on completing handshakes into its backlog, until that thread returns from
 * {@code accept}, which on a loaded machine can be a while later (a CI run saw a new connection accepted after
 * stopAccepting returned). Helidon's listener loop ends right after that return (its {@code running} flag is
 * already false), and Helidon's own stop waits for exactly that end ({@code closeFuture}, completed as the loop's
 * last act). Nothing public says so: {@code WebServer.isRunning()} and {@code port()} change only when the whole stop
 * has ended (after the grace period), and the channel is private. So {@link #start} starts the server from a thread
 * group of its own, which Helidon's listener thread joins (it is created in the server's constructor, in its
 * creator's group), finds the thread there by the name Helidon gives it, and {@link #stopAccepting} returns when
 * that thread has ended.
 */
final class NimaStop {

    /** The name Helidon 4.5.0 gives the accept thread of its one listener ({@code "server-" + socket + "-listener"}). */
    private static final String LISTENER_THREAD = "server-" + WebServer.DEFAULT_SOCKET_NAME + "-listener";

    private WebServer server;
    /** Helidon's accept loop of this server: when it has ended, the listening socket is closed. */
    private Thread listener;
    /** The thread running Helidon's stop, once begun; guarded by this, read by the connections. */
    private volatile Thread stopper;

    /**
     * Builds and starts the server with {@code start} on a thread of a thread group of its own (see above), finds its
     * listener's thread and returns the server. A server that did not start (Helidon's start does not throw when it
     * cannot bind) is returned as it is, for the caller to check {@code isRunning()}.
     */
    WebServer start(Supplier<WebServer> start) {
        ThreadGroup group = new ThreadGroup("nima-server");
        AtomicReference<WebServer> started = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread starter = Thread.ofPlatform().group(group).name("nima-start").start(() -> {
            try {
                started.set(start.get());
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        joinUninterruptibly(starter);
        switch (failed.get()) {
            case null -> { }
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            case Throwable e -> throw new IllegalStateException(e);
        }
        server = started.get();
        if (server.isRunning()) {
            Thread[] threads = new Thread[group.activeCount() + 16];
            int n = group.enumerate(threads, false);
            for (int i = 0; i < n && listener == null; i++) {
                if (threads[i].getName().equals(LISTENER_THREAD)) {
                    listener = threads[i];
                }
            }
            if (listener == null) {   // a Helidon other than 4.5.0 names or places it elsewhere: say so, do not guess
                server.stop();
                throw new IllegalStateException("Helidon's listener thread '" + LISTENER_THREAD + "' was not found"
                        + " among the threads the server started, so PssrBench cannot tell when its listening socket"
                        + " is closed; servers/NimaStop.java is written for Helidon 4.5.0.");
            }
        }
        return server;
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
        // Helidon's stop closes the channel first; its listener thread ends as soon as it is out of accept(2), which
        // is when the kernel closes the listening socket (see above). It always ends: Helidon's stop interrupts it
        // and then waits for its end, before the stop can end.
        joinUninterruptibly(listener);
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

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
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
