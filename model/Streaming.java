package model;

/**
 * How a render delivers a page's items, as data: what {@code verify} checks and the README reports. Users choose
 * an engine for exactly this fact, so it is declared per engine (over a blocking Iterable) and per mode, measured
 * by the tests, and never rounded up: an engine that reads ahead or holds the page back says so.
 *
 * @param lookahead how many items the render reads ahead of the markup it writes: 0 when each item's markup goes
 *                  out before the next item is asked for, 1 when it goes out only once the next item has arrived
 *                  (a loop that calls {@code hasNext()} before rendering the current item, for "last" flags)
 * @param afterData nothing of the page is sent before the data has ended (the engine collects the whole loop, or
 *                  the mode renders the page to memory): not progressive at all
 */
public record Streaming(int lookahead, boolean afterData) {

    /** Each item's markup goes out as soon as the item exists. */
    public static final Streaming PROGRESSIVE = new Streaming(0, false);

    /** The whole page arrives after the last item: what classic server-side rendering gives. */
    public static final Streaming AFTER_DATA = new Streaming(0, true);

    public Streaming {
        if (lookahead < 0) {
            throw new IllegalArgumentException("lookahead must not be negative: " + lookahead);
        }
        if (afterData && lookahead != 0) {
            throw new IllegalArgumentException("a page sent after its data has no lookahead");
        }
    }

    /** Each item's markup goes out {@code items} items late. */
    public static Streaming lookahead(int items) {
        return new Streaming(items, false);
    }

    /** Whether the head and items arrive while the data is still coming. */
    public boolean progressive() {
        return !afterData;
    }

    /** A short cell for tables: "yes", "1 item late", "no: after the last item". */
    public String describe() {
        if (afterData) {
            return "no: after the last item";
        }
        return lookahead == 0 ? "yes" : lookahead + (lookahead == 1 ? " item late" : " items late");
    }
}
