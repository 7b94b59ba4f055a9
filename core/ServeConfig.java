package core;

import java.time.Duration;

/** Everything a running combination needs, validated ({@link Combination#check}). */
public record ServeConfig(Server server, Engine engine, Mode mode, String host, int port,
                          Duration delay, DataSource.Timers timers, int threads, Duration grace, int failAfter,
                          ConnectionLimits limits) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    /** serve's --delay as written on the command line (an annotation's default must be a constant string). */
    public static final String DEFAULT_DELAY_TEXT = "1ms";
    public static final Duration DEFAULT_DELAY = Durations.parse(DEFAULT_DELAY_TEXT);
    /** The default size of the platform pool of the blocking mode: Tomcat's and Jetty's default max threads. */
    public static final int DEFAULT_THREADS = 200;
    /** serve's --grace as written on the command line. */
    public static final String DEFAULT_GRACE_TEXT = "3s";
    public static final Duration DEFAULT_GRACE = Durations.parse(DEFAULT_GRACE_TEXT);

    /** With the default backlog and timeouts. */
    public ServeConfig(Server server, Engine engine, Mode mode, String host, int port, Duration delay,
                       DataSource.Timers timers, int threads, Duration grace, int failAfter) {
        this(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, ConnectionLimits.DEFAULT);
    }

    public ServeConfig {
        Combination.check(server, engine, mode);
        if (port < 0 || port > 65535) {
            throw new UsageException("--port must be between 0 and 65535 (0 picks a free port), not " + port + ".");
        }
        if (threads < 1) {
            throw new UsageException("--threads must be at least 1, not " + threads + ".");
        }
        if (delay.isNegative() || grace.isNegative()) {
            throw new UsageException("durations must not be negative.");
        }
    }

    /** A loopback config with defaults, for tests and verify. */
    public static ServeConfig of(Combination c, Duration delay) {
        return new ServeConfig(c.server(), c.engine(), c.mode(), DEFAULT_HOST, 0, delay,
                DataSource.Timers.COMPUTATION, DEFAULT_THREADS, DEFAULT_GRACE, -1);
    }

    /** The site this combination serves. */
    public Site site() {
        return site(null);
    }

    /**
     * The site this combination serves; with {@code demoBuffered} (the buffered mode, for {@code serve --demo}) it
     * also serves the demo page and each page rendered by the same engine in that mode (see {@link Demo}).
     */
    public Site site(Mode demoBuffered) {
        if (demoBuffered != null && mode.wholePage()) {
            throw new UsageException("--demo shows a progressive mode beside the buffered one: choose another --mode"
                    + " than " + mode.id() + ".");
        }
        return new Site(new Site.Settings(engine, mode, serving(), delay, timers, threads, grace, failAfter,
                demoBuffered == null ? info() : ServerInfo.of(server.id(), engine.id(), mode.id(), delay, timers,
                        threads, true), demoBuffered));
    }

    /** Where and how the server listens. */
    public Server.Listen listen() {
        return new Server.Listen(host, port, threads, serving(), limits);
    }

    /**
     * How this combination serves a page: a function of the server's declared handling and the mode's needs
     * ({@link Serving#of}), so the site, the server and the README get the same value.
     */
    public Serving serving() {
        return combination().serving();
    }

    /** What the server says about itself at {@link ServerInfo#PATH}. */
    public ServerInfo info() {
        return ServerInfo.of(server.id(), engine.id(), mode.id(), delay, timers, threads);
    }

    public Combination combination() {
        return new Combination(server, engine, mode);
    }

    public ServeConfig withLimits(ConnectionLimits limits) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits);
    }

    public ServeConfig withFailAfter(int items) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, items, limits);
    }
}
