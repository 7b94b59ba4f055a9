package verify;

/**
 * One check's verdict on one page, as TechEmpower's verifier gives one per check: pass, warn or fail, which check,
 * and what it found (empty when it passed). Callers act on {@link #status()}; the message is for people.
 */
public record Check(Status status, Name name, String message) {

    /** FAIL fails the combination; WARN is said but passes (a timing failure that a second measurement cleared). */
    public enum Status { PASS, WARN, FAIL }

    /**
     * What verify checks. The timing ones are about when bytes arrived: a stall of a busy machine can break them
     * once, so a page whose only failures are timing ones is measured again before they count.
     */
    public enum Name {
        START("the server starts", false),
        FETCH("the page can be fetched", false),
        ENGINES("every engine renders the same bytes, and its fragments add up to its page", false),
        PROTOCOL("the response came back on the protocol asked for (HTTP/1.1 or HTTP/2)", false),
        STATUS("status 200", false),
        CONTENT_TYPE("Content-Type text/html; charset=utf-8", false),
        ENCODING("no compression", false),
        BODY("the same bytes as the engines' rendering", false),
        REFERENCE("equal to the reference page, well-formed HTML", false),
        PROGRESSIVE("progressive arrival", true),
        LOOKAHEAD("items arrive as the declared lookahead says", true),
        AFTER_DATA("a page declared to come after its data does", true),
        CONTENT_LENGTH("a page sent whole has its Content-Length", false),
        CONCURRENCY("identical bodies under concurrency", false);

        private final String description;
        private final boolean timing;

        Name(String description, boolean timing) {
            this.description = description;
            this.timing = timing;
        }

        /** What the check asks for, in a few words. */
        public String description() {
            return description;
        }

        /** Whether it is about when bytes arrived (measured again before it fails). */
        public boolean timing() {
            return timing;
        }
    }

    public static Check pass(Name name) {
        return new Check(Status.PASS, name, "");
    }

    public static Check warn(Name name, String message) {
        return new Check(Status.WARN, name, message);
    }

    public static Check fail(Name name, String message) {
        return new Check(Status.FAIL, name, message);
    }

    /** The more severe of two statuses (FAIL over WARN over PASS). */
    public static Status worst(Status a, Status b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
