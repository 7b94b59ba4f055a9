package stress;

import load.ResponseParser;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Blocking loopback sockets for the scenarios that send exact bytes; every read bounded by a timeout. */
final class Raw {

    /**
     * How one response ended: its status (0: none), whether it was complete, the body's length and CRC, and whether
     * it said {@code Connection: close} (then the connection is not to be used again).
     */
    record Response(int status, boolean complete, long bodyBytes, long bodyCrc, String failure, boolean closes) {
        Response(int status, boolean complete, long bodyBytes, long bodyCrc, String failure) {
            this(status, complete, bodyBytes, bodyCrc, failure, false);
        }
    }

    private Raw() {
    }

    static Socket open(int port, int timeoutMillis) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
        s.setSoTimeout(timeoutMillis);
        s.setTcpNoDelay(true);
        return s;
    }

    static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    static String get(String path, int port) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
    }

    /** Reads one response from {@code s}: to its end, or until the connection closes or times out. */
    static Response read(Socket s) {
        return read(s, ByteBuffer.allocate(0));
    }

    /**
     * The same, for pipelined responses: {@code pending} holds bytes read past the previous response's end, and
     * gets the bytes read past this one's.
     */
    static Response read(Socket s, ByteBuffer pending) {
        ResponseParser parser = new ResponseParser(0, true);   // a malformed request may get another version
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = s.getInputStream();
            ByteBuffer next = pending;
            while (true) {
                if (!next.hasRemaining()) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        return new Response(parser.status(), false, parser.bodyBytes(), 0, "closed");
                    }
                    next = ByteBuffer.wrap(buffer, 0, n);
                }
                if (parser.feed(next, System.nanoTime())) {
                    if (next != pending) {   // keep what came after this response for the next read
                        pending.clear();
                        if (pending.capacity() >= next.remaining()) {
                            pending.put(next);
                        }
                        pending.flip();
                    }
                    return new Response(parser.status(), true, parser.bodyBytes(), parser.bodyCrc(), null,
                            parser.closes());
                }
            }
        } catch (SocketTimeoutException e) {
            return new Response(parser.status(), false, parser.bodyBytes(), 0, "timeout");
        } catch (IOException | RuntimeException e) {
            return new Response(parser.status(), false, parser.bodyBytes(), 0, e.getClass().getSimpleName());
        }
    }

    /** One request on a new connection: its response, or a failure. */
    static Response exchange(int port, String request, int timeoutMillis) {
        try (Socket s = open(port, timeoutMillis)) {
            send(s, request);
            return read(s);
        } catch (IOException e) {
            return new Response(0, false, 0, 0, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** A normal page afterwards: 200 and complete. */
    static boolean pageWorks(int port, String path) {
        Response r = exchange(port, get(path, port), 30_000);
        return r.status() == 200 && r.complete();
    }

    /** Waits up to {@code millis} for the server to close {@code s} (EOF or reset): true if it did. */
    static boolean closedWithin(Socket s, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        byte[] buffer = new byte[4096];
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return false;
                }
                s.setSoTimeout((int) left);
                if (s.getInputStream().read(buffer) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;   // reset
        }
    }
}
