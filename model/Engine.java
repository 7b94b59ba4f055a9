package model;


/**
 * A template engine plug-in: one file in engines/ plus one line in cli/Registry.java. It registers its templates
 * per page and kind ({@link #templates()}): the modes it supports are those whose kind it offers for every page
 * ({@link Mode#supports}); every engine renders every page to exactly the same bytes.
 */
public interface Engine {

    /** Stable lower-case id: flag value, file name, CSV column value. */
    String id();

    /**
     * One line for the README: the library and its style; versions as {@code {group:artifact}}, filled in from the
     * build ({@link Versions}).
     */
    String description();

    /** The engine's templates, one per page (built once; engines keep them in a constant). */
    Templates templates();

    /**
     * How the engine's blocking render delivers items over a blocking Iterable (the {@code virtual} and
     * {@code blocking} modes): {@link Streaming#PROGRESSIVE} for an engine that writes each item before asking for
     * the next, {@link Streaming#lookahead(int)} for one whose loop reads ahead, {@link Streaming#AFTER_DATA} for
     * one that collects the whole loop before writing. The tests and {@code verify} measure it.
     */
    default Streaming streaming() {
        return Streaming.PROGRESSIVE;
    }

    /**
     * True for a baseline that renders no template: its throughput is the server's ceiling, against which
     * {@code bench} reports every engine's ({@code ceiling_fraction}).
     */
    default boolean baseline() {
        return false;
    }

    /** The whole page rendered in memory, without delay: the bytes every combination must serve. */
    default String render(Page<?> page) {
        java.io.StringWriter out = new java.io.StringWriter();
        try {
            renderInto(page, out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString();
    }

    private <T> void renderInto(Page<T> page, java.io.Writer out) throws java.io.IOException {
        templates().blocking(page).render(page.items(), out);
    }

    /** The whole page rendered in memory through the engine's fragments: it must equal {@link #render}. */
    default String renderFragments(Page<?> page) {
        java.io.StringWriter out = new java.io.StringWriter();
        try {
            fragmentsInto(page, out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString();
    }

    private <T> void fragmentsInto(Page<T> page, java.io.Writer out) throws java.io.IOException {
        Templates.Fragments<T> parts = templates().fragments(page).start();
        parts.head(out);
        for (T item : page.items()) {
            parts.item(item, out);
        }
        parts.tail(out);
    }
}
