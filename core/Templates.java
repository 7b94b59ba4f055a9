package core;

import io.reactivex.rxjava3.core.Observable;

import java.io.IOException;
import java.io.Writer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * An engine's templates, one per page: a blocking render over an Iterable and the page's {@link Fragments} for
 * every page, and optionally a non-blocking render over the Observable and a suspendable one. Which modes an engine
 * supports follows from what it registers here ({@link #nonBlocking()}, {@link #suspendable()}). Registration is typed by the page, so a template always gets
 * its page's item type.
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

    /**
     * Renders a page as a Kotlin suspend function over the Observable: the head at once, then it suspends where it
     * waits for the next item and resumes when the Observable emits it (no thread waits for data), the tail on
     * completion. It is the suspend function's JVM form, {@code render(items, out, continuation)}: the caller (the
     * mode) starts it in a coroutine of its choosing and passes that coroutine's
     * {@code kotlin.coroutines.Continuation}; the result is the suspend function's ({@code COROUTINE_SUSPENDED} or
     * its value). The continuation is typed Object so that core, the bottom layer, names no Kotlin type: the mode
     * that starts the coroutine and the engine that suspends in it are the only code that does. If the Observable
     * fails, the suspend function throws (the coroutine fails) and the tail is never written; cancelling the
     * coroutine disposes the subscription.
     *
     * <p>It flushes {@code out} when it is a {@link java.io.Flushable} (the mode's {@link ChunkWriter}) where it is
     * about to wait: before it waits for the first item and after each item's markup, in the coroutine. Not the
     * emitting thread: under {@code Dispatchers.Unconfined} an emission need not run the coroutine before it returns
     * (see the suspendable mode), so only the coroutine knows when an item has been written.
     */
    @FunctionalInterface
    public interface Suspendable<T> {
        Object render(Observable<T> items, Appendable out, Object continuation);
    }

    /**
     * The page as parts that the engine renders separately, each at the moment its data is there (the
     * {@code fragments} mode): the head, one item, the tail. Each part comes from the engine's own way of rendering a
     * part of a template (a fragment, partial, block, macro or sub-template), never from cutting a rendered page;
     * head, every item and tail written one after the other are byte for byte the page the blocking template
     * renders (the tests check it for every engine).
     */
    public interface Fragments<T> {
        void head(Writer out) throws IOException;

        void item(T item, Writer out) throws IOException;

        void tail(Writer out) throws IOException;

        /**
         * The fragments for one render: themselves when they keep no state between parts (the usual case), a fresh
         * instance for an engine that does (a document whose open element the items are written into).
         */
        default Fragments<T> start() {
            return this;
        }

        /** Fragments from three functions. */
        static <T> Fragments<T> of(Part head, Item<T> item, Part tail) {
            return new Fragments<>() {
                @Override
                public void head(Writer out) throws IOException {
                    head.render(out);
                }

                @Override
                public void item(T value, Writer out) throws IOException {
                    item.render(value, out);
                }

                @Override
                public void tail(Writer out) throws IOException {
                    tail.render(out);
                }
            };
        }
    }

    /** A part of a page that does not depend on its items (the head, the tail). */
    @FunctionalInterface
    public interface Part {
        void render(Writer out) throws IOException;
    }

    /** The part of a page for one item. */
    @FunctionalInterface
    public interface Item<T> {
        void render(T item, Writer out) throws IOException;
    }

    private record Entry<T>(Blocking<T> blocking, Fragments<T> fragments, NonBlocking<T> nonBlocking,
                            Suspendable<T> suspendable) {
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

    /** Registers {@code page}'s blocking template and its fragments. */
    public <T> Templates add(Page<T> page, Blocking<T> blocking, Fragments<T> fragments) {
        if (blocking == null || fragments == null) {
            throw new IllegalArgumentException(engine + ": every page needs a blocking template and fragments");
        }
        byPage.put(page, new Entry<>(blocking, fragments, null, null));
        return this;
    }

    /** Registers {@code page}'s non-blocking template, after {@link #add} registered the page. */
    public <T> Templates nonBlocking(Page<T> page, NonBlocking<T> nonBlocking) {
        Entry<T> entry = entry(page);
        byPage.put(page, new Entry<>(entry.blocking(), entry.fragments(), nonBlocking, entry.suspendable()));
        return this;
    }

    /** Registers {@code page}'s suspendable template, after {@link #add} registered the page. */
    public <T> Templates suspendable(Page<T> page, Suspendable<T> suspendable) {
        Entry<T> entry = entry(page);
        byPage.put(page, new Entry<>(entry.blocking(), entry.fragments(), entry.nonBlocking(), suspendable));
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

    /** Whether every page also has a suspendable template: what the mode that renders in coroutines needs. */
    public boolean suspendable() {
        for (Page<?> page : Page.values()) {
            Entry<?> entry = byPage.get(page);
            if (entry == null || entry.suspendable() == null) {
                return false;
            }
        }
        return true;
    }

    public <T> Blocking<T> blocking(Page<T> page) {
        return entry(page).blocking();
    }

    public <T> Fragments<T> fragments(Page<T> page) {
        return entry(page).fragments();
    }

    public <T> NonBlocking<T> nonBlocking(Page<T> page) {
        NonBlocking<T> template = entry(page).nonBlocking();
        if (template == null) {
            throw new UnsupportedOperationException(engine + " has no non-blocking template for " + page.id());
        }
        return template;
    }

    public <T> Suspendable<T> suspendable(Page<T> page) {
        Suspendable<T> template = entry(page).suspendable();
        if (template == null) {
            throw new UnsupportedOperationException(engine + " has no suspendable template for " + page.id());
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
