package servers;

import http.ListenAddress;
import http.PortInUseException;
import http.Protocol;
import http.Tls;
import model.ChunkSink;
import model.Handler;
import model.Page;
import model.Render;
import model.Render.RenderFailedException;
import site.Logs;
import site.Server;
import site.Site;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import org.eclipse.jetty.ee10.servlet.ServletApiRequest;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Javalin 7 on Jetty 12: a servlet container, blocking I/O on a thread per request (platform or virtual).
 */
public final class JavalinServer implements Server {

    private static final Set<String> KNOWN_METHODS = HandlerType.values().stream().filter(HandlerType::isHttpMethod)
            .map(HandlerType::name).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /*
     * At least 2 acceptors and 2 selectors (Jetty's defaults are 1 and 1 on 2 cores): with 1 selector, 10,000
     * connections opened at once overflowed even the 4096 backlog (2,503-7,806 kernel drops, connect p99 1.1-2.3 s);
     * with 2 and 2, none in one run, 3,102 in the next (docs/servers.md).
     */
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final int ACCEPTORS = Math.max(2, Math.min(4, CORES / 8));
    private static final int SELECTORS = Math.max(2, CORES / 2);

    @Override
    public String id() {
        return "javalin";
    }

    @Override
    public String description() {
        return "Javalin {io.javalin:javalin} on Jetty {org.eclipse.jetty:jetty-server} (servlet; a thread per request:"
                + " virtual or a platform pool)";
    }

    /** A virtual thread per task, or a fixed platform pool whose handler waits for its page or uses servlet async. */
    @Override
    public List<Handler> handling() {
        String pool = "the request's thread, one of Jetty's pool fixed at --threads platform threads";
        return List.of(
                new Handler(Handler.Kind.VIRTUAL, false,
                        "the request's virtual thread (Jetty runs every task on one: useVirtualThreads)"),
                new Handler(Handler.Kind.PLATFORM, false, pool),
                new Handler(Handler.Kind.PLATFORM, true, pool));   // servlet async: the handler returns at once
    }

    /** Jetty's HTTP/2 modules (jetty-http2-server) and its ALPN on the JDK's TLS (jetty-alpn-java-server). */
    @Override
    public List<Protocol> protocols() {
        return Protocol.all();
    }

    /**
     * The connection factories of the connector, the default (first) one taking a new connection. h2c: HTTP/1.1
     * first, and Jetty's HttpConnection hands a connection to the h2c factory both when a request asks to Upgrade
     * and when the HTTP/2 preface ({@code PRI * HTTP/2.0}) arrives instead of a request line (prior knowledge).
     * Over TLS: TLS, then ALPN choosing h2 or http/1.1 (http/1.1 for a client that offers neither), with
     * SecureRequestCustomizer so that requests say https; its SNI host check is off, since a self-signed
     * certificate's names need not match the host a client used and the client, not the server, checks them.
     * Jetty's HTTP/2 defaults are kept: each flush of the servlet stream is written as DATA frames at once, within
     * the client's window (65,535 bytes by default, more than a page), and the frame size (16 kB) only splits an item.
     */
    private static ConnectionFactory[] factories(Protocol protocol, Tls tls, HttpConfiguration http) {
        if (!protocol.tls()) {
            return protocol.http2()
                    ? new ConnectionFactory[] {new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http)}
                    : new ConnectionFactory[] {new HttpConnectionFactory(http)};
        }
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        http.addCustomizer(secure);
        SslContextFactory.Server context = new SslContextFactory.Server();
        context.setSslContext(tls.serverContext());
        HttpConnectionFactory http11 = new HttpConnectionFactory(http);
        if (!protocol.http2()) {
            return new ConnectionFactory[] {new SslConnectionFactory(context, http11.getProtocol()), http11};
        }
        // ALPN's names: "http/1.1", where the factory's own name is "HTTP/1.1" (measured: with that name, a client
        // offering http/1.1 alone had its handshake cut); Jetty finds the factory by either.
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return new ConnectionFactory[] {new SslConnectionFactory(context, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(http), http11};
    }

    @Override
    public Running start(Listen listen, Site site) {
        Logs.quiet("org.eclipse.jetty", "io.javalin");
        AtomicReference<ServerConnector> listener = new AtomicReference<>();   // the one connector, set below
        Javalin app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.showOldJavalinVersionWarning = false;
            // Javalin's own connector would keep the JDK's accept queue of 50: a burst of new connections
            // overflows it and the kernel drops SYNs (clients then wait 1-31 s in retries). This connector is the
            // same (host, port, Javalin's HttpConfiguration) with PssrBench's backlog and idle timeout. Jetty's
            // idle timeout restarts on every byte read, so it closes a half-sent head but not a trickling one:
            // JettyHeadWatch bounds the whole head.
            cfg.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, ACCEPTORS, SELECTORS,
                        factories(listen.protocol(), listen.tls(), http));
                connector.setHost(listen.host());
                connector.setPort(listen.port());
                connector.setAcceptQueueSize(listen.limits().backlog());
                connector.setIdleTimeout(listen.limits().idleTimeout().toMillis());
                JettyHeadWatch headWatch = new JettyHeadWatch(connector, listen.limits().idleTimeout());
                connector.addEventListener(headWatch);
                http.addCustomizer(headWatch);
                listener.set(connector);
                return connector;
            });
            if (listen.protocol().http2()) {
                // Over HTTP/2 a failed page resets its own stream, not the connection (JettyStreamReset says how);
                // over HTTP/1.x alone there is no filter, each request as before.
                cfg.jetty.modifyServletContextHandler(JettyStreamReset::install);
            }
            // Departs from Javalin's default (GZIP): compression would buffer the page. PssrBench writes to the
            // raw servlet stream anyway, which Javalin's compressor does not wrap.
            cfg.http.compressionStrategy = CompressionStrategy.NONE;
            Handler handler = listen.handler();
            if (handler.kind() == Handler.Kind.VIRTUAL) {
                cfg.concurrency.useVirtualThreads = true;
            } else {
                // A fixed pool (min = max): started up front, so the thread count does not drift in a run. Jetty
                // runs its acceptors and selectors on the same pool, each holding a thread for good: they come on
                // top, so that exactly --threads requests run at once (a pool of --threads alone left 3 of 4 to
                // requests, and 4 in all would not start). No reserved threads: Jetty's idle reserved threads
                // (1 or 2 here) would make the bound vary, fewer requests at once while they wait and more when
                // they take a request (measured with 4: 3 and 5), and without them each request goes from the
                // selector to a pool thread (PoolSizeTest).
                int size = listen.threads() + ACCEPTORS + SELECTORS;
                QueuedThreadPool pool = new QueuedThreadPool(size, size);
                pool.setReservedThreads(0);
                pool.setName(handler.answersLater() ? "jetty-async" : "jetty-blocking");
                cfg.jetty.threadPool = pool;
            }
            // The method the client sent (ctx.method() would follow an X-HTTP-Method-Override header).
            for (HandlerType method : HandlerType.values()) {
                if (method.isHttpMethod()) {
                    cfg.routes.addHttpHandler(method, "*", ctx ->
                            site.handle(ctx.req().getMethod(), ctx.path(), new Responder(site, ctx, handler.answersLater())));
                }
            }
            // Javalin routes only the methods it knows and answers any other one with its own 404 page; the
            // shared 405 with Allow comes from the site, as on every server.
            cfg.routes.before(ctx -> {
                if (!KNOWN_METHODS.contains(ctx.req().getMethod())) {
                    site.handle(ctx.req().getMethod(), ctx.path(), new Responder(site, ctx, handler.answersLater()));
                    ctx.skipRemainingHandlers();
                }
            });
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            app.stop();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BindException) {
                    throw new PortInUseException(listen.host(), listen.port(), e);
                }
            }
            throw e;
        }
        int port = app.port();   // Jetty says -2 once the listener is closed
        return new Running() {
            @Override
            public int port() {
                return port;
            }

            /**
             * ServerConnector.close() closes the accept channel alone (with acceptor threads, as here; with none the
             * selector would own it): each acceptor's blocking accept fails, is ignored since the connector is no
             * longer open, and the acceptor ends; the endpoints go on. Not connector.shutdown(), Jetty's graceful
             * step, which also cuts every open connection's idle timeout to 1 s, nor setAccepting(false), which
             * parks the acceptors but leaves the socket bound, so that the kernel still queues connections.
             */
            @Override
            public void stopAccepting() {
                listener.get().close();
                ListenAddress.awaitRefused(listen.host(), port);
            }

            @Override
            public void close() {
                app.stop();
            }
        };
    }

    /** {@code later}: answer through servlet async, the handler returning before the page ends. */
    private record Responder(Site site, Context ctx, boolean later) implements Site.Responder<Void> {


        @Override
        public Void fixed(Site.Reply reply) {
            ctx.status(reply.status()).contentType(reply.contentType());
            reply.headers().forEach(ctx::header);
            if (reply.close()) {
                ctx.header("Connection", "close");   // Jetty closes the connection after a response that says so
            }
            // The length up front: Jetty would send a body larger than its output buffer chunked. For HEAD, Jetty
            // keeps the header and leaves the body out.
            ctx.header("Content-Length", String.valueOf(reply.body().length));
            ctx.result(reply.body());
            return null;
        }

        @Override
        public Void page(Page page) {
            ctx.contentType(Site.HTML);   // before the first write: Javalin's default is text/plain
            // The raw servlet stream: ctx.outputStream() is Javalin's compression wrapper, whose flush() does
            // nothing, so the page would arrive in one piece at the end.
            OutputStream out;
            try {
                out = ctx.res().getOutputStream();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
            // Taken now, while the request is live. When the server stops under a page in flight (no drain, as
            // HttpBehaviourTest's http10StillStreams does), Jetty ends the exchange and recycles its request: a
            // render that ends after that found ctx.req() empty (a NullPointerException from Jetty, which Javalin
            // logged twice at WARNING as "Uncaught exception"), and Javalin, told that the page ended, trips over
            // the recycled exchange in every task it has left (thousands of WARNINGs, measured).
            ServletContextRequest live = ServletContextRequest.getServletContextRequest(ctx.req());
            ServletApiRequest exchange = live.getServletApiRequest();
            EndPoint endPoint = live.getConnectionMetaData().getConnection().getEndPoint();
            JettyStreamReset.Reset stream = JettyStreamReset.of(ctx.req());   // null over HTTP/1.x
            ChunkSink socket = bytes -> {
                out.write(bytes);
                out.flush();   // one flush = one HTTP chunk
            };
            if (later) {
                // The render is created here, on the handler's thread, so that a drain counts it as part of this
                // request; Javalin calls the future's supplier later, elsewhere.
                Render render = site.render(page, socket);
                Runnable written = site.hold();   // until finish() has written the last chunk
                ctx.future(() -> {
                    CompletableFuture<Void> answered = new CompletableFuture<>();
                    site.startLater(render).done().whenComplete((done, failure) -> {
                        RuntimeException thrown = null;
                        boolean reset = false;
                        try {
                            reset = finish(out, endPoint, stream, failure);   // closing a closed endpoint does nothing
                        } catch (RuntimeException e) {
                            thrown = e;
                        } finally {
                            written.run();
                        }
                        // Javalin finishes the exchange only while Jetty still has it (getRequest() is null once
                        // recycled); a recycled one is over, its connection closed by Jetty's stop. A reset HTTP/2
                        // stream is Jetty's to end: Javalin's last step, AsyncContext.complete(), would race with
                        // Jetty's recycling of the exchange, and Javalin's future is left to the collector.
                        if (!reset && exchange.getRequest() != null) {
                            if (thrown == null) {
                                answered.complete(null);
                            } else {
                                answered.completeExceptionally(thrown);   // Javalin logs it, as before
                            }
                        }
                    });
                    return answered;
                });
            } else {
                try {
                    site.streamHere(page, socket);
                    finish(out, endPoint, stream, null);
                } catch (RenderFailedException e) {
                    finish(out, endPoint, stream, e);
                }
            }
            return null;
        }

        /**
         * Completes the page with its last chunk before the handler returns, so that a graceful stop that waits
         * for the handlers cannot cut it; or aborts it, never ending a failed page as if complete: over HTTP/1.x by
         * closing the connection under it, so the client sees the chunked body cut short; over HTTP/2, where the
         * connection carries other pages, by resetting its stream alone ({@code stream}, JettyStreamReset).
         * Neither rethrows: Javalin would log a stack trace and write a 500 body into the committed page.
         *
         * @return whether the page's HTTP/2 stream is reset, the exchange then Jetty's to end
         */
        private static boolean finish(OutputStream out, EndPoint endPoint, JettyStreamReset.Reset stream,
                                      Throwable failure) {
            if (failure == null) {
                try {
                    out.close();
                    return false;
                } catch (IOException e) {
                    failure = e;   // the client went away at the very end
                }
            }
            if (stream != null) {
                stream.abort(failure);
                return true;
            }
            endPoint.close(failure);
            return false;
        }
    }
}
