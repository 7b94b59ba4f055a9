package stress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * How {@link FaultServer} reads a connection's requests and answers one it refuses. Each head must come whole within
 * the idle timeout (a real server's sweep closes idle, half-sent and trickling connections), so the connection's
 * bytes are read here, a buffer at a time, each read waiting only until that deadline. A request is checked as a
 * real server checks it, so that only the fault under test fails a scenario (the malformed scenario's cases).
 */
final class FaultHead {

    /** A request's head: its first line and whether it named a Host. */
    record Request(String line, boolean host) {

        /** The request's path, as FaultServer routes it ("/" when the line has none). */
        String path() {
            String[] parts = line.split(" ");
            return parts.length > 1 ? parts[1] : "/";
        }

        /**
         * The status a checking server refuses it with, or 0 to serve it: 400 for a line that is not
         * {@code METHOD PATH HTTP/1.x} or a request without Host, 414 for a line past 8 KB, 405 for a method other
         * than GET, 404 for a path outside the site.
         */
        int status() {
            String[] parts = line.split(" ", -1);
            if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
                return 400;
            } else if (line.length() > 8192) {
                return 414;
            } else if (!host) {
                return 400;
            } else if (!parts[0].equals("GET")) {
                return 405;
            }
            String path = parts[1].toLowerCase(java.util.Locale.ROOT);
            return !path.startsWith("/") || path.contains("..") || path.contains("%2e") ? 404 : 0;
        }

        /** The line, cut for a log. */
        String brief() {
            return line.length() > 80 ? line.substring(0, 80) + "..." : line;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final Duration timeout;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int end;

    /** {@code socket}'s requests, each head within {@code timeout} of its first read; null: no timeout at all. */
    FaultHead(Socket socket, Duration timeout) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.timeout = timeout;
    }

    /** The next request's head, or null when the client closed the connection. */
    Request next() throws IOException {
        long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        String first = line(deadline);
        if (first == null) {
            return null;
        }
        boolean host = false;
        while (true) {   // the rest of the head, whatever it holds, up to its blank line
            String header = line(deadline);
            if (header == null || header.isEmpty()) {
                break;
            }
            host |= header.regionMatches(true, 0, "host:", 0, 5);
        }
        return new Request(first, host);
    }

    /** A line of the head (CR LF or LF ended, ISO-8859-1), or null at the end of the stream. */
    private String line(long deadline) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = read(deadline)) >= 0 && c != '\n') {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return c < 0 && b.isEmpty() ? null : b.toString();
    }

    private int read(long deadline) throws IOException {
        if (pos == end) {
            if (deadline != 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new SocketTimeoutException("no whole head within the idle timeout");
                }
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            }
            end = in.read(buffer);
            pos = 0;
            if (end < 0) {
                end = 0;
                return -1;
            }
        }
        return buffer[pos++] & 0xff;
    }

    /**
     * Answers {@code status} with no body and ends the connection as a real server does: its side closed first, the
     * rest of the request read and dropped for up to a second, so that the client reads the answer before the close
     * (a close with unread bytes would reset the connection, and the answer with it).
     */
    static void refuse(Socket socket, int status) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("HTTP/1.1 " + status + " Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        socket.shutdownOutput();
        socket.setSoTimeout(1000);
        byte[] drop = new byte[8192];
        try {
            while (socket.getInputStream().read(drop) >= 0) {
                // dropped
            }
        } catch (SocketTimeoutException e) {
            // the client keeps its end open: closed now
        }
    }
}
