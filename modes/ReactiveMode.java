package modes;

import model.ChunkWriter;
import model.Engine;
import model.Mode;
import model.Page;
import model.Render;
import model.Streaming;
import model.TemplateKind;
import io.reactivex.rxjava3.core.Observable;

import java.util.concurrent.CompletableFuture;

/** The engine's non-blocking API renders each item as the Observable emits it, on RxJava's threads. */
public final class ReactiveMode implements Mode {

    /**
     * Renders a page without blocking: the head at once, each item's markup when the Observable emits it, the tail
     * on completion, then completes the future. If the Observable fails, the future completes exceptionally and the
     * tail is never written.
     */
    @FunctionalInterface
    public interface NonBlocking<T> {
        CompletableFuture<Void> render(Observable<T> items, Appendable out);
    }

    /** The kind of template this mode renders with; an engine that has such an API registers one per page. */
    public static final TemplateKind NON_BLOCKING = new TemplateKind("non-blocking");

    /** The key of {@code page}'s non-blocking template. */
    public static <T> TemplateKind.Key<NonBlocking<T>> nonBlocking(Page<T> page) {
        return NON_BLOCKING.of(page);
    }

    @Override
    public String id() {
        return "reactive";
    }

    @Override
    public String summary() {
        return "the engine's async API renders each item as the Observable emits it; no thread waits for data";
    }

    @Override
    public Runs runs() {
        return Runs.CALLBACKS;
    }

    @Override
    public TemplateKind needs() {
        return NON_BLOCKING;
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.PROGRESSIVE;   // the engine renders each item when it is emitted
    }

    /**
     * Returns at once: the head is flushed when the engine subscribes to the items, each item's markup after the
     * engine has rendered it, the tail when the engine completes.
     */
    @Override
    public CompletableFuture<Void> render(Render render) {
        return render(render, render.page());
    }

    private static <T> CompletableFuture<Void> render(Render render, Page<T> page) {
        ChunkWriter out = render.out();
        Observable<T> items = render.items(page)
                .doOnSubscribe(subscription -> {
                    render.whenCancelled(subscription::dispose);
                    out.flush();
                })
                .doAfterNext(item -> out.flush());
        return render.templates().get(nonBlocking(page)).render(items, out);
    }
}
