package bench;

import model.Page;

import java.net.URI;
import java.util.Map;

/**
 * A foreign app to measure (a server that is not a PssrBench serve: {@code --target} with {@code --label}), after its
 * pages passed {@link verify.ForeignCheck}. Its rows are {@code server=foreign, engine=LABEL, mode=foreign}: the
 * label is their identity, and the report draws them in a section of their own beside PssrBench's combinations.
 *
 * @param label          the rows' and charts' name of the app
 * @param uris           where each page is served
 * @param bodies         each page's body as the check received it: the load generator counts every other body as
 *                       an error (length and CRC32C), as it does for PssrBench's own pages
 * @param firstItemEnds  where each page's first item ends in its body, found by the page's own markup
 * @param pid            the app's process on this machine, whose CPU, RSS and threads are read from /proc; -1: none
 */
public record ForeignApp(String label, Map<Page<?>, URI> uris, Map<Page<?>, byte[]> bodies,
                         Map<Page<?>, Integer> firstItemEnds, long pid) {

    /** The server column of a foreign app's rows (no PssrBench server has this id). */
    public static final String SERVER = tables.Row.FOREIGN;
    /** The mode column of a foreign app's rows: how it renders is its own. */
    public static final String MODE = tables.Row.FOREIGN;

    public ForeignApp {
        uris = Map.copyOf(uris);
        bodies = Map.copyOf(bodies);
        firstItemEnds = Map.copyOf(firstItemEnds);
    }

    /** What a row says of the app's resources. */
    String resourcesRemark(URI uri) {
        return pid < 0 ? "foreign app " + label + " at " + uri + ": its resources not measured (no --target-pid)"
                : "foreign app " + label + " at " + uri + ", pid " + pid + ": CPU, RSS and OS threads from /proc"
                + " (no JMX: heap, GC and virtual threads not measured)";
    }
}
