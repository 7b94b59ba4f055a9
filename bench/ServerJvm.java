package bench;

import base.UsageException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bench --server-jvm=OPTIONS}: JVM options every server JVM bench starts gets after the server's own (the
 * measured ones, the AOT training's, whose cache key includes them, and the verification's), for instance the
 * published study's heap and collector. Options are separated by spaces, so none can hold one; what bench itself
 * sets on those JVMs (their class path, their AOT cache) is refused, since a second value would silently win or lose.
 */
public final class ServerJvm {

    /** --server-jvm's help. */
    public static final String HELP = "JVM options for every server JVM bench starts (the AOT training's and the"
            + " verification's too), after the server's own, separated by spaces, e.g. \"-Xms512m -Xmx16g"
            + " -XX:+UseG1GC\"; not the class path or the AOT cache, which are bench's (default: none).";

    /** The options that say which classes run or which AOT cache maps them: bench's to set. */
    private static final List<String> OWNED = List.of("-cp", "-classpath", "--class-path", "-jar", "-p",
            "--module-path", "-m", "--module", "-XX:AOTCache", "-XX:AOTMode", "-XX:AOTCacheOutput",
            "-XX:AOTConfiguration", "-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit");

    private ServerJvm() {
    }

    /** The options of {@code text}, one per space-separated word, checked: each refusal one sentence (exit 2). */
    public static List<String> parse(String text) {
        List<String> options = text == null || text.isBlank() ? List.of()
                : Arrays.asList(text.strip().split("\\s+"));
        return checked(options);
    }

    /** {@code options}, unmodifiable; refused when one is not an option ({@code -…}) or sets what bench owns. */
    public static List<String> checked(List<String> options) {
        for (String o : options) {
            if (!o.startsWith("-") || o.length() < 2 || o.chars().anyMatch(Character::isWhitespace)) {
                throw new UsageException("--server-jvm takes JVM options separated by spaces, each starting with '-'"
                        + " (for example \"-Xms512m -Xmx16g -XX:+UseG1GC\"), not '" + o + "'.");
            }
            String name = o.split("=", 2)[0];   // -XX:AOTCache=FILE, --class-path=DIR
            if (OWNED.contains(name)) {
                throw new UsageException("--server-jvm cannot set " + o + ": bench sets the server JVMs' class path"
                        + " and AOT cache itself (--no-aot-cache starts them without one).");
            }
        }
        return List.copyOf(options);
    }

    /** {@code first} then {@code then}: a server JVM's options in the order they are given to it. */
    static List<String> concat(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return List.copyOf(all);
    }
}
