package servers;

import http.PortInUseException;
import http.Protocol;
import http.Tls;
import model.ChunkSink;
import model.Handler;
import model.Page;
import model.Render.RenderFailedException;
import site.Logs;
import site.Server;
import site.Site;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.http2.Http2Upgrader;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Helidon 4 WebServer ("Níma"): blocking I/O on one virtual thread per connection, no event loop.
 */
public final class NimaServer implements Server {

    @Override
    public String id() {
        return "nima";
    }

    @Override
    public String description() {
        return "Helidon {io.helidon.webserver:helidon-webserver} WebServer (Níma): a virtual thread per connection,"
                + " blocking I/O";
    }

    /** No async response API: the handler writes the whole response. */
    @Override
    public List<Handler> handling() {
        return List.of(new Handler(Handler.Kind.VIRTUAL, false, "the connection's virtual thread"));
    }

    /**
     * Helidon 4 speaks HTTP/1.1 and HTTP/2 only: its HTTP/1 connection selector matches the request line's
     * {@code HTTP/1.1} alone, and it answers {@code HTTP/1.0} with 505 and closes. PssrBench measures Helidon's own
     * HTTP, so it does not add an HTTP/1.0 implementation of its own in front of it.
     */
    @Override
    public boolean servesHttp10() {
        return false;
    }

    /**
     * Helidon rejects all Java deserialization JVM-wide by default (JEP 290), which would also reject JMX over RMI,
     * so bench could not read the server's MXBeans: let the standard JMX and RMI types through, nothing else.
     */
    @Override
    public List<String> jvmFlags() {
        return List.of("-Dhelidon.serialFilter.pattern=javax.management.**;java.lang.*;java.rmi.**;java.util.*");
    }

    @Override
    public Running start(Listen listen, Site site) {
        Logs.quiet("io.helidon");
        // A client that hangs up in the middle of its request head: Helidon logs "Internal server error" with a
        // RequestException caused by InsufficientDataAvailableException, one WARNING per client.
        Logs.ignoreClientNoise("io.helidon.webserver.http1.Http1Connection", r -> r.getThrown() != null
                && Logs.causedBy(r.getThrown(), "io.helidon.common.buffers.DataReader$InsufficientDataAvailableException"));
        // A connection that arrives while the server stops: the blocking mode's executor refuses it (SEVERE);
        // the client is refused, as it would be a moment later.
        Logs.ignoreClientNoise("io.helidon.webserver.ServerListener", r -> r.getThrown() != null
                && Logs.causedBy(r.getThrown(), "java.util.concurrent.RejectedExecutionException"));
        NimaHeadWatch headWatch = new NimaHeadWatch(listen.limits().idleTimeout());
        NimaStop stop = new NimaStop();   // Helidon has no stop of accepting alone: NimaStop says how it makes one
        Http1Config http1 = Http1Config.builder().addReceiveListener(headWatch).build();
        WebServer server = stop.start(() -> {
            WebServerConfig.Builder builder = WebServer.builder();
            speak(builder, listen.protocol(), listen.tls(), http1, headWatch, stop);
            return builder
                .host(listen.host())
                .port(listen.port())
                .shutdownHook(false)   // PssrBench drains and stops servers itself
                // Helidon's backlog is 1024; its idle sweep closes connections only after 5 min, checked every
                // 2 min, so idle and half-sent connections held file descriptors for 5-7 min. Checked every tenth
                // of the timeout (at least 100 ms). The sweep closes a connection still sending its request line,
                // but not one whose headers stall after it (Helidon counts it busy): NimaHeadWatch bounds the whole
                // head from the moment the connection was ready.
                .backlog(listen.limits().backlog())
                .idleConnectionTimeout(listen.limits().idleTimeout())
                .idleConnectionPeriod(period(listen.limits().idleTimeout()))
                // Only the selectors speak() adds (Helidon's own, wrapped to start each connection's head clock), no
                // protocol configuration and no discovered one. With service discovery on as well (measured),
                // Helidon answered a garbage request line with nothing and no longer swept idle connections; with
                // a single selector Helidon creates the connection as it is accepted, before its first byte.
                .protocolsDiscoverServices(false)
                .directHandlers(handlers -> handlers.addHandler(DirectHandler.EventType.INTERNAL_ERROR,
                        NimaServer::internalError))
                // How long Helidon's stop, begun by stopAccepting, waits for the open connections before it
                // interrupts them (default 0.5 s): longer than the drain (the grace, then up to 0.5 s for the pages it
                // cut), so that the drain, not Helidon, ends the pages; close() ends the wait when the drain is done.
                .shutdownGracePeriod(site.settings().grace().plusSeconds(1))
                // Departs from Helidon's default (false): with Nagle on, every chunked page gains a ~40 ms
                // delayed-ACK stall.
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .routing(routing -> routing.any((req, res) -> {
                    site.handle(req.prologue().method().text(), req.path().path(), new Responder(site, res,
                            req.headers().containsToken(HeaderValues.CONNECTION_CLOSE)));
                    NimaHeadWatch.responded();   // not reached when the response ended by closing the connection
                }))
                .build()
                .start();
        });
        if (!server.isRunning()) {   // Helidon's start() does not throw when it cannot bind
            throw new PortInUseException(listen.host(), listen.port(), null);
        }
        return new Running() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void stopAccepting() {
                stop.stopAccepting();
            }

            @Override
            public void close() {
                stop.close();
            }
        };
    }

    /** Helidon's HTTP/2 module (helidon-webserver-http2): its selector, its HTTP/1.1 upgrader, ALPN over TLS. */
    @Override
    public List<Protocol> protocols() {
        return Protocol.all();
    }

    /**
     * The protocol on the port, as Helidon's connection selectors and TLS. Clear-text HTTP/2 is two of them: the
     * HTTP/2 selector, which recognises the prior-knowledge preface, and the HTTP/1 selector's h2c upgrader; with
     * two selectors Helidon reads a connection's first bytes to choose, so an HTTP/1 connection is created (and its
     * head clock started) at its first byte rather than at the accept. Over TLS, ALPN offers the protocols of the
     * selectors given (h2 and http/1.1, or http/1.1 alone). The HTTP/2 settings are Helidon's defaults: a page is
     * written through the response's output stream, each flush a DATA frame at once (within the client's window,
     * 65,535 bytes by default, more than a whole page), and the max frame size (16 kB) only splits an item.
     *
     * <p>Not worked around: Helidon 4.5.0 lets concurrent streams overrun the connection's flow-control window (each
     * stream checks the window, writes, then decrements it, not atomically: {@code Http2ConnectionWriter}) and then
     * answers the client's next WINDOW_UPDATE with GOAWAY(FLOW_CONTROL, last stream 0), ending every stream. Only a
     * client whose connection window runs low meets it (verify's, with Chromium's windows, does not; HTTP/2's initial
     * 65,535 bytes with many pages at once does). No setting here avoids it, the window being the client's; a lock
     * per connection around this handler's writes would, but would also hold every other page of the connection
     * while one waits for its window, which Helidon does not do. Fixed upstream (helidon-io/helidon#12166), in no
     * release up to 4.5.3; docs/http2.md has what was seen.
     *
     * <p>Nor this: after a client's RST_STREAM, Helidon 4.5.0 goes on writing the page's DATA frames on the reset
     * stream ({@code Http2ServerStream.writeData} does not look at the stream's state; RFC 9113, 6.4 forbids it), and
     * once the stream is dropped from the connection's map (when the next stream opens), it answers a further
     * RST_STREAM on it, which 5.4.2 permits and Netty's client sends for each late frame, with GOAWAY(PROTOCOL_ERROR,
     * "Stream N was never created", {@code Http2Connection.stream}), ending every stream. The frames are Helidon's
     * own. stress's h2-resets fails on it; tests/stress/H2LateResetTest declares it (docs/stress.md).
     */
    private static void speak(WebServerConfig.Builder builder, Protocol protocol, Tls tls, Http1Config http1,
                              NimaHeadWatch headWatch, NimaStop stop) {
        var http1Selector = Http1ConnectionSelector.builder().config(http1);
        if (protocol.http2()) {
            Http2Config http2 = Http2Config.create();
            http1Selector.addUpgrader(Http2Upgrader.create(http2));
            builder.addConnectionSelector(stop.selector(Http2ConnectionSelector.builder().http2Config(http2)
                    .build()));
        }
        builder.addConnectionSelector(stop.selector(headWatch.selector(http1Selector.build())));
        if (protocol.tls()) {
            builder.tls(io.helidon.common.tls.Tls.builder().sslContext(tls.serverContext()).build());
        }
    }

    /**
     * Helidon 4.5.0 reads a request's method with {@code Method.create}, which throws IllegalArgumentException for a
     * method with a character outside the RFC 9110 token set ({@code X<s>}); its connection loop answers any
     * exception it did not expect with 500 and logs "Internal server error" at WARNING, each time. Such an error
     * comes with an empty request (errors in the routes come with their request and are answered there): one raised
     * while Helidon reads a request's head, which is the client's malformed request, answered 400 and close, which
     * Helidon does not log above DEBUG. (A fault of Helidon's own in that loop would get the same 400; none was
     * seen.) Helidon also folds a method's case (it upper-cases every method before looking it up), so
     * {@code get} is served as {@code GET}: no hook sees the method as sent, and this server alone answers it 200
     * where the others answer 405 (methods are case-sensitive, RFC 9110 section 9.1).
     */
    private static DirectHandler.TransportResponse internalError(DirectHandler.TransportRequest request,
                                                                 DirectHandler.EventType type, Status status,
                                                                 ServerResponseHeaders headers, String message) {
        if (request != DirectHandler.TransportRequest.empty()) {
            return DirectHandler.defaultHandler().handle(request, type, status, headers, message);
        }
        return DirectHandler.TransportResponse.builder().status(Status.BAD_REQUEST_400)
                .header(HeaderNames.CONTENT_TYPE, Site.TEXT)
                .entity("400 Bad Request: a malformed request line\n").keepAlive(false).build();
    }

    private static java.time.Duration period(java.time.Duration timeout) {
        java.time.Duration tenth = timeout.dividedBy(10);
        return tenth.compareTo(java.time.Duration.ofMillis(100)) < 0 ? java.time.Duration.ofMillis(100) : tenth;
    }

    /** {@code askedToClose}: the request carried {@code Connection: close}. */
    private record Responder(Site site, ServerResponse res, boolean askedToClose) implements Site.Responder<Void> {

        @Override
        public Void fixed(Site.Reply reply) {
            res.status(reply.status()).header("Content-Type", reply.contentType());
            reply.headers().forEach(res::header);
            if (reply.close()) {
                res.header("Connection", "close");
            }
            if (reply.head()) {
                // Helidon writes whatever it is given, also for HEAD: the length alone, then no body.
                res.header("Content-Length", String.valueOf(reply.body().length));
                res.send();
            } else {
                res.send(reply.body());
            }
            closeIf(reply.close() || askedToClose);
            return null;
        }

        /**
         * Helidon 4.5.0 answers a request that says {@code Connection: close} with the same header but keeps the
         * socket open, so a client reading to EOF hangs (helidon-io/helidon#12324, fixed after 4.5.3, which is not
         * on Maven Central). Helidon closes the connection when a handler throws this after its response is sent.
         */
        private static void closeIf(boolean close) {
            if (close) {
                throw new CloseConnectionException("Connection: close");
            }
        }

        @Override
        public Void page(Page page) {
            res.header("Content-Type", Site.HTML);
            OutputStream out = res.outputStream();
            ChunkSink socket = bytes -> {
                out.write(bytes);
                out.flush();   // one flush = one HTTP chunk, written now (Helidon holds the first chunk until then)
            };
            try {
                site.streamHere(page, socket);
                out.close();
                // Helidon 4.5.0's close() only marks the stream closing; the last chunk is written by commit(), which
                // Helidon calls once the handler has returned. The drain counts this page done when the handler
                // returns, and a stop right then cut the page before its last chunk (JarIT's SIGTERM, CI
                // 2026-11-28): so write it here. commit() is idempotent.
                ((RoutingResponse) res).commit();
            } catch (RenderFailedException e) {
                // Never end the response as if complete: close the connection with the chunked body unfinished.
                throw new CloseConnectionException(e.getMessage(), e);
            } catch (IOException | UncheckedIOException e) {
                throw new CloseConnectionException("client went away", e);
            }
            closeIf(askedToClose);   // the last chunk is written: Helidon closes the connection after it
            return null;
        }
    }
}
