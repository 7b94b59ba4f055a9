package servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A client that writes exactly the bytes it is given on a raw socket and reads what comes back, as clients that
 * are not browsers do (HTTP/1.0 tools, scripts that read to EOF): it parses one response at a time and tells
 * whether the server closed the connection after it.
 */
final class Wire implements AutoCloseable {

    /** One response: status line, headers (names lower-cased), the body without its framing. */
    record Response(String statusLine, Map<String, String> headers, byte[] body, boolean chunked) {
        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean eof;

    Wire(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    Wire send(String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        return this;
    }

    /**
     * Reads one response. {@code headOnly}: the request was HEAD, so no body follows whatever the headers say. A
     * response with neither a length nor chunked coding ends when the server closes the connection.
     */
    Response read(boolean headOnly) throws IOException {
        byte[] head = readUntil("\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1)
                    .trim());
        }
        String length = headers.get("content-length");
        boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        if (headOnly || status == 204 || status == 304) {
            return new Response(lines[0], headers, new byte[0], chunked);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            while (true) {
                String size = new String(readUntil("\r\n".getBytes(StandardCharsets.ISO_8859_1)),
                        StandardCharsets.ISO_8859_1).trim();
                int n = Integer.parseInt(size.split(";")[0], 16);
                body.write(readExactly(n + 2), 0, n);
                if (n == 0) {
                    break;
                }
            }
        } else if (length != null) {
            body.write(readExactly(Integer.parseInt(length)));
        } else {   // close-delimited
            byte[] buffer = new byte[8192];
            body.write(pending.toByteArray());
            pending.reset();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                body.write(buffer, 0, n);
            }
            eof = true;
        }
        return new Response(lines[0], headers, body.toByteArray(), chunked);
    }

    /** Whether the server closes the connection within {@code millis} with nothing more sent. */
    boolean closedWithin(int millis) throws IOException {
        if (eof) {
            return pending.size() == 0;
        }
        if (pending.size() > 0) {
            return false;
        }
        socket.setSoTimeout(millis);
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {   // a reset is a close too, as a client sees it
            return true;
        }
    }

    private byte[] readUntil(byte[] end) throws IOException {
        while (indexOf(pending.toByteArray(), end) < 0) {
            fill();
        }
        byte[] all = pending.toByteArray();
        int at = indexOf(all, end);
        pending.reset();
        pending.write(all, at + end.length, all.length - at - end.length);
        return java.util.Arrays.copyOf(all, at);
    }

    private byte[] readExactly(int n) throws IOException {
        while (pending.size() < n) {
            fill();
        }
        byte[] all = pending.toByteArray();
        pending.reset();
        pending.write(all, n, all.length - n);
        return java.util.Arrays.copyOf(all, n);
    }

    private void fill() throws IOException {
        byte[] buffer = new byte[8192];
        int n = in.read(buffer);
        if (n < 0) {
            eof = true;
            throw new IOException("the server closed the connection mid-response");
        }
        pending.write(buffer, 0, n);
    }

    private static int indexOf(byte[] data, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= data.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
