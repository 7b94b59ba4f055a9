package tables;

/**
 * What {@code browser} times in one page load, each in milliseconds from the navigation's start (the page's own
 * {@code performance.timeOrigin}), in the order of the columns of {@code browser.csv}.
 */
public enum Milestone {
    /** The first byte of the response: the navigation entry's responseStart. */
    TTFB("ttfb", "TTFB"),
    /** First contentful paint: the paint entry the page's Performance API reports. */
    FCP("fcp", "first contentful paint"),
    /** Largest contentful paint: the last candidate the page's PerformanceObserver saw before it was read. */
    LCP("lcp", "largest contentful paint"),
    /** When the first item's element (the page's item selector) was in the DOM. */
    FIRST_ITEM("first_item", "first item in the DOM"),
    /** When the last item's element was in the DOM. */
    LAST_ITEM("last_item", "last item in the DOM"),
    /** DOMContentLoaded: the navigation entry's domContentLoadedEventStart. */
    DCL("dcl", "DOMContentLoaded"),
    /** The load event: the navigation entry's loadEventStart. */
    LOAD("load", "load");

    private final String column;
    private final String label;

    Milestone(String column, String label) {
        this.column = column;
        this.label = label;
    }

    /** The stem of its columns: {@code fcp} gives {@code fcp_ms}, {@code fcp_p50_ms} and so on. */
    public String column() {
        return column;
    }

    /** Its name in charts and tables. */
    public String label() {
        return label;
    }
}
