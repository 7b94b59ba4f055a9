package model;

import base.UsageException;

import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-request data source: an RxJava 3 Observable that emits a page's items one at a time, each one (the first
 * included) after {@code delay} on the chosen RxJava scheduler ({@link Timers}).
 */
public final class DataSource {

    /**
     * Where the delays run and the items are emitted (and so where non-blocking renders run). The choice changes
     * the data source's own CPU and memory at high concurrency, so results record it.
     */
    public enum Timers {
        /**
         * RxJava's computation scheduler: one thread per core, each serving many timers. The default: it costs the
         * same whatever the concurrency, so a measurement compares servers and engines, not thread churn.
         */
        COMPUTATION(Schedulers.computation()),
        /**
         * RxJava's io scheduler, as the published study's app has it ({@code delay} on {@code Schedulers.io()}): an
         * unbounded cached pool, one thread per delay in flight. For a comparison with the published figures.
         */
        IO(Schedulers.io());

        public static final String DEFAULT_TEXT = "computation";

        private final Scheduler scheduler;

        Timers(Scheduler scheduler) {
            this.scheduler = scheduler;
        }

        /** Stable lower-case id: flag value, CSV column value. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Timers byId(String id) {
            for (Timers t : values()) {
                if (t.id().equals(id)) {
                    return t;
                }
            }
            throw new UsageException("unknown source scheduler '" + id + "'; valid: computation, io.");
        }
    }

    private static final AtomicInteger ACTIVE = new AtomicInteger();

    private DataSource() {
    }

    /**
     * @param failAfter fault injection for tests: after this many items the Observable fails instead of
     *                  continuing; negative for never
     */
    public static <T> Observable<T> items(List<T> data, Duration delay, Timers timers, int failAfter) {
        Observable<T> items = Observable.fromIterable(data);
        if (!delay.isZero()) {
            long nanos = delay.toNanos();
            Scheduler scheduler = timers.scheduler;
            items = items.concatMapSingle(item -> Single.timer(nanos, TimeUnit.NANOSECONDS, scheduler).map(t -> item));
        }
        if (failAfter >= 0) {   // after the delays, so the failure comes right after the last good item
            items = items.take(failAfter).concatWith(Observable.error(() -> new IllegalStateException(
                    "injected data-source failure after " + failAfter + " items (--fail-after)")));
        }
        return items
                .doOnSubscribe(d -> ACTIVE.incrementAndGet())
                .doFinally(ACTIVE::decrementAndGet);
    }

    /** Subscriptions not yet completed, failed or disposed; back to zero when no page is in flight. */
    public static int activeSubscriptions() {
        return ACTIVE.get();
    }
}
