package modes;

import model.ChunkWriter;
import model.Engine;
import model.Mode;
import model.Page;
import model.Render;
import model.Streaming;
import model.TemplateKind;
import model.Templates;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.disposables.Disposable;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Non-blocking rendering for any engine: the engine renders the page's head at once, one fragment per item when
 * the Observable emits it, and the tail on completion, each through its own way of rendering a part of a template
 * (model.Templates.Fragments). No thread waits for data, whatever the engine.
 */
public final class FragmentsMode implements Mode {

    @Override
    public String id() {
        return "fragments";
    }

    @Override
    public String summary() {
        return "any engine renders the head at once, each item's fragment as it is emitted, the tail at the end;"
                + " no thread waits for data";
    }

    @Override
    public Runs runs() {
        return Runs.CALLBACKS;
    }

    @Override
    public TemplateKind needs() {
        return Templates.FRAGMENTS;   // every engine registers its fragments (model.Templates.add requires them)
    }

    @Override
    public Streaming streaming(Engine engine) {
        return Streaming.PROGRESSIVE;   // a fragment per emitted item: no engine loop reads ahead here
    }

    /**
     * Returns at once: the head is rendered and flushed on subscription, each item's fragment when the item is
     * emitted (on the data source's thread), the tail on completion.
     */
    @Override
    public CompletableFuture<Void> render(Render render) {
        return render(render, render.page());
    }

    private static <T> CompletableFuture<Void> render(Render render, Page<T> page) {
        Templates.Fragments<T> parts = render.templates().fragments(page).start();
        ChunkWriter out = render.out();
        CompletableFuture<Void> done = new CompletableFuture<>();
        render.items(page).subscribe(new Observer<T>() {
            private Disposable subscription;

            @Override
            public void onSubscribe(Disposable d) {
                subscription = d;
                if (render.whenCancelled(d::dispose)) {
                    return;
                }
                step(parts::head);
            }

            @Override
            public void onNext(T item) {
                step(w -> parts.item(item, w));
            }

            @Override
            public void onError(Throwable e) {
                done.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                if (!done.isDone()) {
                    try {
                        parts.tail(out);
                        done.complete(null);
                    } catch (IOException | RuntimeException e) {
                        done.completeExceptionally(e);
                    }
                }
            }

            /** One part, then its chunk; a failure stops the source so that no later part is rendered. */
            private void step(Templates.Part part) {
                if (done.isDone()) {
                    return;
                }
                try {
                    part.render(out);
                    out.flush();
                } catch (IOException | RuntimeException e) {
                    subscription.dispose();
                    done.completeExceptionally(e);
                }
            }
        });
        return done;
    }
}
