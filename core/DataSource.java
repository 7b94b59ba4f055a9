package core;

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
 * included) after {@code delay} on RxJava's computation scheduler, as the published benchmark does.
 */
public final class DataSource {

    private static final Scheduler SCHEDULER = Schedulers.computation();
    private static final AtomicInteger ACTIVE = new AtomicInteger();

    private DataSource() {
    }

    /**
     * @param failAfter fault injection for tests: after this many items the Observable fails instead of
     *                  continuing; negative for never
     */
    public static <T> Observable<T> items(List<T> data, Duration delay, int failAfter) {
        Observable<T> items = Observable.fromIterable(data);
        if (!delay.isZero()) {
            long nanos = delay.toNanos();
            items = items.concatMapSingle(item -> Single.timer(nanos, TimeUnit.NANOSECONDS, SCHEDULER).map(t -> item));
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
