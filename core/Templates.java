package core;

import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.io.Writer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * An engine's templates, one per page: a blocking render over an Iterable for every page, and optionally a
 * non-blocking one over the Observable. Which modes an engine supports follows from what it registers here
 * ({@link #nonBlocking()}). Registration is typed by the page, so a template always gets its page's item type.
 */
public final class Templates {

    /**
     * Renders a page over an Iterable that blocks until the next item arrives (and flushes before it does): an
     * engine must write each item's markup before asking for the next one if it is to be progressive.
     */
    @FunctionalInterface
    public interface Blocking<T> {
        void render(Iterable<T> items, Writer out) throws IOException;
    }

    /**
     * Renders a page without blocking: the head at once, each item's markup when the Observable emits it, the tail
     * on completion, then completes the future. If the Observable fails, the future completes exceptionally and the
     * tail is never written.
     */
    @FunctionalInterface
    public interface NonBlocking<T> {
        CompletableFuture<Void> render(Observable<T> items, Appendable out);
    }

    private record Entry<T>(Blocking<T> blocking, NonBlocking<T> nonBlocking) {
    }

    private final String engine;
    private final Map<Page<?>, Entry<?>> byPage = new IdentityHashMap<>();

    private Templates(String engine) {
        this.engine = engine;
    }

    /** An empty set of templates for the engine {@code engine} (its id, for error messages). */
    public static Templates of(String engine) {
        return new Templates(engine);
    }

    /** Registers {@code page}'s blocking template. */
    public <T> Templates add(Page<T> page, Blocking<T> blocking) {
        return add(page, blocking, null);
    }

    /** Registers {@code page}'s blocking and non-blocking templates. */
    public <T> Templates add(Page<T> page, Blocking<T> blocking, NonBlocking<T> nonBlocking) {
        byPage.put(page, new Entry<>(blocking, nonBlocking));
        return this;
    }

    /** Whether there is a template for every page (the registry's tests check that there is). */
    public boolean coversEveryPage() {
        for (Page<?> page : Page.values()) {
            if (!byPage.containsKey(page)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every page also has a non-blocking template: what the modes that render on callbacks need. */
    public boolean nonBlocking() {
        for (Page<?> page : Page.values()) {
            Entry<?> entry = byPage.get(page);
            if (entry == null || entry.nonBlocking() == null) {
                return false;
            }
        }
        return true;
    }

    public <T> Blocking<T> blocking(Page<T> page) {
        return entry(page).blocking();
    }

    public <T> NonBlocking<T> nonBlocking(Page<T> page) {
        NonBlocking<T> template = entry(page).nonBlocking();
        if (template == null) {
            throw new UnsupportedOperationException(engine + " has no non-blocking template for " + page.id());
        }
        return template;
    }

    @SuppressWarnings("unchecked")   // safe: add() stores an Entry<T> under a Page<T> only
    private <T> Entry<T> entry(Page<T> page) {
        Entry<T> entry = (Entry<T>) byPage.get(page);
        if (entry == null) {
            throw new IllegalStateException(engine + " has no template for " + page.id());
        }
        return entry;
    }
}
