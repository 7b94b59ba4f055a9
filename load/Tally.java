package load;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * The counts and histograms (microseconds) of one thread of the load generator, over either protocol: an HTTP/1.1
 * {@link LoadWorker}'s or an HTTP/2 event loop's ({@link H2Connection}). Touched by that thread only, and added up
 * when the run ends ({@link #sum}), after the threads have ended (which orders their writes before the reads).
 * {@code chunks}: HTTP/1.1 chunks, or HTTP/2 DATA frames with payload; {@code serverCloses}: connections the server
 * closed after a complete response, or ended with GOAWAY, warm-up included (reopened, not errors).
 */
final class Tally {

    /** A finished response as the generator holds it: its HTTP/1.1 parser, or its HTTP/2 stream slot. */
    interface Response {
        int status();

        long bodyBytes();

        long bodyCrc();

        long chunks();

        long firstBodyByteNanos();

        long markNanos();

        /** A copy for {@link WrongResponses}, made only for a response that is kept. */
        WrongResponses.Kept keep(String why);
    }

    /** The longest time a histogram holds; longer ones are recorded as this. */
    static final long HIGHEST_MICROS = java.util.concurrent.TimeUnit.MINUTES.toMicros(5);

    final Histogram ttfb = histogram();
    final Histogram firstItem = histogram();
    final Histogram ttlb = histogram();
    long requests, non2xx, wrongBodies, ioErrors, timeouts, chunks, cpuNanos, serverCloses;

    /**
     * A response of the measured window that ended at {@code now}, asked at {@code intended}: counted, a wrong one
     * (not 2xx, or not the page of {@code bodyLength} bytes and CRC32C {@code bodyCrc}) offered to {@code wrong},
     * a right one timed.
     */
    void response(Response r, long intended, long now, long bodyLength, long bodyCrc, WrongResponses wrong) {
        requests++;
        if (r.status() / 100 != 2) {
            non2xx++;
            wrong.offer("status " + r.status(), r::keep);
            return;
        }
        if (r.bodyBytes() != bodyLength || r.bodyCrc() != bodyCrc) {
            wrongBodies++;
            wrong.offer("wrong body", r::keep);
            return;
        }
        chunks += r.chunks();
        ttfb.recordValue(micros(r.firstBodyByteNanos() - intended));
        firstItem.recordValue(micros(r.markNanos() - intended));
        ttlb.recordValue(micros(now - intended));
    }

    static long micros(long nanos) {
        return Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000));
    }

    static Histogram histogram() {
        return new Histogram(HIGHEST_MICROS, 3);
    }

    /** The threads' tallies added up. */
    static Tally sum(List<Tally> tallies) {
        Tally all = new Tally();
        for (Tally t : tallies) {
            all.ttfb.add(t.ttfb);
            all.firstItem.add(t.firstItem);
            all.ttlb.add(t.ttlb);
            all.requests += t.requests;
            all.non2xx += t.non2xx;
            all.wrongBodies += t.wrongBodies;
            all.ioErrors += t.ioErrors;
            all.timeouts += t.timeouts;
            all.chunks += t.chunks;
            all.cpuNanos += t.cpuNanos;
            all.serverCloses += t.serverCloses;
        }
        return all;
    }
}
