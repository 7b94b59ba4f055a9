package site;

import base.Durations;
import base.UsageException;
import http.ConnectionLimits;
import http.Protocol;
import http.Tls;
import model.DataSource;
import model.Engine;
import model.Mode;
import model.Render;
import model.Serving;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a running combination needs, validated ({@link Combination#check}): the one value that {@code serve}
 * parses its flags into, that a parent writes as a child's {@code serve} arguments ({@link #args()}), that a running
 * server tells at {@link ServerInfo#PATH} and a client reads back ({@link #from}). The site, the server's listener
 * and each render get narrow views of it ({@link #site}, {@link #listen}, {@link #feed}): they sit below it in
 * core, so they do not name it. serve's defaults live here and nowhere else.
 */
public record ServeConfig(Server server, Engine engine, Mode mode, String host, int port,
                          Duration delay, DataSource.Timers timers, int threads, Duration grace, int failAfter,
                          ConnectionLimits limits, Protocol protocol, Path tlsCert, Path tlsKey) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    /** serve's --delay as written on the command line (an annotation's default must be a constant string). */
    public static final String DEFAULT_DELAY_TEXT = "1ms";
    public static final Duration DEFAULT_DELAY = Durations.parse(DEFAULT_DELAY_TEXT);
    /** The default size of the platform pool of the blocking mode: Tomcat's and Jetty's default max threads. */
    public static final int DEFAULT_THREADS = 200;
    /** serve's --grace as written on the command line. */
    public static final String DEFAULT_GRACE_TEXT = "3s";
    public static final Duration DEFAULT_GRACE = Durations.parse(DEFAULT_GRACE_TEXT);
    /** --fail-after's default: the data source never fails. */
    public static final int NEVER_FAIL = -1;
    public static final Protocol DEFAULT_PROTOCOL = Protocol.byId(Protocol.DEFAULT_TEXT);
    public static final DataSource.Timers DEFAULT_TIMERS = DataSource.Timers.byId(DataSource.Timers.DEFAULT_TEXT);

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
        server.speaks(protocol, List.of());
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together: give both, or neither for a self-signed"
                    + " certificate.");
        }
        if (tlsCert != null && !protocol.tls()) {
            throw new UsageException("--tls-cert and --tls-key need a protocol over TLS: --protocol=h1s or h2.");
        }
    }

    /** {@code c} with serve's defaults for every other flag: what {@code serve --server --engine --mode} runs. */
    public static ServeConfig defaults(Combination c) {
        return new ServeConfig(c.server(), c.engine(), c.mode(), DEFAULT_HOST, DEFAULT_PORT, DEFAULT_DELAY,
                DEFAULT_TIMERS, DEFAULT_THREADS, DEFAULT_GRACE, NEVER_FAIL, ConnectionLimits.DEFAULT,
                DEFAULT_PROTOCOL, null, null);
    }

    /** {@code c} at {@code delay} on a free loopback port, serve's defaults otherwise: for tests, verify and bench. */
    public static ServeConfig of(Combination c, Duration delay) {
        return defaults(c).withPort(0).withDelay(delay);
    }

    /**
     * This configuration as {@code serve}'s flags (after the word {@code serve}), which serve parses back into an
     * equal value (ServeConfigTest): the combination always (serve's defaults for it come from the registry, which
     * this layer does not know), every other flag only where it differs from serve's default, so that a child's
     * command line in a log reads as what is particular about it.
     */
    public List<String> args() {
        List<String> args = new ArrayList<>(List.of("--server=" + server.id(), "--engine=" + engine.id(),
                "--mode=" + mode.id()));
        ServeConfig d = defaults(combination());
        add(args, "--host", host, d.host);
        add(args, "--port", port, d.port);
        add(args, "--delay", Durations.format(delay), Durations.format(d.delay));
        add(args, "--source-scheduler", timers.id(), d.timers.id());
        add(args, "--threads", threads, d.threads);
        add(args, "--grace", Durations.format(grace), Durations.format(d.grace));
        add(args, "--fail-after", failAfter, d.failAfter);
        add(args, "--backlog", limits.backlog(), d.limits.backlog());
        add(args, "--idle-timeout", Durations.format(limits.idleTimeout()), Durations.format(d.limits.idleTimeout()));
        add(args, "--protocol", protocol.id(), d.protocol.id());
        if (tlsCert != null) {
            args.add("--tls-cert=" + tlsCert);
            args.add("--tls-key=" + tlsKey);
        }
        return args;
    }

    private static void add(List<String> args, String flag, Object value, Object byDefault) {
        if (!value.equals(byDefault)) {
            args.add(flag + "=" + value);
        }
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
        return new Site(new Site.Settings(feed(), mode, serving(), threads, grace, info(demoBuffered != null),
                demoBuffered));
    }

    /** Where and how the server listens: the narrow view a server gets, which names no mode. */
    public Server.Listen listen() {
        return new Server.Listen(host, port, threads, serving(), limits, protocol, tls());
    }

    /**
     * The key and certificate of a protocol over TLS, null in clear text: the user's PEM pair, or else a new
     * self-signed certificate for {@link #host} (each call makes another: call it once per server started).
     */
    public Tls tls() {
        if (!protocol.tls()) {
            return null;
        }
        return tlsCert != null ? Tls.read(tlsCert, tlsKey) : Tls.selfSigned(host);
    }

    /**
     * How this combination serves a page: a function of the server's declared handling and the mode's needs
     * ({@link Serving#of}), so the site, the server and the README get the same value.
     */
    public Serving serving() {
        return combination().serving();
    }

    /** What a render reads: the engine, and the data source's delay, scheduler and fault. */
    public Render.Feed feed() {
        return new Render.Feed(engine, delay, timers, failAfter);
    }

    /** What the server says about itself at {@link ServerInfo#PATH}. */
    public ServerInfo info() {
        return info(false);
    }

    /** The same, for a server that also serves the demo's buffered pages ({@code serve --demo}) if {@code demo}. */
    public ServerInfo info(boolean demo) {
        return ServerInfo.of(server.id(), engine.id(), mode.id(), delay, timers, threads, protocol.id(), demo);
    }

    /**
     * The configuration a running server tells at {@link ServerInfo#PATH}, read back: {@code running} is its
     * combination as this build's registry names it (core does not know the registry), {@code host} and
     * {@code port} where it was reached. The flags /info.json does not carry (--grace, --fail-after, --backlog,
     * --idle-timeout) are serve's defaults; a scheduler this build does not know, or none (an older server), is the
     * default one, as is a pool size it does not give, and a protocol it does not give or this build does not know
     * is HTTP/1.1 (an older server's). A TLS server's certificate files stay its own: a client trusts what it presents.
     */
    public static ServeConfig from(ServerInfo info, Combination running, String host, int port) {
        DataSource.Timers scheduler = DEFAULT_TIMERS;
        for (DataSource.Timers t : DataSource.Timers.values()) {
            if (t.id().equals(info.sourceScheduler())) {
                scheduler = t;
            }
        }
        Protocol protocol = DEFAULT_PROTOCOL;
        for (Protocol p : Protocol.values()) {
            if (p.id().equals(info.protocol())) {
                protocol = p;
            }
        }
        return defaults(running).withHost(host).withPort(port).withDelay(info.delayDuration()).withTimers(scheduler)
                .withThreads(info.threads() < 1 ? DEFAULT_THREADS : info.threads())
                .withProtocol(protocol);
    }

    public Combination combination() {
        return new Combination(server, engine, mode);
    }

    public ServeConfig withHost(String host) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withPort(int port) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withDelay(Duration delay) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withTimers(DataSource.Timers timers) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withThreads(int threads) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withGrace(Duration grace) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withLimits(ConnectionLimits limits) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withFailAfter(int items) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, items, limits, protocol, tlsCert, tlsKey);
    }

    public ServeConfig withProtocol(Protocol protocol) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits,
                protocol, protocol.tls() ? tlsCert : null, protocol.tls() ? tlsKey : null);
    }

    /** Over TLS with the user's PEM pair instead of a self-signed certificate. */
    public ServeConfig withTlsFiles(Path cert, Path key) {
        return new ServeConfig(server, engine, mode, host, port, delay, timers, threads, grace, failAfter, limits,
                protocol, cert, key);
    }
}
