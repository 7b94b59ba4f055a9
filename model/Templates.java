package model;

import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;

/**
 * An engine's templates, held by kind and page ({@link TemplateKind}): for every page a blocking render over an
 * Iterable and the page's {@link Fragments}, the two kinds every engine has; and for the pages it can, the kinds
 * the modes declare (a non-blocking render over the Observable, a suspendable one, ...), each kind's template type
 * written beside its mode. Which modes an engine supports follows from what it registers here
 * ({@link #offers}). Registration is typed by the page, so a template always gets its page's item type.
 */
public final class Templates {

    /** The blocking render of every page, over an Iterable: what the blocking modes and the reference bytes use. */
    public static final TemplateKind BLOCKING = new TemplateKind("blocking");

    /** The parts of every page (head, item, tail), each rendered when its data is there. */
    public static final TemplateKind FRAGMENTS = new TemplateKind("fragments");

    /**
     * Renders a page over an Iterable that blocks until the next item arrives (and flushes before it does): an
     * engine must write each item's markup before asking for the next one if it is to be progressive.
     */
    @FunctionalInterface
    public interface Blocking<T> {
        void render(Iterable<T> items, Writer out) throws IOException;
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

    private final String engine;
    private final Map<TemplateKind.Key<?>, Object> byKey = new HashMap<>();

    private Templates(String engine) {
        this.engine = engine;
    }

    /** An empty set of templates for the engine {@code engine} (its id, for error messages). */
    public static Templates of(String engine) {
        return new Templates(engine);
    }

    /** Registers {@code page}'s blocking template and its fragments: what every engine has for every page. */
    public <T> Templates add(Page<T> page, Blocking<T> blocking, Fragments<T> fragments) {
        if (blocking == null || fragments == null) {
            throw new IllegalArgumentException(engine + ": every page needs a blocking template and fragments");
        }
        byKey.put(BLOCKING.of(page), blocking);
        byKey.put(FRAGMENTS.of(page), fragments);
        return this;
    }

    /**
     * Registers a page's template of another kind, one a mode declares ({@code ReactiveMode.nonBlocking(page)}),
     * after {@link #add(Page, Blocking, Fragments)} registered the page.
     */
    public <F> Templates add(TemplateKind.Key<F> key, F template) {
        if (template == null) {
            throw new IllegalArgumentException(engine + ": a null " + key.kind() + " template for " + key.page().id());
        }
        requirePage(key.page());
        byKey.put(key, template);
        return this;
    }

    /** Whether there is a template for every page (the registry's tests check that there is). */
    public boolean coversEveryPage() {
        return offers(BLOCKING);
    }

    /** Whether every page has a template of {@code kind}: whether the engine can render in the modes that need it. */
    public boolean offers(TemplateKind kind) {
        for (Page<?> page : Page.values()) {
            if (!byKey.containsKey(kind.of(page))) {
                return false;
            }
        }
        return true;
    }

    /** The template {@code key} stands for: one of the kind's for the page. */
    @SuppressWarnings("unchecked")   // safe as far as the kind's typed key method is (TemplateKind#of)
    public <F> F get(TemplateKind.Key<F> key) {
        F template = (F) byKey.get(key);   // once per render: one lookup when it is there
        if (template == null) {
            requirePage(key.page());
            throw new UnsupportedOperationException(engine + " has no " + key.kind() + " template for "
                    + key.page().id());
        }
        return template;
    }

    public <T> Blocking<T> blocking(Page<T> page) {
        return get(BLOCKING.<Blocking<T>>of(page));
    }

    public <T> Fragments<T> fragments(Page<T> page) {
        return get(FRAGMENTS.<Fragments<T>>of(page));
    }

    private void requirePage(Page<?> page) {
        if (!byKey.containsKey(BLOCKING.of(page))) {
            throw new IllegalStateException(engine + " has no template for " + page.id());
        }
    }
}
