package stress;

import java.util.concurrent.atomic.AtomicInteger;

/** What the HTTP/2 scenarios keep of a stream ({@link H2Client#get}): how it ended, and a gauge of those open. */
final class H2Stream {

    /**
     * How one stream ended: its status (0: none), the body's length and CRC32C so far, a failure (null: it ended
     * normally, or this client reset it as asked), the times of its headers and end (ns after the request), and
     * whether this client reset it after its first DATA frame.
     */
    record Got(int status, long bodyBytes, long bodyCrc, String failure, long ttfbNanos, long ttlbNanos,
               boolean reset) {

        /** A whole page, 200, equal to the one of {@code length} bytes with CRC32C {@code crc}. */
        boolean page(long length, long crc) {
            return failure == null && !reset && status == 200 && bodyBytes == length && bodyCrc == crc;
        }

        /** What was wrong with it, for a page of {@code length} bytes with CRC32C {@code crc}. */
        String problem(long length, long crc) {
            return failure != null ? failure : reset ? "reset" : status != 200 ? "status " + status
                    : bodyBytes != length || bodyCrc != crc ? "a body other than the page over HTTP/1.1"
                    : "the whole page in its first DATA frame";
        }
    }

    /** Streams sent and not yet ended, over every connection that shares it, and their peak. */
    static final class Gauge {
        private final AtomicInteger open = new AtomicInteger();
        private final AtomicInteger peak = new AtomicInteger();

        void up() {
            peak.accumulateAndGet(open.incrementAndGet(), Math::max);
        }

        void down() {
            open.decrementAndGet();
        }

        int peak() {
            return peak.get();
        }
    }
}
