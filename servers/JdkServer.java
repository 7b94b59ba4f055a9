package servers;

import http.ListenAddress;
import http.PortInUseException;
import model.ChunkSink;
import model.Handler;
import model.Page;
import model.Render.RenderFailedException;
import site.Logs;
import site.Pools;
import site.Server;
import site.Site;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The JDK's own {@code com.sun.net.httpserver.HttpServer} (module jdk.httpserver), no dependency: the baseline that
 * tells how much a framework adds. One platform thread ("HTTP-Dispatcher") accepts connections and waits for the
 * next request on idle ones with a selector; each request (its request line and headers too) then runs as one
 * task on the server's executor, blocking on its socket. The executor is the only threading knob, so it is the
 * one the plan chose ({@link model.Serving}): a new virtual thread per request, or a fixed pool of {@code --threads}
 * platform threads. It has no async response: the handler writes the whole response and returns, so a render on
 * callbacks goes through {@link Site#streamHere}'s queue, as on Helidon.
 *
 * <p>Its defaults and limits, as read in the JDK 25 sources ({@code sun.net.httpserver.ServerConfig},
 * {@code ServerImpl}, {@code ExchangeImpl}) and checked against tests/servers/HttpBehaviourTest:
 * <ul>
 * <li>TCP_NODELAY is off unless the system property {@code sun.net.httpserver.nodelay} is true, read once when
 *     {@code ServerConfig} initialises (on the first {@code HttpServer.create} in the JVM): see {@link #NODELAY}.</li>
 * <li>Keep-alive: an idle connection closes after 30 s ({@code sun.net.httpserver.idleInterval}, checked every
 *     10 s); at most 200 connections may be idle at once ({@code sun.net.httpserver.maxIdleConnections}): a
 *     connection that finishes a response while 200 others are idle is closed: see {@link #MAX_IDLE}. No limit on
 *     connections ({@code jdk.httpserver.maxConnections}), none on the time to read a request or write a response
 *     ({@code sun.net.httpserver.maxReqTime}/{@code maxRspTime}: the first is set, see {@link #limits}); at most 200 request headers
 *     ({@code sun.net.httpserver.maxReqHeaders}) of 380 KiB in all ({@code maxReqHeaderSize}), beyond which the
 *     request is refused.</li>
 * <li>The listen backlog is the JDK's 50 when not given: {@code --backlog} gives it.</li>
 * <li>HTTP/1.0 is served: the status line says HTTP/1.1, a streamed body is close-delimited (no chunked coding) and
 *     still written chunk by chunk, and the connection closes after it.</li>
 * <li>{@code Connection: close} from the client closes the connection after the response, but the response does
 *     not say so: this handler adds the header (the server also closes when a response carries it).</li>
 * <li>HEAD: the server sends no body and no Content-Length of its own; the handler sets GET's length itself.</li>
 * <li>It accepts any method and does not check Host: a method that is not a token gets {@link Site#malformed}
 *     (400), the unknown methods reach {@link Site} (405), and an
 *     HTTP/1.1 request without Host gets {@link Site#missingHost}.</li>
 * <li>Compression: none exists. An exception out of a handler closes the connection, logged only at TRACE; that is
 *     how a failed page is cut.</li>
 * <li>{@code ChunkedOutputStream} frames at most 4 KiB per HTTP chunk over an 8 KiB {@code BufferedOutputStream}:
 *     a chunk written then flushed goes out at once, a chunk above 4 KiB as several HTTP chunks.</li>
 * <li>On JDK 21 to 23 its socket writes hold a monitor ({@code synchronized} in {@code Request.WriteStream}), so a
 *     virtual thread writing a chunk pins its carrier while the write blocks; JDK 24+ (JEP 491) does not pin.</li>
 * </ul>
 */
public final class JdkServer implements Server {

    /**
     * TCP_NODELAY: the JDK server sets it on accepted sockets only when this system property is true, and reads it
     * once, when its {@code ServerConfig} class initialises (the first {@code HttpServer.create} in the JVM); there
     * is no API for it. It is set here, when this class initialises (as the registry is built, before any server
     * starts) and again before each start, and bench passes it as a JVM flag too ({@link #jvmFlags}), so that the
     * measured JVM has it whatever ran first. Without it every chunked page gains delayed-ACK stalls (~40 ms).
     */
    static final String NODELAY = "sun.net.httpserver.nodelay";

    /**
     * Departs from the default (200): a connection that finishes a response while 200 others wait idle for their
     * next request is closed, so a client with more keep-alive connections than that would measure reconnects.
     * Also read once, like {@link #NODELAY}; a value the user set is kept.
     */
    static final String MAX_IDLE = "sun.net.httpserver.maxIdleConnections";
    private static final String MAX_IDLE_VALUE = "10000";

    static {
        configure();
    }

    private static void configure() {
        System.setProperty(NODELAY, "true");
        if (System.getProperty(MAX_IDLE) == null) {
            System.setProperty(MAX_IDLE, MAX_IDLE_VALUE);
        }
    }

    @Override
    public String id() {
        return "jdk";
    }

    @Override
    public String description() {
        return "The JDK's built-in HttpServer (com.sun.net.httpserver; no dependency, the baseline): a selector"
                + " thread, then a thread per request from its executor (virtual or a platform pool), blocking I/O";
    }

    /** The executor's two kinds; no async response API: the handler writes the whole response. */
    @Override
    public List<Handler> handling() {
        return List.of(
                new Handler(Handler.Kind.VIRTUAL, false,
                        "the request's virtual thread (the server's executor starts one per request)"),
                new Handler(Handler.Kind.PLATFORM, false,
                        "the request's thread, one of the server's executor: a pool of --threads platform threads"));
    }

    /** The two system properties above, read when the server class initialises: see {@link #NODELAY}. */
    @Override
    public List<String> jvmFlags() {
        return List.of("-D" + NODELAY + "=true", "-D" + MAX_IDLE + "=" + MAX_IDLE_VALUE);
    }

    /**
     * The idle timeout as the JDK's two properties, in whole seconds: {@code idleInterval} closes an idle keep-alive
     * connection (checked every {@code clockTick}), {@code maxReqTime} a connection whose request has not been read
     * within it (by default never: a half-sent request would hold its connection for ever; checked every
     * {@code timerMillis}). Read when the JDK's ServerConfig initialises, on the first server of the JVM
     * ({@link #limitsPerJvm}).
     *
     * <p>{@code maxReqTime} counts from the request's first byte ({@code ServerImpl.requestStarted}, when the
     * dispatcher finds the idle connection readable) to the end of its headers ({@code requestCompleted}): every
     * byte does not restart it, so a trickling head is closed, but a client that waits most of the idle timeout
     * before its first byte gets the whole timeout again for its head ({@link #headTimeoutFromFirstByte}). The
     * server has no hook that would let a watchdog of PssrBench's count from the moment the connection was ready.
     */
    private static void limits(http.ConnectionLimits limits) {
        long seconds = Math.max(1, (limits.idleTimeout().toMillis() + 999) / 1000);
        System.setProperty("sun.net.httpserver.idleInterval", String.valueOf(seconds));
        System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(seconds));
        // How often the idle connections and the request times are checked: by default every 10 s and every 1 s,
        // which would let a connection outlive a short timeout by that much (measured: a head trickled into a 2 s
        // timeout closed after 2.5 s); a tenth of it (at least 100 ms) keeps the timeout within 10%.
        String tick = String.valueOf(Math.max(100, seconds * 100));
        System.setProperty("sun.net.httpserver.clockTick", tick);
        System.setProperty("sun.net.httpserver.timerMillis", tick);
    }

    /** {@code maxReqTime} starts at the head's first byte: see {@link #limits}. */
    @Override
    public boolean headTimeoutFromFirstByte() {
        return true;
    }

    @Override
    public boolean limitsPerJvm() {
        return true;
    }

    @Override
    public Running start(Listen listen, Site site) {
        configure();   // in case the registry was not built first; a no-op once the server classes initialised
        Logs.quiet("com.sun.net.httpserver");
        HttpServer server;
        try {
            limits(listen.limits());
            server = HttpServer.create(new InetSocketAddress(listen.host(), listen.port()), listen.limits().backlog());
        } catch (BindException e) {
            throw new PortInUseException(listen.host(), listen.port(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExecutorService executor = listen.handler().kind() == Handler.Kind.VIRTUAL
                ? Pools.virtual("jdk-http")
                // Fixed and started up front, as the other servers' pools: requests beyond it queue.
                : Pools.platform(listen.threads(), "jdk-http");
        server.setExecutor(executor);
        // "/" is a prefix: every path. The exchange is closed by the responder once its response is complete, and
        // never when it failed: closing would write the last chunk of a cut page.
        server.createContext("/", exchange -> handle(exchange, site));
        server.start();
        AtomicReference<Thread> stopping = new AtomicReference<>();
        int port = server.getAddress().getPort();
        return new Running() {
            @Override
            public int port() {
                return port;
            }

            /**
             * The JDK has no call that closes the listener alone, but stop(delay) starts with it: it marks the server
             * terminating (the dispatcher accepts no more), closes the listening channel, then waits up to the delay
             * for the exchanges in progress while the dispatcher still serves the open connections' requests; when
             * none is left in progress it closes the connections (idle ones, whose clients may lose a request sent
             * at that moment, as with any keep-alive close) and stops. So it runs here on a thread of its own with no
             * real limit, and close() ends it.
             */
            @Override
            public void stopAccepting() {
                Thread stop = Thread.ofPlatform().daemon(true).name("jdk-http-stop")
                        .unstarted(() -> server.stop(Integer.MAX_VALUE));
                if (stopping.compareAndSet(null, stop)) {
                    stop.start();
                }
                ListenAddress.awaitRefused(listen.host(), port);
            }

            @Override
            public void close() {
                // stop(0): close every connection now, and end a stop(n) begun by stopAccepting. stop(n) waits for
                // the server's own count of exchanges, which a handler that ended by throwing (an aborted page)
                // never decrements.
                server.stop(0);
                executor.shutdownNow();
            }
        };
    }

    private static void handle(HttpExchange exchange, Site site) {
        String version = exchange.getProtocol();
        boolean http10 = version.equalsIgnoreCase("HTTP/1.0");
        String path = exchange.getRequestURI().getRawPath();
        Responder responder = new Responder(site, exchange, http10, asksToClose(exchange.getRequestHeaders()));
        // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400; the JDK server does not check it.
        if (version.equalsIgnoreCase("HTTP/1.1") && !exchange.getRequestHeaders().containsKey("Host")) {
            site.missingHost(responder);
            return;
        }
        if (!isToken(exchange.getRequestMethod())) {
            site.malformed(responder);
            return;
        }
        site.handle(exchange.getRequestMethod(), path == null ? "" : path, responder);
    }

    /**
     * Whether {@code method} is an RFC 9110 token (section 5.6.2): the JDK server takes any run of characters up to
     * the first space as the method and has no hook to refuse it, so {@code X<s>} reached the routes (405, the method
     * echoed) where the other servers' parsers answer 400.
     */
    static boolean isToken(String method) {
        if (method.isEmpty()) {
            return false;
        }
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** {@code Connection: close} among the request's Connection tokens (the server only looks at the first value). */
    private static boolean asksToClose(Headers headers) {
        List<String> values = headers.get("Connection");
        if (values != null) {
            for (String value : values) {
                for (String token : value.split(",")) {
                    if (token.trim().toLowerCase(Locale.ROOT).equals("close")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * {@code http10}: the request was HTTP/1.0; {@code askedToClose}: it carried {@code Connection: close}.
     * Exceptions leave {@link #handle} unchecked: the JDK server then closes the connection (logged at TRACE).
     */
    private record Responder(Site site, HttpExchange exchange, boolean http10, boolean askedToClose)
            implements Site.Responder<Void> {

        @Override
        public Void fixed(Site.Reply reply) {
            Headers headers = exchange.getResponseHeaders();
            headers.set("Content-Type", reply.contentType());
            reply.headers().forEach(headers::set);
            if (reply.close() || askedToClose) {
                closeAfter(headers);
            }
            byte[] body = reply.body();
            try {
                if (reply.head()) {
                    // -1: no body. The server leaves Content-Length out for HEAD (and warns if given a length).
                    headers.set("Content-Length", String.valueOf(body.length));
                    exchange.sendResponseHeaders(reply.status(), -1);
                } else {
                    // A length of 0 would mean chunked coding here; -1 means an empty body with Content-Length 0.
                    exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
                    exchange.getResponseBody().write(body);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            exchange.close();   // the response is complete (a no-op after HEAD, which the server completed)
            return null;
        }

        /**
         * Says {@code Connection: close} in the response; the server closes the connection after a response that
         * carries it. (It may have said {@code keep-alive} to an HTTP/1.0 client that asked for it.)
         */
        private static void closeAfter(Headers headers) {
            headers.set("Connection", "close");
            headers.remove("Keep-Alive");
        }

        @Override
        public Void page(Page page) {
            Headers headers = exchange.getResponseHeaders();
            headers.set("Content-Type", Site.HTML);
            if (askedToClose || http10) {
                closeAfter(headers);   // an HTTP/1.0 body without length ends when the connection closes
            }
            OutputStream out;
            try {
                // 0: chunked coding for HTTP/1.1, a close-delimited body for HTTP/1.0. The headers wait in the
                // connection's buffer and go out with the first chunk.
                exchange.sendResponseHeaders(200, 0);
                out = exchange.getResponseBody();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            ChunkSink socket = bytes -> {
                out.write(bytes);
                out.flush();   // one flush = one HTTP chunk (at most 4 KiB each), written to the socket now
            };
            // A failed page (RenderFailedException) leaves the handler unchecked: the server closes the connection
            // without the last chunk, so the page never ends like a complete one.
            site.streamHere(page, socket);
            exchange.close();   // the last chunk (a client gone by then is ignored)
            return null;
        }
    }
}
