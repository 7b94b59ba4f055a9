package servers;

import http.ListenAddress;
import http.PortInUseException;
import http.Protocol;
import http.Tls;
import model.Handler;
import site.Logs;
import site.Server;
import site.Site;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.SocketAddress;

import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Eclipse Vert.x 5 HTTP server (vertx-core alone, no vertx-web), the engine under Quarkus: Netty event loops, and
 * Vert.x's own ways to run code that may block, one per {@link Handler} it offers; the plan picks one
 * ({@link model.Serving}), and {@link VertxResponder} answers on it.
 *
 * <ul>
 * <li>The event loop: event-loop verticles. The handler never blocks: it starts the render
 *     ({@link Site#startLater}) and returns; chunks are written from the render's threads (Vert.x hands each to the
 *     connection's event loop), the last one when the render ends.</li>
 * <li>A virtual thread: a JDK virtual thread started for each request from the event-loop verticle, as Quarkus's
 *     {@code @RunOnVirtualThread} does, which renders the page itself ({@link Site#streamHere}) and writes each chunk
 *     (Vert.x hands it to the connection's event loop), waiting on the write only when Vert.x's write queue is full.
 *     Not a Vert.x virtual-thread verticle ({@link ThreadingModel#VIRTUAL_THREAD}): Vert.x runs at most one task of
 *     such a verticle at a time, and only {@code Future.await} lets it run another meanwhile, so a handler that
 *     blocked otherwise (on a JDK queue, a lock, a socket, as the engines' blocking renders do) would hold its
 *     verticle (measured: 4 requests that sleep 500 ms took 2.5 s on one verticle, 1.0 s with {@code await}); the
 *     render then had to run on a second virtual thread, each chunk handed to the handler and awaited. That cost
 *     a quarter to a third of the throughput: jstachio at 128 connections (wrk, 20 s warm-up then 10 s, 3 fresh
 *     JVMs each, interleaved, 2026-11-28) served Presentations at 6,676 req/s that way and 9,021 this way, Stocks
 *     4,078 and 5,069 (the event-loop fragments mode 9,567 and 5,378).</li>
 * <li>A platform thread: the handler runs on Vert.x's worker pool of {@code --threads} platform threads
 *     ({@code executeBlocking}, unordered) and renders there, blocking, as a servlet container's thread would. A
 *     {@link ThreadingModel#WORKER} verticle would also run one request at a time per instance, so it would need
 *     {@code --threads} instances, each with its own connections; executeBlocking shares one queue.</li>
 * </ul>
 *
 * <p>Instances: one verticle instance per event loop, and Vert.x's default number of event loops (twice the cores:
 * 4 on 2 cores, as Reactor Netty's default). An event-loop verticle is bound to one event loop, and Vert.x spreads
 * new connections over the instances that listen on a port: fewer instances would leave loops idle, more would put
 * two on one loop without adding a core. A virtual-thread verticle also does its I/O on one event loop, and its
 * tasks (a handler's steps between awaits) are short. Vert.x accepts on a thread of its own, not on the loops.
 *
 * <p>Netty: Vert.x 5.2.3 is built against Netty 4.2.20.Final; here it runs on the 4.2.18.Final that the project
 * pins for Reactor Netty (pom.xml, netty-bom). Every Netty class, method and field that vertx-core-5.2.3.jar
 * references (1,657 of them, read from its bytecode) exists in 4.2.18.Final, except those of the transports and
 * codecs that are not on the class path (kqueue, io_uring, HAProxy, Brotli), which Vert.x only loads when asked to;
 * the same holds for reactor-netty-http and -core 1.3.8 (built against 4.2.19.Final). Vert.x uses the JDK's NIO
 * transport unless {@code preferNativeTransport} is set, and so it does here, as by default.
 *
 * <p>HTTP details, checked against tests/servers/HttpBehaviourTest: Vert.x answers HTTP/1.0 without chunked coding
 * (status line HTTP/1.0) and closes the connection after it, unless the client asked for keep-alive (handled
 * below); a request with {@code Connection: close} gets the same header back and the connection closes after the
 * response; HEAD gets the headers set here and no body; any method reaches the handler; Host is not checked.
 */
public final class VertxServer implements Server {

    private static final Logger LOG = Logger.getLogger("pssrbench");

    @Override
    public String id() {
        return "vertx";
    }

    @Override
    public String description() {
        return "Eclipse Vert.x {io.vertx:vertx-core} HTTP server on Netty {io.netty:netty-codec-http} (Quarkus's"
                + " engine): event-loop verticles, virtual-thread verticles or a worker pool, by mode";
    }

    /**
     * The event loop answers later; so does the virtual-thread handler, suspended rather than blocked while it waits
     * for the next chunk ({@code Future.await}), the render running elsewhere ({@link Site#startLater}). Only the
     * worker-pool handler waits for its page ({@link Site#streamHere}).
     */
    @Override
    public List<Handler> handling() {
        return List.of(
                new Handler(Handler.Kind.EVENT_LOOP, true, "the connection's event loop"),
                new Handler(Handler.Kind.VIRTUAL, false, "the request's virtual thread (a JDK virtual thread"
                        + " started for it, as Quarkus's @RunOnVirtualThread: it renders and writes each chunk, which"
                        + " Vert.x hands to the event loop)"),
                new Handler(Handler.Kind.PLATFORM, false, "the request's thread, one of Vert.x's worker pool of"
                        + " --threads platform threads (executeBlocking)"));
    }

    /** Vert.x's h2c switch and its TLS options with ALPN. */
    @Override
    public List<Protocol> protocols() {
        return Protocol.all();
    }

    /**
     * The plan's handler as the thread the request is handled on: the event loop, a virtual thread started for it,
     * or Vert.x's worker pool; every verticle is an event-loop one.
     */
    static ThreadingModel threading(Handler handler) {
        return switch (handler.kind()) {
            case EVENT_LOOP -> ThreadingModel.EVENT_LOOP;
            case VIRTUAL -> ThreadingModel.VIRTUAL_THREAD;   // a JDK virtual thread from an event-loop verticle
            case PLATFORM -> ThreadingModel.WORKER;   // executeBlocking from an event-loop verticle
        };
    }

    @Override
    public Running start(Listen listen, Site site) {
        Logs.quiet("io.vertx", "io.netty");
        ThreadingModel threading = threading(listen.handler());
        // Vert.x's defaults (event loops: twice the cores, NIO), but the worker pool sized at --threads,
        // and NIO through VertxListeners, which can close the listening sockets alone.
        VertxListeners listeners = new VertxListeners();
        Vertx vertx = Vertx.builder().with(new VertxOptions().setWorkerPoolSize(listen.threads()))
                .withTransport(listeners).build();
        int instances = VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;
        // Port 0 would give each instance a port of its own; a shared random port is bound once and shared.
        SocketAddress address = listen.port() == 0 ? SocketAddress.sharedRandomPort(1, listen.host())
                : SocketAddress.inetSocketAddress(listen.port(), listen.host());
        AtomicInteger port = new AtomicInteger();
        HttpServerOptions options = new HttpServerOptions()
                .setTcpNoDelay(true)                 // Vert.x's default too
                .setCompressionSupported(false)      // the default: compression would hold chunks back
                .setAcceptBacklog(listen.limits().backlog())   // default: the OS's (-1)
                // Default: never. Closes a connection that got no whole request head and wrote nothing for that
                // long (its handler is after the HTTP decoder): idle, half-sent and trickling alike, not a page.
                .setIdleTimeout((int) listen.limits().idleTimeout().toMillis())
                .setIdleTimeoutUnit(java.util.concurrent.TimeUnit.MILLISECONDS);
        speak(options, listen.protocol(), listen.tls());
        try {
            if (threading == ThreadingModel.WORKER) {
                prestartWorkers(vertx, listen.threads());
            }
            // Event-loop verticles: the other handlers are started from them (a virtual thread, executeBlocking).
            DeploymentOptions deployment = new DeploymentOptions().setInstances(instances)
                    .setThreadingModel(ThreadingModel.EVENT_LOOP);
            vertx.deployVerticle(() -> new VerticleBase() {
                @Override
                public Future<?> start() {
                    return vertx.createHttpServer(options)
                            // A client that resets its connection is not an error; Vert.x would log each one.
                            .connectionHandler(connection -> connection.exceptionHandler(failure -> { }))
                            .requestHandler(req -> dispatch(vertx, threading, req, site))
                            .listen(address)
                            .onSuccess(server -> port.set(server.actualPort()));
                }
            }, deployment).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            close(vertx, listeners);
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BindException) {
                    throw new PortInUseException(listen.host(), listen.port(), e);
                }
            }
            throw new IllegalStateException("Vert.x did not start: " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            close(vertx, listeners);
            throw new IllegalStateException("Vert.x did not start: " + e, e);
        }
        return new Running() {
            @Override
            public int port() {
                return port.get();
            }

            @Override
            public void stopAccepting() {
                listeners.close();
                ListenAddress.awaitRefused(listen.host(), port.get());
            }

            @Override
            public void close() {
                VertxServer.close(vertx, listeners);
            }
        };
    }

    /**
     * The protocol on the port. h2c on (Vert.x's default) takes both the HTTP/1.1 Upgrade and the HTTP/2 preface;
     * off for h1 and h1s, which speak HTTP/1.1 only (Vert.x would otherwise answer an Upgrade with HTTP/2). Over
     * TLS, ALPN offers h2 and http/1.1 (Vert.x's default list) or http/1.1 alone. No HTTP/2 window or frame
     * setting is changed: each write of a page is flushed as DATA frames at once ("chunked has no effect for an
     * HTTP/2 stream"), a page (under 5 kB for Stocks) is far inside the client's initial 65,535-byte window, and a
     * frame (16 kB at most) is not waited for to fill.
     */
    private static void speak(HttpServerOptions options, Protocol protocol, Tls tls) {
        options.setHttp2ClearTextEnabled(protocol == Protocol.H2C);
        if (protocol.tls()) {
            options.setSsl(true).setUseAlpn(true).setKeyCertOptions(KeyCertOptions.wrap(tls.keyManagers()))
                    .setAlpnVersions(protocol.http2() ? List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1)
                            : List.of(HttpVersion.HTTP_1_1));
        }
    }

    /**
     * Starts every thread of Vert.x's worker pool now, so that the thread count is flat during a measurement (as
     * the other servers' platform pools): it is a fixed pool that starts a thread for each task until it is full.
     */
    private static void prestartWorkers(Vertx vertx, int threads) throws InterruptedException, ExecutionException,
            TimeoutException {
        List<CompletableFuture<Object>> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            started.add(vertx.executeBlocking(() -> null, false).toCompletionStage().toCompletableFuture());
        }
        CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /**
     * Stops at once: open connections are closed, in-flight responses cut. The listening sockets close first, so
     * that no connection arrives while Vert.x unbinds (see {@link VertxListeners}).
     */
    private static void close(Vertx vertx, VertxListeners listeners) {
        listeners.close();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warning("Vert.x did not stop cleanly: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void dispatch(Vertx vertx, ThreadingModel threading, HttpServerRequest req, Site site) {
        if (threading == ThreadingModel.EVENT_LOOP) {
            handle(req, site, threading);
            return;
        }
        if (threading == ThreadingModel.VIRTUAL_THREAD) {
            Thread.ofVirtual().start(() -> handle(req, site, threading));
            return;
        }
        vertx.executeBlocking(() -> {
            handle(req, site, threading);
            return null;
        }, false).onFailure(failure -> {
            LOG.log(Level.WARNING, "request failed: " + failure, failure);
            req.connection().close();
        });
    }

    private static void handle(HttpServerRequest req, Site site, ThreadingModel threading) {
        VertxResponder responder = new VertxResponder(site, req, threading);
        // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400; Vert.x does not check it.
        if (req.version() == HttpVersion.HTTP_1_1 && req.getHeader("Host") == null) {
            site.missingHost(responder);
            return;
        }
        // Vert.x passes the request target on as it came (Netty's decoder checks the method's characters, not the
        // target's), so a raw '\\', NUL or DEL reached the routes and got a 404 that echoed it. The same check as
        // Reactor Netty's and the JDK server's, java.net.URI, makes it the 400 the other servers answer.
        if (!isUri(req.uri())) {
            site.malformed(responder);
            return;
        }
        site.handle(req.method().name(), req.path(), responder);
    }

    private static boolean isUri(String target) {
        try {
            new java.net.URI(target);
            return true;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
