package verify;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One timed GET of a server PssrBench knows nothing of, bounded in time and size: unlike {@link TimedFetch}, which
 * reads PssrBench's own servers, a foreign body may never end, slowly or fast, and must neither hang the check nor
 * fill the heap. Times are nanoseconds since the request was handed to the client.
 *
 * @param status   the status, 0 when no response came
 * @param ended    whether the body ended within the time limit
 * @param tooLong  whether the body passed the size cap (then it was cut off there)
 * @param failure  why the request failed, in a few words, or null
 */
record CappedFetch(int status, byte[] body, boolean ended, boolean tooLong, String failure, List<Long> arrivalNanos,
                   List<Integer> arrivalEnds) {

    static CappedFetch get(HttpClient client, URI uri, Duration limit, long cap) {
        long start = System.nanoTime();
        Collector collector = new Collector(start, cap);
        int[] status = {0};
        CompletableFuture<HttpResponse<Void>> sent;
        try {
            sent = client.sendAsync(HttpRequest.newBuilder(uri).timeout(limit).GET().build(), info -> {
                status[0] = info.statusCode();
                return HttpResponse.BodySubscribers.fromSubscriber(collector);
            });
        } catch (RuntimeException e) {
            return new CappedFetch(0, new byte[0], false, false, TimedFetch.describe(e), List.of(), List.of());
        }
        try {
            long left = limit.toNanos() - (System.nanoTime() - start);
            sent.get(Math.max(left, 1), TimeUnit.NANOSECONDS);   // the headers
            left = limit.toNanos() - (System.nanoTime() - start);
            collector.done.get(Math.max(left, 1), TimeUnit.NANOSECONDS);   // the body, or the cap
        } catch (TimeoutException e) {
            collector.cancel();
            sent.cancel(true);
            return collector.result(status[0], false, null);
        } catch (ExecutionException e) {
            collector.cancel();
            return collector.result(status[0], false, TimedFetch.describe(e.getCause() == null ? e : e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            collector.cancel();
            return collector.result(status[0], false, "interrupted");
        }
        return collector.result(status[0], !collector.tooLong, null);
    }

    /** Time to the first body byte; -1 for an empty body. */
    long ttfbNanos() {
        return arrivalNanos.isEmpty() ? -1 : arrivalNanos.get(0);
    }

    long totalNanos() {
        return arrivalNanos.isEmpty() ? 0 : arrivalNanos.get(arrivalNanos.size() - 1);
    }

    int chunks() {
        return arrivalNanos.size();
    }

    /** When the body byte at {@code offset} arrived. */
    long arrivalOf(int offset) {
        for (int i = 0; i < arrivalEnds.size(); i++) {
            if (arrivalEnds.get(i) > offset) {
                return arrivalNanos.get(i);
            }
        }
        throw new IllegalArgumentException("offset " + offset + " beyond the body");
    }

    private static final class Collector implements Flow.Subscriber<List<ByteBuffer>> {
        private final long start;
        private final long cap;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final List<Long> arrivals = new ArrayList<>();
        private final List<Integer> ends = new ArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private volatile boolean tooLong;

        Collector(long start, long cap) {
            this.start = start;
            this.cap = cap;
        }

        @Override
        public synchronized void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public synchronized void onNext(List<ByteBuffer> buffers) {
            if (tooLong || done.isDone()) {
                return;
            }
            long now = System.nanoTime() - start;
            int before = bytes.size();
            for (ByteBuffer b : buffers) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
            if (bytes.size() == before) {
                return;
            }
            arrivals.add(now);
            ends.add(bytes.size());
            if (bytes.size() > cap) {
                tooLong = true;
                subscription.cancel();
                done.complete(null);
            }
        }

        @Override
        public void onError(Throwable t) {
            done.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }

        synchronized void cancel() {
            if (subscription != null) {
                subscription.cancel();
            }
        }

        synchronized CappedFetch result(int status, boolean ended, String failure) {
            return new CappedFetch(status, bytes.toByteArray(), ended, tooLong, failure, List.copyOf(arrivals),
                    List.copyOf(ends));
        }
    }
}
