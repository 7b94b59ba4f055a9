package core;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;

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

    private static boolean isLocal(InetAddress address) {
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
