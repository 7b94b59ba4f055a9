package servers;

import http.ListenAddress;
import http.PortInUseException;
import http.Protocol;
import http.Tls;
import model.ChunkSink;
import model.Handler;
import model.Page;
import model.Render;
import site.Logs;
import site.Server;
import site.Site;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.netty.ChannelBindException;
import reactor.netty.DisposableServer;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.LoopResources;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reactor Netty HttpServer, standing in for Spring WebFlux: non-blocking I/O on a few event-loop threads, which
 * must never block. Blocking engines run off the loop and hand each chunk to it through a reactive sink.
 */
public final class NettyServer implements Server {

    @Override
    public String id() {
        return "netty";
    }

    @Override
    public String description() {
        return "Reactor Netty {io.projectreactor.netty:reactor-netty-http} HttpServer on Netty"
                + " {io.netty:netty-codec-http} (WebFlux's engine): event loops, non-blocking I/O";
    }

    /** An event loop must never wait: every page is a Flux the handler returns at once. */
    @Override
    public List<Handler> handling() {
        return List.of(new Handler(Handler.Kind.EVENT_LOOP, true, "the connection's event loop"));
    }

    /** Reactor Netty's HttpProtocol and SslProvider: clear text or TLS, HTTP/1.1 or HTTP/2 beside it. */
    @Override
    public List<Protocol> protocols() {
        return Protocol.all();
    }

    @Override
    public Running start(Listen listen, Site site) {
        Logs.quiet("reactor", "io.netty");
        // A malformed request (answered 400, 414 or 431 all the same) or one cut off by its client: Reactor Netty
        // logs "Decoding failed" at WARNING with a dump of the request, 2-5 lines per client.
        Logs.ignoreClientNoise("reactor.netty.http.server.HttpServerOperations", r -> r.getMessage() != null
                && r.getMessage().contains("Decoding failed"));
        // A client that resets its connection mid-page: "An exception has been observed post termination" with
        // the SocketException, a WARNING per client.
        Logs.ignoreClientNoise("reactor.netty.channel.FluxReceive", r -> r.getThrown() instanceof java.net.SocketException
                || r.getMessage() != null && r.getMessage().contains("Connection reset"));
        // Reactor Netty's default worker count, max(cores, 4); own resources so that stopping frees them. The
        // acceptor gets a loop of its own (the 1): on the workers' loops, accepting waited behind streaming, and
        // of 1,000 connections opened at once 149 were still not accepted after 9.9 s.
        LoopResources loops = LoopResources.create("netty-http", 1, LoopResources.DEFAULT_IO_WORKER_COUNT, true);
        DisposableServer server;
        try {
            // Reactor Netty sets TCP_NODELAY itself and does not compress unless asked to.
            server = speak(HttpServer.create(), listen.protocol(), listen.tls())
                    .host(listen.host())
                    .port(listen.port())
                    .runOn(loops)
                    .option(ChannelOption.SO_BACKLOG, listen.limits().backlog())
                    // Without it Reactor Netty never closes an idle connection. It runs from the connection's start
                    // and from the end of each response until a whole request head has arrived: its handler sits
                    // after the HTTP decoder, which passes a request on only once the head is complete, so a
                    // half-sent or trickling head is closed too (ConnectionSettingsTest). readTimeout and
                    // requestTimeout would not do it: they bound the body, from the end of the head.
                    .idleTimeout(listen.limits().idleTimeout())
                    .handle((req, res) -> {
                        Responder responder = new Responder(site, res,
                                req.version().equals(HttpVersion.HTTP_1_0));
                        // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400. Reactor Netty does not
                        // check it (Helidon and Jetty do).
                        if (req.version().equals(HttpVersion.HTTP_1_1)
                                && !req.requestHeaders().contains(HttpHeaderNames.HOST)) {
                            return site.missingHost(responder);
                        }
                        String path;
                        try {
                            path = req.fullPath();
                        } catch (IllegalArgumentException e) {
                            // Reactor Netty resolves the path with java.net.URI, which refuses a raw '\\', NUL, DEL
                            // or space in the request target; out of a handler, that exception was logged SEVERE and
                            // the connection closed without a response. It is the client's malformed request: 400.
                            return site.malformed(responder);
                        }
                        return site.handle(req.method().name(), path, responder);
                    })
                    .bindNow();
        } catch (ChannelBindException e) {
            loops.dispose();
            throw new PortInUseException(listen.host(), listen.port(), e);
        }
        int port = server.port();
        return new Running() {
            @Override
            public int port() {
                return port;
            }

            /**
             * DisposableServer.channel() is the listening channel: closing it closes the socket alone; the
             * connections are the worker loops' and go on. disposeNow then finds it inactive and only waits for it.
             */
            @Override
            public void stopAccepting() {
                server.channel().close().awaitUninterruptibly(2000);
                ListenAddress.awaitRefused(listen.host(), port);
            }

            @Override
            public void close() {
                server.disposeNow(Duration.ofSeconds(2));
                loops.disposeLater(Duration.ZERO, Duration.ofSeconds(2)).block();
            }
        };
    }

    /**
     * The protocol on the port. {@code protocol(HTTP11, H2C)} takes both the HTTP/1.1 Upgrade and the HTTP/2
     * preface (prior knowledge) on one port; {@code (HTTP11, H2)} with an HTTP/2 TLS context offers h2 and
     * http/1.1 by ALPN. Each Flux element is still written and flushed on its own (see {@link Responder#chunks}):
     * Netty's HTTP/2 codec turns each flushed write into a DATA frame at once, within the client's window.
     * No flow-control setting is changed: the window that limits a page is the client's (65,535 bytes by
     * default per stream, more than a page: Stocks is under 5 kB), and Netty's frame size (16 kB) only splits an
     * item, it does not wait to fill one.
     */
    private static HttpServer speak(HttpServer server, Protocol protocol, Tls tls) {
        return switch (protocol) {
            case H1 -> server;
            case H1S -> server.secure(spec -> spec.sslContext(Http11SslContextSpec.forServer(tls.key(), tls.chain())));
            case H2C -> server.protocol(HttpProtocol.HTTP11, HttpProtocol.H2C);
            case H2 -> server.protocol(HttpProtocol.HTTP11, HttpProtocol.H2)
                    .secure(spec -> spec.sslContext(Http2SslContextSpec.forServer(tls.key(), tls.chain())));
        };
    }

    /** {@code http10}: the request was HTTP/1.0, whose clients cannot read chunked coding. */
    private record Responder(Site site, HttpServerResponse res, boolean http10)
            implements Site.Responder<Publisher<Void>> {

        @Override
        public Publisher<Void> fixed(Site.Reply reply) {
            res.status(HttpResponseStatus.valueOf(reply.status())).header("Content-Type", reply.contentType());
            reply.headers().forEach(res::header);
            if (reply.close()) {
                res.keepAlive(false);   // Connection: close, and Reactor Netty closes after the response
            }
            res.header(HttpHeaderNames.CONTENT_LENGTH, String.valueOf(reply.body().length));
            return reply.head() ? res.send() : res.sendByteArray(Mono.just(reply.body()));
        }

        @Override
        public Publisher<Void> fixedLater(java.util.concurrent.CompletableFuture<Site.Reply> reply) {
            // The event loop must not wait: the reply is sent when the render (on a virtual thread) completes.
            Runnable written = site.hold();
            return Mono.fromFuture(reply).flatMap(r -> Mono.from(fixed(r))).doFinally(signal -> written.run());
        }

        @Override
        public Publisher<Void> page(Page page) {
            res.header("Content-Type", Site.HTML);
            if (http10) {
                // Reactor Netty would send chunked coding to an HTTP/1.0 client, which RFC 9112 forbids and which
                // such a client reads as part of the page. Without it, the body ends when the connection closes:
                // still written chunk by chunk as the items arrive.
                res.chunkedTransfer(false).keepAlive(false);
            }
            // Counted for a drain until Reactor Netty has written the last chunk, not only until the render ended:
            // the end of the page is still queued for the event loop then.
            Runnable written = site.hold();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            // A failed render's response must end without its last chunk, so that the client sees a cut page: the
            // connection is closed once every chunk written before the failure has gone out (the send completes
            // after its writes, on the event loop) and before Reactor Netty finishes the response. Closing it at
            // the failure, from the render's thread, lost chunks still queued for the event loop (the head, seen
            // once under load in MatrixFailuresTest); failing the Flux instead has Reactor Netty log the render's
            // failure again, at SEVERE with its trace, beside the site's one warning.
            return Mono.from(res.send(chunks(page, failed)))
                    .then(Mono.<Void>fromRunnable(() -> {
                        if (failed.get() != null) {
                            res.withConnection(connection -> connection.channel().close());
                        }
                    }))
                    .doFinally(signal -> written.run());
        }

        /**
         * The page as a Flux of chunks. Reactor Netty writes each element and flushes when no further element is
         * ready, so a chunk produced after a wait goes out on its own. A failed render ends the Flux too, its
         * failure in {@code failed}, and {@link #page} closes the connection so that the response never gets its
         * last chunk.
         *
         * <p>The render is created here, while the request is being handled, so that a graceful drain counts it
         * even before Reactor Netty subscribes (it may write the headers first); it starts on subscription, and
         * the connection closing cancels it whatever the state.
         */
        private Flux<ByteBuf> chunks(Page page, AtomicReference<Throwable> failed) {
            AtomicReference<FluxSink<ByteBuf>> target = new AtomicReference<>();
            Render render = site.render(page, bytes -> {
                FluxSink<ByteBuf> sink = target.get();
                if (sink.isCancelled()) {
                    throw new IOException("client went away");
                }
                sink.next(Unpooled.wrappedBuffer(bytes));
            });
            // Removed when the render ends: a keep-alive connection must not collect one listener per request.
            GenericFutureListener<Future<? super Void>> onClose = closed -> render.cancel();
            res.withConnection(connection -> connection.channel().closeFuture().addListener(onClose));
            return Flux.<ByteBuf>create(sink -> {
                target.set(sink);
                sink.onCancel(render::cancel);
                site.startLater(render).done().whenComplete((v, failure) -> {
                    res.withConnection(connection -> connection.channel().closeFuture().removeListener(onClose));
                    if (failure != null) {   // the connection is closed after the chunks before it (page())
                        failed.set(failure);
                    }
                    sink.complete();
                });
            }, FluxSink.OverflowStrategy.BUFFER).doOnDiscard(ByteBuf.class, ByteBuf::release);
        }
    }
}
