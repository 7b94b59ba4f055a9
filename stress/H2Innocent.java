package stress;

import io.netty.channel.EventLoopGroup;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The innocent client beside an HTTP/2 attack: {@link #CONNECTIONS} connections of the scenarios' well-formed client
 * ({@link H2Client}), each fetching /stocks one page after another, each page compared with the page over HTTP/1.1.
 * A connection the server closed is opened again (its page counted failed). Its figures come in windows: the pages
 * that ended in one, those that failed (with why), and their TTLB p99.
 */
final class H2Innocent implements AutoCloseable {

    /** A few connections, as a handful of users beside the attacker: enough for a p99, little of the CPU. */
    static final int CONNECTIONS = 4;
    /** A page not finished within this counts failed: pages of /stocks take some 30 ms here. */
    static final int TIMEOUT_SECONDS = 10;

    /** One window: pages whole, pages failed (by why), and the whole ones' TTLB p99 in ms (0 for none). */
    record Window(long pages, long failed, double p99Ms, Map<String, Integer> failures) {
    }

    private final EventLoopGroup group;
    private final H2Endpoint endpoint;
    private final Raw.Response page;
    private final List<Thread> loops = new ArrayList<>();
    private final List<H2Client> clients = new ArrayList<>();
    private Histogram ttlb = new Histogram(3);
    private long failed;
    private Map<String, Integer> failures = new TreeMap<>();
    private volatile boolean stopped;

    private H2Innocent(EventLoopGroup group, H2Endpoint endpoint, Raw.Response page) {
        this.group = group;
        this.endpoint = endpoint;
        this.page = page;
    }

    /** The innocent client, fetching from now on. */
    static H2Innocent start(EventLoopGroup group, H2Endpoint endpoint, Raw.Response page) {
        H2Innocent innocent = new H2Innocent(group, endpoint, page);
        for (int i = 0; i < CONNECTIONS; i++) {
            innocent.loops.add(Thread.ofPlatform().daemon(true).name("h2-innocent-" + i).start(innocent::fetch));
        }
        return innocent;
    }

    private void fetch() {
        H2Client client = null;
        while (!stopped) {
            try {
                if (client == null || client.lost()) {
                    if (client != null) {
                        client.close();
                    }
                    client = open();
                }
                H2Stream.Got g = client.fetch("/stocks", TIMEOUT_SECONDS);
                record(g);   // a page asked before the stop is one of the window's, however it ends
                if (!g.page(page.bodyBytes(), page.bodyCrc())) {
                    Thread.sleep(50);   // no spinning on a server that refuses
                }
            } catch (IOException e) {
                record(new H2Stream.Got(0, 0, 0, "no connection: " + e.getMessage(), -1, -1, false));
                client = null;
                sleep();
            } catch (InterruptedException e) {
                return;
            }
        }
        if (client != null) {
            client.close();
        }
    }

    private H2Client open() throws IOException, InterruptedException {
        H2Client client = H2Client.open(group, endpoint);
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    private synchronized void record(H2Stream.Got g) {
        if (g.page(page.bodyBytes(), page.bodyCrc())) {
            ttlb.recordValue(Math.max(0, g.ttlbNanos() / 1000));
        } else {
            failed++;
            failures.merge(g.problem(page.bodyBytes(), page.bodyCrc()), 1, Integer::sum);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The pages that end in the next {@code d}. */
    Window window(Duration d) throws InterruptedException {
        take();
        Thread.sleep(d.toMillis());
        return take();
    }

    /** Stops fetching, waits for the pages in flight (each within its timeout): those since the last window. */
    Window finish() throws InterruptedException {
        stopped = true;
        for (Thread t : loops) {
            t.join((TIMEOUT_SECONDS + 5) * 1000L);
        }
        return take();
    }

    private synchronized Window take() {
        Window w = new Window(ttlb.getTotalCount(), failed, Scenario.ms(ttlb.getValueAtPercentile(99)), failures);
        ttlb = new Histogram(3);
        failed = 0;
        failures = new TreeMap<>();
        return w;
    }

    @Override
    public void close() {
        stopped = true;
        loops.forEach(Thread::interrupt);
        synchronized (clients) {
            clients.forEach(H2Client::close);
        }
    }
}
