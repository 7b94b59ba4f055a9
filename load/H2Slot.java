package load;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A stream slot of an {@link H2Connection}: one request in flight at a time, the state of its stream (status, body
 * length and CRC32C, when its first byte and its first item arrived), and in the open loop its own schedule, as
 * {@link LoadWorker}'s connections have theirs. It also keeps its response as received (the header block HPACK
 * decoded, the body up to {@link WrongResponses#keepLimit}), so that a wrong one can be kept
 * ({@link #keep(String)}), as {@link ResponseParser} keeps an HTTP/1.1 response. Touched by its connection's event
 * loop only.
 */
final class H2Slot implements Tally.Response {
    final CRC32C crc = new CRC32C();
    final double period;
    /** The body offset whose arrival is the first item's (the end of its markup). */
    final long markOffset;
    /** The most body bytes kept of a response ({@link WrongResponses#keepLimit}); 0: none. */
    private final int keepLimit;
    private double scheduled;
    long nextIntended;
    boolean inFlight;
    int streamId;
    long intended;
    int status;
    long bodyBytes;
    long frames;
    long firstByteNanos;
    long markNanos;
    /** The response's (final) header fields as decoded, null until they arrive: the decoder's own object, no copy. */
    Http2Headers headers;
    /** The body as received, up to the keep limit: an array that grows to a page's size once and is then reused. */
    private byte[] body;
    private int keptLength;
    private boolean keptWhole;

    H2Slot(long firstIntended, double period, long markOffset, int keepLimit) {
        this.period = period;
        this.markOffset = markOffset;
        this.keepLimit = keepLimit;
        this.scheduled = firstIntended;
        this.nextIntended = firstIntended;
    }

    void begin(long intended) {
        this.intended = intended;
        inFlight = true;
        crc.reset();
        status = -1;
        bodyBytes = 0;
        frames = 0;
        firstByteNanos = -1;
        markNanos = -1;
        headers = null;
        keptLength = 0;
        keptWhole = true;
    }

    /** A DATA frame's payload: timed, counted, added to the CRC without a copy, and kept. */
    void data(ByteBuf data, long now) {
        int n = data.readableBytes();
        if (n == 0) {
            return;
        }
        if (bodyBytes == 0) {
            firstByteNanos = now;
        }
        if (data.nioBufferCount() == 1) {
            crc.update(data.internalNioBuffer(data.readerIndex(), n));   // Netty's view: no allocation here
        } else {
            for (ByteBuffer b : data.nioBuffers(data.readerIndex(), n)) {
                crc.update(b);
            }
        }
        if (keepLimit > 0) {
            keep(data, n);
        }
        bodyBytes += n;
        frames++;
        if (markNanos < 0 && bodyBytes >= markOffset) {
            markNanos = now;
        }
    }

    /**
     * Copies the payload after what is kept, up to the keep limit: one bulk copy of bytes just read, as
     * {@link ResponseParser} keeps an HTTP/1.1 response's (not measurable beside the reads that brought them).
     */
    private void keep(ByteBuf data, int n) {
        int m = Math.min(n, keepLimit - keptLength);
        if (m < n) {
            keptWhole = false;
        }
        if (m <= 0) {
            return;
        }
        if (body == null || body.length < keptLength + m) {
            int size = Math.min(keepLimit, Math.max(keptLength + m, body == null ? 4096 : body.length * 2));
            body = body == null ? new byte[size] : Arrays.copyOf(body, size);
        }
        data.getBytes(data.readerIndex(), body, keptLength, m);
        keptLength += m;
    }

    /**
     * The response so far as {@link WrongResponses} keeps it: its header fields one a line as {@code name: value}
     * (pseudo-headers first, as the decoder holds them: {@code :status: 500}), a blank line, then the DATA frames'
     * payloads one after another. Made only for a response that is kept.
     */
    @Override
    public WrongResponses.Kept keep(String why) {
        StringBuilder head = new StringBuilder();
        if (headers != null) {
            for (Map.Entry<CharSequence, CharSequence> h : headers) {
                head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
            }
        }
        head.append("\r\n");
        // HPACK carries octets, which Netty's AsciiString holds one a char: ISO-8859-1 gives each back as it came.
        byte[] top = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(top, top.length + keptLength);
        if (keptLength > 0) {
            System.arraycopy(body, 0, all, top.length, keptLength);
        }
        return new WrongResponses.Kept(why, all, keptWhole, top.length);
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public long bodyBytes() {
        return bodyBytes;
    }

    @Override
    public long bodyCrc() {
        return crc.getValue();
    }

    @Override
    public long chunks() {
        return frames;
    }

    @Override
    public long firstBodyByteNanos() {
        return firstByteNanos;
    }

    @Override
    public long markNanos() {
        return markNanos;
    }

    /**
     * The slots of the connection at {@code index} among all: in the open loop every slot of every connection spread
     * evenly over one period, as wrk2 spreads its connections.
     */
    static H2Slot[] of(H2Job plan, int index, long start) {
        H2Slot[] slots = new H2Slot[plan.streams()];
        double period = plan.openLoop() ? plan.slots() * 1e9 / plan.rate() : 0;
        for (int k = 0; k < slots.length; k++) {
            long offset = plan.openLoop() ? (long) (period * (index * (long) slots.length + k) / plan.slots()) : 0;
            slots[k] = new H2Slot(start + offset, period, plan.firstItemEnd(),
                    WrongResponses.keepLimit(plan.bodyLength()));
        }
        return slots;
    }

    /** The stream ended at {@code now}: counted and recorded as {@link LoadWorker} records a response. */
    void end(long now, Tally tally, H2Job plan, LoadWorker.Window window) {
        inFlight = false;
        window.completed.increment();
        boolean measured = intended >= window.measureFrom && now <= window.end;
        advanceSchedule();
        if (measured) {
            tally.response(this, intended, now, plan.bodyLength(), plan.bodyCrc(), window.wrong);
        }
    }

    /**
     * The stream failed: an i/o error in the measured window, unless the run is over and closed it ({@code runOver}:
     * what was in flight then was not measured, nothing failed); the response so far kept as wrong when {@code why}
     * is not null.
     */
    void failed(String why, boolean runOver, Tally tally, LoadWorker.Window window) {
        inFlight = false;
        if (!runOver && intended >= window.measureFrom && intended < window.end) {
            tally.ioErrors++;
            if (why != null) {
                window.wrong.offer(why, this::keep);
            }
        }
        advanceSchedule();
    }

    /** Whether the stream in flight is past the timeout at {@code now}: then counted, given up, to be reset. */
    boolean timedOut(long now, Tally tally, H2Job plan, LoadWorker.Window window) {
        if (!inFlight || now - intended <= plan.timeout().toNanos()) {
            return false;
        }
        if (intended >= window.measureFrom) {
            tally.timeouts++;
            window.wrong.offer("no end after " + plan.timeout().toSeconds() + " s", this::keep);
        }
        inFlight = false;
        advanceSchedule();
        return true;
    }

    void advanceSchedule() {
        scheduled += period;
        nextIntended = (long) scheduled;
    }
}
