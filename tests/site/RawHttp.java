package site;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A bare HTTP/1.1 client on a socket, to see exactly what went over the wire (and to hang up mid-page). */
public final class RawHttp {

    private RawHttp() {
    }

    private static Socket open(int port, String path) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        return socket;
    }

    /** A request whose response is read in two steps: the first bytes, then the rest. */
    public static final class Exchange implements AutoCloseable {
        private final Socket socket;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();

        public Exchange(int port, String path) throws IOException {
            socket = open(port, path);
        }

        /** Blocks until the first bytes of the response arrived. */
        public String firstBytes() throws IOException {
            byte[] buffer = new byte[8192];
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                throw new IOException("closed before any response");
            }
            received.write(buffer, 0, n);
            return received.toString(StandardCharsets.UTF_8);
        }

        /** Everything received, once the response is complete or the server closed the connection. */
        public String rest() throws IOException {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (!complete(received.toString(StandardCharsets.ISO_8859_1))) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                received.write(buffer, 0, n);
            }
            return received.toString(StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Reads the start of the response, then closes the connection (a user leaving mid-page). */
    public static void hangUpAfterFirstBytes(int port, String path) throws IOException {
        try (Socket socket = open(port, path)) {
            if (socket.getInputStream().read(new byte[512]) < 0) {
                throw new IOException("no response");
            }
        }
    }

    /**
     * Everything the server sent for one response: until a complete chunked or Content-Length body, or until the
     * server closed the connection (as it must when it aborts a page).
     */
    public static String readUntilClosed(int port, String path) throws IOException {
        try (Exchange exchange = new Exchange(port, path)) {
            return exchange.rest();
        }
    }

    /**
     * The status of the response to {@code request}, sent as bytes (ISO-8859-1: a NUL or a backslash goes as it is),
     * or -1 when the server closed the connection without a response.
     */
    public static int status(int port, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            byte[] head = socket.getInputStream().readNBytes(12);
            if (head.length < 12) {
                return -1;
            }
            return Integer.parseInt(new String(head, StandardCharsets.ISO_8859_1).substring(9, 12));
        } catch (java.net.SocketException e) {
            return -1;   // reset
        }
    }

    /** The log records above {@code level} while it is open, as {@code LEVEL logger: message thrown}. */
    public static final class Logged extends java.util.logging.Handler implements AutoCloseable {
        public final List<String> records = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        private final java.util.logging.Level above;
        private final java.util.logging.Logger logger;
        private final boolean parents;

        /** Every logger's records, still printed as well. */
        public Logged(java.util.logging.Level above) {
            this(above, java.util.logging.Logger.getLogger(""));
        }

        private Logged(java.util.logging.Level above, java.util.logging.Logger logger) {
            this.above = above;
            this.logger = logger;
            this.parents = logger.getUseParentHandlers();
            logger.addHandler(this);
        }

        /**
         * PssrBench's own records above {@code level}, kept here instead of printed: for a test that provokes them
         * on purpose and asserts on them, so that a passing run does not read as failing. Other loggers (the
         * servers' libraries) still print, as something the test did not ask for.
         */
        public static Logged quietly(java.util.logging.Level above) {
            Logged logged = new Logged(above, java.util.logging.Logger.getLogger("pssrbench"));
            logged.logger.setUseParentHandlers(false);
            return logged;
        }

        @Override
        public void publish(java.util.logging.LogRecord r) {
            if (r.getLevel().intValue() > above.intValue()) {
                records.add(r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage() + " " + r.getThrown());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setUseParentHandlers(parents);
        }
    }

    private static boolean complete(String response) {
        int headersEnd = response.indexOf("\r\n\r\n");
        if (headersEnd < 0) {
            return false;
        }
        String headers = response.substring(0, headersEnd).toLowerCase(java.util.Locale.ROOT);
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("\r\ncontent-length: *(\\d+)")
                .matcher(headers);
        if (length.find()) {
            return response.length() - headersEnd - 4 >= Integer.parseInt(length.group(1));
        }
        return response.endsWith("\r\n0\r\n\r\n");
    }
}
