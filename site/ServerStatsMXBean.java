package site;

/** What {@link ServerStats} publishes over JMX, as clients see it (an MXBean: open types only). */
public interface ServerStatsMXBean {
    /** Pages being rendered now. */
    int getInFlightPages();

    /** Live virtual threads, or -1 where this JVM does not let us count them (see ServerStats). */
    long getVirtualThreads();

    /**
     * One reading of everything {@code bench} samples, in one call (each JMX call costs the server CPU): live
     * virtual threads (-1: not countable), heap used after the last collection in bytes (-1: none yet), collections
     * so far, and collection time so far in milliseconds.
     */
    long[] getSample();

    /**
     * The median time, in milliseconds, the data source takes to deliver all the items of {@code page} at the
     * server's delay, over {@code samples} runs one after the other: the floor of the page's time to last byte.
     */
    double sourceMedianMillis(String page, int samples);

    /** The data source's subscriptions not yet completed, failed or disposed. */
    int getDataSourceSubscriptions();
}
