package http;

import base.Durations;
import base.UsageException;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Checks the listen address before a server library tries it, so that every server fails the same way, in one
 * sentence: some libraries log their own bind failure at length (Helidon logs SEVERE and returns), and each words
 * it differently. A host that does not resolve or is not this machine's is bad input (exit 2); a port in use is
 * not (exit 1: the same command works once the port is free).
 */
public final class ListenAddress {

    private ListenAddress() {
    }

    public static void check(String host, int port) {
        // inet_aton's shorthands: "0" is 0.0.0.0 (every interface), "127.1" is 127.0.0.1, "2130706433" too. A
        // server reachable from every machine must not hide behind a digit: write the address in full.
        if (host.matches("[0-9.]+") && !host.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")) {
            throw new UsageException("--host=" + host + " is a shorthand that hides which address it means (0 is"
                    + " every interface); write it in full: 127.0.0.1 (the default), 0.0.0.0 for every interface, or"
                    + " one address of this machine.");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new UsageException("cannot listen on " + host + ": the name does not resolve; give --host an"
                    + " address of this machine (127.0.0.1 by default, 0.0.0.0 for every interface).");
        }
        if (!isLocal(address)) {
            throw new UsageException("cannot listen on " + host + " (" + address.getHostAddress() + "): it is not"
                    + " an address of this machine; give --host one of its addresses (127.0.0.1 by default, 0.0.0.0"
                    + " for every interface).");
        }
        if (port == 0) {
            return;   // the kernel picks a free port
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);   // as the servers do, so a port in TIME_WAIT is not reported as taken
            probe.bind(new InetSocketAddress(address, port));
        } catch (BindException e) {
            if (port < 1024 && !"Address already in use".equals(e.getMessage())) {
                throw new UsageException("cannot listen on " + host + ":" + port + ": " + e.getMessage()
                        + " (ports below 1024 need privileges); choose another with --port.");
            }
            throw new PortInUseException(host, port, e);
        } catch (IOException e) {
            throw new UsageException("cannot listen on " + host + ":" + port + ": " + e.getMessage() + ".");
        }
    }

    /**
     * Returns once a connection to {@code host:port} is refused, after a server has closed its listening socket (at
     * most 2 s; then it logs a warning). Most libraries close it a moment after their call returns: a
     * socket registered with a selector closes at the selector's next round, one whose accepting thread is virtual
     * when that thread next runs (measured: 1-9 ms on a loaded machine). Meanwhile the kernel still completes
     * connections, only to reset them when the socket closes: a client sent away with a 503 that reconnected then
     * would lose its request. Each probe that connects is closed at once, having sent nothing.
     */
    public static void awaitRefused(String host, int port) {
        Duration timeout = Duration.ofSeconds(2);
        InetAddress address;
        try {
            InetAddress bound = InetAddress.getByName(host);
            address = bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve " + host, e);   // the server listened on it
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(address, port), 100);
            } catch (SocketTimeoutException e) {
                continue;   // the accept queue is full: still listening
            } catch (IOException e) {
                return;   // refused, or reset as the socket closed
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        Logger.getLogger("pssrbench").warning(host + ":" + port + " still accepts connections "
                + Durations.format(timeout) + " after the server closed its listening socket");
    }

    /** {@code http://host:port/}, an IPv6 address in brackets (RFC 3986 section 3.2.2): {@code http://[::1]:8080/}. */
    public static String url(String host, int port) {
        return url("http", host, port);
    }

    /** The same with {@code scheme} ({@code https} for a server over TLS). */
    public static String url(String scheme, String host, int port) {
        boolean ipv6 = host.contains(":") && !host.startsWith("[");
        return scheme + "://" + (ipv6 ? "[" + host + "]" : host) + ":" + port + "/";
    }

    /**
     * The one line serve prints on stderr when it listens on {@code host} and {@code host} is not a loopback address
     * (every interface, or one other machines can reach), or null for loopback. The host resolves (see {@link #check}).
     */
    public static String exposure(String host) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;   // refused by check
        }
        if (address.isLoopbackAddress()) {
            return null;
        }
        return "pssrbench: listening on " + (address.isAnyLocalAddress() ? "every interface (" + host + ")"
                : host + (host.equals(address.getHostAddress()) ? "" : " (" + address.getHostAddress() + ")"))
                + ", not loopback: the server is reachable from other machines.";
    }

    /** Whether {@code address} is this machine's: the wildcard, a loopback address or one of its interfaces'. */
    public static boolean isLocal(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
