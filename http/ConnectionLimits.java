package http;

import base.Durations;
import base.UsageException;

import java.time.Duration;

/**
 * How a server treats connections before and between requests, the same on every server: the listen backlog (the
 * queue of connections the kernel has accepted and the server has not yet taken; the kernel caps it at
 * {@code net.core.somaxconn}), and how long a connection may stay idle with no request in progress, which also
 * bounds how long a request's head may take to arrive (docs/servers.md, "Connection settings", says how exactly on
 * each server). Without it, idle or half-sent connections hold a file descriptor each for ever (netty) or for 5-7 min
 * (nima), and enough of them exhaust the server's file limit.
 */
public record ConnectionLimits(int backlog, Duration idleTimeout) {

    /**
     * Enough for the bursts PssrBench makes (10,000 connections opened in a few seconds by {@code stress} and
     * {@code bench}); Linux silently caps it at {@code net.core.somaxconn} (4096 by default since Linux 5.4).
     */
    public static final int DEFAULT_BACKLOG = 4096;
    /** serve's --idle-timeout as written: Jetty's own default, which Javalin users already have. */
    public static final String DEFAULT_IDLE_TIMEOUT_TEXT = "30s";
    public static final ConnectionLimits DEFAULT = new ConnectionLimits(DEFAULT_BACKLOG,
            Durations.parse(DEFAULT_IDLE_TIMEOUT_TEXT));

    public ConnectionLimits {
        if (backlog < 1) {
            throw new UsageException("--backlog must be at least 1, not " + backlog + ".");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new UsageException("--idle-timeout must be longer than 0.");
        }
    }
}
