package core;

import java.util.Set;

/**
 * An HTTP server plug-in: one file in frameworks/ plus one line in {@link Registry}. It serves {@link Site}'s routes,
 * streams pages chunk by chunk (one {@link ChunkSink#chunk} = one write on the wire, TCP_NODELAY on, no compression)
 * and runs the render where the {@link Approach} says.
 */
public interface Server {

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /** One line for help and the README: library, version and threading model. */
    String description();

    Set<Approach> approaches();

    /** What the approach means on this server, in one sentence, for the README and {@code --help}. */
    String approachMeaning(Approach approach);

    /**
     * Whether an HTTP/1.0 request gets its page (without chunked coding, which HTTP/1.0 clients such as ApacheBench
     * cannot read); a server that cannot serve HTTP/1.0 refuses it with 505 and closes the connection.
     */
    default boolean servesHttp10() {
        return true;
    }

    /**
     * Starts listening and returns once requests are accepted.
     *
     * @throws PortInUseException when the address is taken
     */
    Running start(ServeConfig config, Site site);

    /** A started server. */
    interface Running extends AutoCloseable {
        /** The bound port (useful with port 0). */
        int port();

        /** Stops at once; in-flight responses are cut (see {@link Site#drain} for the graceful part). */
        @Override
        void close();
    }
}
