package bench;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A stream slot of an {@link H2Connection}: one request in flight at a time, the state of its stream (status, body
 * length and CRC32C, when its first byte and its first item arrived), and in the open loop its own schedule, as
 * {@link LoadWorker}'s connections have theirs. Touched by its connection's event loop only.
 */
final class H2Slot {
    final CRC32C crc = new CRC32C();
    final double period;
    /** The body offset whose arrival is the first item's (the end of its markup). */
    final long markOffset;
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

    H2Slot(long firstIntended, double period, long markOffset) {
        this.period = period;
        this.markOffset = markOffset;
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
    }

    /** A DATA frame's payload: timed, counted and added to the CRC without a copy. */
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
        bodyBytes += n;
        frames++;
        if (markNanos < 0 && bodyBytes >= markOffset) {
            markNanos = now;
        }
    }

    void advanceSchedule() {
        scheduled += period;
        nextIntended = (long) scheduled;
    }
}
