package model;

/**
 * One row of the Stocks page, as in stocks.json ({@code name2} is unused by the page). The derived accessors
 * keep the presentation logic identical in every engine, including logic-less ones such as Mustache.
 */
public record Stock(int index, String name, String name2, String url, String symbol,
                    double price, double change, double ratio) {

    /** Rows alternate {@code odd}/{@code even} by index, starting with {@code odd} at index 1. */
    public String rowClass() {
        return index % 2 == 1 ? "odd" : "even";
    }

    public boolean changeNegative() {
        return change < 0;
    }

    public boolean ratioNegative() {
        return ratio < 0;
    }
}
