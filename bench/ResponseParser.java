package bench;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * An incremental HTTP/1.1 response parser for the load generator: it is fed the bytes of one connection as they
 * arrive and records, for the current response, the status, when the first body byte and a chosen body offset
 * arrived, how many chunks the body came in, its length and a CRC32C of it (so that every body can be checked
 * against the verified page without keeping it).
 *
 * <p>Hand-written rather than a client library's because the measurements need the arrival time of individual
 * body bytes and the chunk framing, which HTTP client libraries hide; it supports exactly what the servers send:
 * Content-Length and chunked bodies (chunk extensions and trailers skipped), no 1xx, no close-delimited bodies.
 */
public final class ResponseParser {

    private enum State { STATUS_LINE, HEADERS, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS, DONE }

    private final StringBuilder line = new StringBuilder(64);
    private final CRC32C crc = new CRC32C();
    private final long markOffset;
    private State state = State.STATUS_LINE;
    private int status;
    private long contentLength = -1;
    private boolean chunked;
    private boolean closes;
    private long remaining;
    private long bodyBytes;
    private int chunks;
    private long firstBodyByteNanos = -1;
    private long markNanos = -1;
    private final boolean anyVersion;

    /** @param markOffset the body offset whose arrival time {@link #markNanos()} reports (e.g. the first item's end) */
    public ResponseParser(long markOffset) {
        this(markOffset, false);
    }

    /**
     * {@code anyVersion}: accept any {@code HTTP/x.y} status line. The load generator does not (a server that
     * answers its HTTP/1.1 requests otherwise is broken); a client sending malformed requests does, since a server
     * that could not read the request's version may answer with another one (Vert.x: {@code HTTP/1.0 400}).
     */
    public ResponseParser(long markOffset, boolean anyVersion) {
        this.markOffset = markOffset;
        this.anyVersion = anyVersion;
    }

    /** Starts the next response on the same connection. */
    public void reset() {
        line.setLength(0);
        crc.reset();
        state = State.STATUS_LINE;
        status = 0;
        contentLength = -1;
        chunked = false;
        closes = false;
        remaining = 0;
        bodyBytes = 0;
        chunks = 0;
        firstBodyByteNanos = -1;
        markNanos = -1;
    }

    /**
     * Consumes bytes of the current response from {@code in}, up to its end.
     *
     * @return true when the response is complete; bytes after its end stay in {@code in}
     * @throws IllegalStateException when the bytes are not a response this parser understands
     */
    public boolean feed(ByteBuffer in, long nowNanos) {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case STATUS_LINE, HEADERS, CHUNK_SIZE, CHUNK_DATA_END, TRAILERS -> {
                    if (readLine(in)) {
                        onLine(line.toString());
                        line.setLength(0);
                    }
                }
                case FIXED_BODY, CHUNK_DATA -> body(in, nowNanos);
                default -> throw new AssertionError(state);
            }
        }
        return state == State.DONE;
    }

    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return true;
            }
            if (line.length() > 8192) {
                throw new IllegalStateException("a header line longer than 8 KiB");
            }
            line.append((char) (b & 0xff));
        }
        return false;
    }

    private void onLine(String text) {
        switch (state) {
            case STATUS_LINE -> {
                boolean version = anyVersion ? text.matches("HTTP/\\d\\.\\d .*") : text.startsWith("HTTP/1.1 ");
                if (!version || text.length() < 12) {
                    throw new IllegalStateException("not an HTTP/1.1 status line: '" + text + "'");
                }
                status = Integer.parseInt(text.substring(9, 12));
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (!text.isEmpty()) {
                    header(text);
                } else if (chunked) {
                    state = State.CHUNK_SIZE;
                } else if (contentLength > 0) {
                    remaining = contentLength;
                    state = State.FIXED_BODY;
                } else if (contentLength == 0) {
                    state = State.DONE;
                } else {
                    throw new IllegalStateException("a response with neither Content-Length nor chunked coding");
                }
            }
            case CHUNK_SIZE -> {
                int extension = text.indexOf(';');
                long size = Long.parseLong((extension < 0 ? text : text.substring(0, extension)).trim(), 16);
                if (size == 0) {
                    state = State.TRAILERS;
                } else {
                    remaining = size;
                    chunks++;
                    state = State.CHUNK_DATA;
                }
            }
            case CHUNK_DATA_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalStateException("chunk data longer than its size");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (text.isEmpty()) {
                    state = State.DONE;
                }
            }
            default -> throw new AssertionError(state);
        }
    }

    private void header(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException("a malformed header line: '" + text + "'");
        }
        String name = text.substring(0, colon).trim();
        String value = text.substring(colon + 1).trim();
        if (name.equalsIgnoreCase("content-length")) {
            contentLength = Long.parseLong(value);
        } else if (name.equalsIgnoreCase("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
            chunked = true;
        } else if (name.equalsIgnoreCase("connection")) {
            for (String token : value.split(",")) {
                closes |= token.trim().equalsIgnoreCase("close");
            }
        }
    }

    private void body(ByteBuffer in, long nowNanos) {
        int n = (int) Math.min(remaining, in.remaining());
        if (n == 0) {
            return;
        }
        if (bodyBytes == 0) {
            firstBodyByteNanos = nowNanos;
        }
        ByteBuffer slice = in.slice(in.position(), n);
        crc.update(slice);
        in.position(in.position() + n);
        bodyBytes += n;
        remaining -= n;
        if (markNanos < 0 && bodyBytes >= markOffset) {
            markNanos = nowNanos;
        }
        if (remaining == 0) {
            state = state == State.CHUNK_DATA ? State.CHUNK_DATA_END : State.DONE;
            if (state == State.DONE) {
                chunks = 1;   // a Content-Length body
            }
        }
    }

    public int status() {
        return status;
    }

    /**
     * Whether the response said {@code Connection: close}: the server closes the connection after it, so a client
     * must not send another request on it (RFC 9112, 9.6).
     */
    public boolean closes() {
        return closes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    /** HTTP chunks of a chunked body; 1 for a Content-Length body. */
    public int chunks() {
        return chunks;
    }

    public long bodyCrc() {
        return crc.getValue();
    }

    /** When the first body byte arrived (the {@code nowNanos} of that feed), or -1. */
    public long firstBodyByteNanos() {
        return firstBodyByteNanos;
    }

    /** When the body reached the mark offset, or -1. */
    public long markNanos() {
        return markNanos;
    }
}
