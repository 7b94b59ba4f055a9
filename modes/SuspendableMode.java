package modes;

import model.ChunkWriter;
import model.Engine;
import model.Mode;
import model.Page;
import model.Render;
import model.Streaming;
import model.TemplateKind;
import io.reactivex.rxjava3.core.Observable;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.GlobalScope;
import kotlinx.coroutines.future.FutureKt;

import java.util.concurrent.CompletableFuture;

/**
 * The engine's suspendable template (a Kotlin suspend function) renders the page in a coroutine: it suspends where
 * it waits for the next item and resumes when the Observable emits it, so no thread waits for data (the published
 * study's HtmlFlow-Susp).
 *
 * <p>The dispatcher is {@code Dispatchers.Unconfined}, as the study's WebFlux route ({@code /stocks/htmlFlow/
 * suspending}: {@code CoroutineScope(Dispatchers.Unconfined).launch { view.write(sink, flow) }}) and Spring's own
 * coroutine handlers have it: the coroutine starts on the handler's thread and each resumption runs in place on
 * the thread that emits the item (RxJava's), so the mode adds no thread and no hand-off per item, and what it is
 * compared with (reactive: the same items, the engine's callbacks) differs only by the suspendable template.
 * {@code Dispatchers.Default} would hand each item to one of its worker threads (DefaultDispatcher-worker-N, as many
 * as cores), one more hop per item, and would put the socket writes of servers that write blocking from the render's
 * thread onto a pool meant for CPU work; the server's event loop as a dispatcher exists on netty and vertx only.
 * So this mode starts no coroutine thread: kotlinx-coroutines starts its Default workers and its DefaultExecutor
 * only when something dispatches to them or delays, and nothing here does (the tests check that no such thread
 * appears).
 *
 * <p>Unconfined does not promise that an emission runs the coroutine before it returns: a resumption on a thread
 * that is already running an Unconfined coroutine is queued on that thread's event loop and runs once the outer
 * one suspends (kotlinx-coroutines' guard against deep stacks). The subscription to the items runs in such a loop
 * (the Flow's producer, started from the template's first run on the handler's thread), and an item can be
 * emitted inside it: when the first timer fires while that thread still holds RxJava's concatMap drain, concatMap
 * emits the item on that thread. The item is then written after its emission has returned, and the next emissions,
 * on other threads, can find the coroutine still writing there. So the chunks are flushed by the template, in the
 * coroutine, where it is about to wait ({@link Suspendable}), never by the emitting thread. This
 * mode once flushed after each emission ({@code doAfterNext}), which then ran on an RxJava thread while the
 * handler's thread was writing the same {@link ChunkWriter}: one page in 14,287 came out wrong (bench, netty,
 * stocks, 128 connections, {@code --source-scheduler=io}); {@code tests/modes/SuspendableBodiesTest} makes the
 * race likely (items microseconds apart) and must see every page right.
 */
public final class SuspendableMode implements Mode {

    /**
     * Renders a page as a Kotlin suspend function over the Observable: the head at once, then it suspends where it
     * waits for the next item and resumes when the Observable emits it (no thread waits for data), the tail on
     * completion. It is the suspend function's JVM form, {@code render(items, out, continuation)}: this mode starts
     * it in a coroutine and passes that coroutine's continuation; the result is the suspend function's
     * ({@code COROUTINE_SUSPENDED} or its value). If the Observable fails, the suspend function throws (the coroutine
     * fails) and the tail is never written; cancelling the coroutine disposes the subscription.
     *
     * <p>It flushes {@code out} when it is a {@link java.io.Flushable} (the mode's {@link ChunkWriter}) where it is
     * about to wait: before it waits for the first item and after each item's markup, in the coroutine. Not the
     * emitting thread: under {@code Dispatchers.Unconfined} an emission need not run the coroutine before it returns
     * (see above), so only the coroutine knows when an item has been written.
     */
    @FunctionalInterface
    public interface Suspendable<T> {
        Object render(Observable<T> items, Appendable out, Continuation<? super Unit> continuation);
    }

    /** The kind of template this mode renders with; an engine with suspendable views registers one per page. */
    public static final TemplateKind SUSPENDABLE = new TemplateKind("suspendable");

    /** The key of {@code page}'s suspendable template. */
    public static <T> TemplateKind.Key<Suspendable<T>> suspendable(Page<T> page) {
        return SUSPENDABLE.of(page);
    }

    @Override
    public String id() {
        return "suspendable";
    }

    @Override
    public String summary() {
        return "the engine's suspendable template, a Kotlin coroutine on Dispatchers.Unconfined (no coroutine thread:"
                + " no DefaultDispatcher-worker-N), suspends between items and resumes on the data source's RxJava"
                + " threads (RxComputationThreadPool-N, one per core, by default) as each arrives";
    }

    @Override
    public Runs runs() {
        return Runs.COROUTINE;
    }

    @Override
    public TemplateKind needs() {
        return SUSPENDABLE;
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.PROGRESSIVE;   // the template writes each item when its coroutine resumes with it
    }

    /**
     * Returns at once, once the template has suspended for its first item. The template flushes the head before it
     * waits for the first item and each item's markup after writing it, in the coroutine; the render flushes the
     * tail when the coroutine completes. A cancelled render cancels the coroutine, which disposes the
     * subscription; a failed Observable fails it.
     */
    @Override
    public CompletableFuture<Void> render(Render render) {
        return render(render, render.page());
    }

    private static <T> CompletableFuture<Void> render(Render render, Page<T> page) {
        ChunkWriter out = render.out();
        Observable<T> items = render.items(page);
        // GlobalScope: the coroutine's lifetime is the render's, held by the future: the render cancels it
        // (whenCancelled) and waits for it, so no parent scope is needed to keep it from leaking.
        Suspendable<T> template = render.templates().get(suspendable(page));
        CompletableFuture<Unit> coroutine = FutureKt.future(GlobalScope.INSTANCE,
                Dispatchers.getUnconfined(), CoroutineStart.DEFAULT,
                (scope, continuation) -> template.render(items, out, continuation));
        render.whenCancelled(() -> coroutine.cancel(false));   // cancelling the future cancels the coroutine
        return coroutine.thenApply(unit -> null);
    }
}
