package model;

/**
 * A kind of template, as data: what a mode renders with ({@link Mode#needs()}) and what an engine offers for a page
 * ({@link Templates#add(Key, Object)}). An engine supports a mode exactly when it offers the mode's kind for every
 * page, so the valid combinations follow from matching the two and nothing lists them by hand. The kinds every
 * engine has are the model's ({@link Templates#BLOCKING}, {@link Templates#FRAGMENTS}); a mode that renders in a
 * new way declares its own kind and template type in its own file, and the engines that can render that way
 * register a template under it: the model does not change.
 *
 * <p>Kinds are compared by identity: one constant per kind, held by its owner.
 */
public final class TemplateKind {

    private final String name;

    /** A new kind; {@code name} is what messages call it ("htmlflow has no suspendable template for stocks"). */
    public TemplateKind(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * The key of this kind's template for {@code page}. {@code F} is the kind's template type for the page's items:
     * Java cannot say that a kind's templates are one interface applied to each page's item type, so the kind's owner
     * names {@code F} once, in a typed method beside the kind ({@code SuspendableMode.suspendable(page)}), and the
     * engines and the mode go through that method; that is the one place the type is taken on trust.
     */
    public <F> Key<F> of(Page<?> page) {
        return new Key<>(this, page);
    }

    /** A kind's template for one page, typed by the template it stands for ({@link #of}). */
    public record Key<F>(TemplateKind kind, Page<?> page) {
    }
}
