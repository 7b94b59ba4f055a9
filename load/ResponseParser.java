package load;

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
 *
 * <p>It can also keep the current response's bytes as received ({@link #ResponseParser(long, boolean, int)}), so that
 * a wrong one can be written out whole ({@link WrongResponses}); {@link #decode} gives such a response's body.
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
    /** The most bytes of one response kept ({@link #kept()}); 0: none. */
    private final int keepLimit;
    private byte[] kept;
    private int keptLength;
    private boolean keptWhole = true;
    /** Only for {@link #decode}: where the body goes; null otherwise. */
    private java.io.ByteArrayOutputStream decoded;

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
        this(markOffset, anyVersion, 0);
    }

    /**
     * {@code keepLimit}: keep up to this many bytes of each response as received (status line, headers, the body
     * with its chunk framing), for {@link #kept()}; beyond it the response is parsed as usual but no longer kept.
     */
    public ResponseParser(long markOffset, boolean anyVersion, int keepLimit) {
        this.markOffset = markOffset;
        this.anyVersion = anyVersion;
        this.keepLimit = keepLimit;
    }

    /**
     * The body of a response kept whole (as {@link #kept()} gives it): its Content-Length body, or its chunks'
     * data without their framing; as much of it as there is when the response is cut or malformed.
     */
    public static byte[] decode(byte[] response) {
        ResponseParser p = new ResponseParser(0, true);
        p.decoded = new java.io.ByteArrayOutputStream(response.length);
        try {
            p.feed(ByteBuffer.wrap(response), 0);
        } catch (IllegalStateException e) {
            // a malformed response: its body up to where it went wrong
        }
        return p.decoded.toByteArray();
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
        keptLength = 0;
        keptWhole = true;
    }

    /**
     * Consumes bytes of the current response from {@code in}, up to its end.
     *
     * @return true when the response is complete; bytes after its end stay in {@code in}
     * @throws IllegalStateException when the bytes are not a response this parser understands
     */
    public boolean feed(ByteBuffer in, long nowNanos) {
        int from = in.position();
        try {
            while (in.hasRemaining() && state != State.DONE) {
                switch (state) {
                    case STATUS_LINE, HEADERS, CHUNK_SIZE, CHUNK_DATA_END, TRAILERS -> {
                        if (readLine(in)) {
                            String text = line.toString();
                            try {
                                onLine(text);
                            } catch (NumberFormatException e) {   // a caller handles malformed bytes as one kind
                                throw new IllegalStateException("a malformed number in '" + text + "'", e);
                            }
                            line.setLength(0);
                        }
                    }
                    case FIXED_BODY, CHUNK_DATA -> body(in, nowNanos);
                    default -> throw new AssertionError(state);
                }
            }
        } finally {   // also when the bytes were malformed: they are what a kept response must show
            if (keepLimit > 0) {
                keep(in, from);
            }
        }
        return state == State.DONE;
    }

    /**
     * Keeps the bytes this feed consumed, {@code in}'s from {@code from} to its position: one bulk copy of bytes
     * that were just read (and that the CRC has just read too), into a per-connection array that grows to the size
     * of a response once and is then reused; about a page's size (here under 10 kB) per response, next to the
     * system calls that received it, so it is not measurable in the load generator's CPU per request.
     */
    private void keep(ByteBuffer in, int from) {
        int n = Math.min(in.position() - from, keepLimit - keptLength);
        if (n < in.position() - from) {
            keptWhole = false;
        }
        if (n <= 0) {
            return;
        }
        if (kept == null || kept.length < keptLength + n) {
            int size = Math.min(keepLimit, Math.max(keptLength + n, kept == null ? 4096 : kept.length * 2));
            kept = kept == null ? new byte[size] : java.util.Arrays.copyOf(kept, size);
        }
        in.get(from, kept, keptLength, n);
        keptLength += n;
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
        if (decoded != null) {
            decoded.write(slice.array(), slice.arrayOffset(), n);
        }
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

    /**
     * The current response's bytes as received so far (status line, headers, body with its chunk framing), a copy;
     * empty when this parser keeps none. Up to the keep limit: see {@link #keptWhole()}.
     */
    public byte[] kept() {
        return kept == null ? new byte[0] : java.util.Arrays.copyOf(kept, keptLength);
    }

    /** Whether {@link #kept()} holds every byte of the response received so far (false: cut at the keep limit). */
    public boolean keptWhole() {
        return keptWhole;
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
