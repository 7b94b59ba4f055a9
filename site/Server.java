package site;

import base.UsageException;
import http.ConnectionLimits;
import http.Protocol;
import http.Tls;
import model.Handler;
import model.Serving;

import java.util.List;

/**
 * An HTTP server plug-in: one file in servers/ plus one line in cli/Registry.java. Transport only: it serves
 * {@link Site}'s routes and carries a page's chunks (one {@link model.ChunkSink#chunk} = one write on the wire, TCP_NODELAY
 * on, no compression) through {@link Site#streamHere} when its handler thread waits for the page, or
 * {@link Site#streamLater} when it answers later, as the plan it is started with says ({@link Serving}).
 */
public interface Server {

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /**
     * One line for the README: the library and its threading model; versions as {@code {group:artifact}}, filled in
     * from the build ({@link Versions}).
     */
    String description();

    /**
     * The ways this server can run its request handlers, in its order of preference, as data: the plan of each
     * combination ({@link Serving}) picks one for the mode's needs, and {@link #start} runs the one in
     * {@link Listen#serving()}. A server never asks which mode it serves.
     */
    List<Handler> handling();

    /**
     * The protocols this server can speak on its port ({@code serve --protocol}), as data: the tables show them
     * and {@link ServeConfig} refuses any other. HTTP/1.1 in clear text alone unless the server says more; a server
     * that offers HTTP/2 must send each chunk as its own DATA frame when it is written, as over HTTP/1.1.
     */
    default List<Protocol> protocols() {
        return List.of(Protocol.H1);
    }

    /**
     * {@code p} when this server speaks it, else the one refusal every command gives (exit 2): what this server
     * speaks and, from {@code registry} (the servers the command knows; serve, which knows no list, passes none),
     * the servers that speak {@code p}.
     */
    default Protocol speaks(Protocol p, List<? extends Server> registry) {
        if (!protocols().contains(p)) {
            List<String> speakers = registry.stream().filter(s -> s.protocols().contains(p)).map(Server::id).toList();
            throw new UsageException("--protocol=" + p.id() + " is not available with server " + id()
                    + ", which speaks " + Protocol.ids(protocols()) + (registry.isEmpty() ? ""
                    : "; the servers that speak it: " + String.join(", ", speakers)) + ".");
        }
        return p;
    }

    /**
     * True for a server whose library reads its connection limits ({@link ConnectionLimits}'s idle timeout) once
     * per JVM, when its first server starts: {@code serve} runs one server per JVM, so they apply there, but a
     * second server in the same JVM keeps the first one's.
     */
    default boolean limitsPerJvm() {
        return false;
    }

    /**
     * True for a server that counts the request-head timeout ({@link ConnectionLimits}'s idle timeout) from the
     * head's first byte rather than from the moment the connection became ready for a request (opened, or its
     * previous response ended): its idle timeout bounds the wait for that byte, so a head may end up to twice the
     * timeout after the connection was ready. docs/servers.md, "Connection settings", says which and why.
     */
    default boolean headTimeoutFromFirstByte() {
        return false;
    }

    /**
     * Whether an HTTP/1.0 request gets its page (without chunked coding, which HTTP/1.0 clients such as ApacheBench
     * cannot read); a server that cannot serve HTTP/1.0 refuses it with 505 and closes the connection.
     */
    default boolean servesHttp10() {
        return true;
    }

    /**
     * Whether the server can stop accepting connections (close its listening socket) while its open connections go
     * on: {@link Running#stopAccepting}. {@code serve} does so at SIGTERM, before the drain, so that a client sent
     * away with a 503 and {@code Connection: close} is refused when it reconnects instead of being accepted and then
     * cut by the final close. A server without a way keeps its listener open until {@link Running#close}.
     */
    default boolean stopsAcceptingAlone() {
        return true;
    }

    /**
     * JVM options the server needs when bench runs it in a JVM of its own (beyond those every such JVM gets), each
     * with a comment in the server's file saying why.
     */
    default List<String> jvmFlags() {
        return List.of();
    }

    /**
     * Starts listening and returns once requests are accepted.
     *
     * @throws PortInUseException when the address is taken
     */
    Running start(Listen listen, Site site);

    /**
     * Where to listen, the platform threads of a blocking pool, the plan of the combination (whose handler the
     * server runs), and the backlog and timeouts every server applies to its connections: the part of
     * {@link ServeConfig} a server needs ({@link ServeConfig#listen()}, its only maker), which names no mode;
     * the protocol to speak (one of {@link Server#protocols()}) and, for one over TLS, the key and certificate
     * ({@code tls}, null in clear text).
     */
    record Listen(String host, int port, int threads, Serving serving, ConnectionLimits limits, Protocol protocol,
                  Tls tls) {

        public Listen {
            if (protocol.tls() != (tls != null)) {
                throw new IllegalArgumentException("TLS material is needed for " + protocol.id() + " and only then");
            }
        }

        /** The handler the plan chose among the server's {@link Server#handling()}. */
        public Handler handler() {
            return serving.handler();
        }
    }

    /** A started server. */
    interface Running extends AutoCloseable {
        /** The bound port (useful with port 0). */
        int port();

        /**
         * Closes the listening socket only: new connections are refused from then on, the open ones go on (their
         * requests in flight and the next ones). Returns once a new connection is refused
         * ({@link http.ListenAddress#awaitRefused}); idempotent. Only for a server whose
         * {@link Server#stopsAcceptingAlone()} is true, any other throws {@link UnsupportedOperationException}.
         */
        void stopAccepting();

        /** Stops at once; in-flight responses are cut (see {@link Site#drain} for the graceful part). */
        @Override
        void close();
    }
}
