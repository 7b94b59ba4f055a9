package core;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * How a page render is scheduled. What each approach means on a given server is declared by that server
 * ({@link Server#approachMeaning(Approach)}); which approaches an engine or a server supports is data
 * ({@link Engine#approaches()}, {@link Server#approaches()}).
 */
public enum Approach {
    VIRTUAL("virtual", "a blocking engine renders on a virtual thread"),
    BLOCKING("blocking", "a blocking engine renders on a fixed pool of platform threads (--threads)"),
    REACTIVE("reactive", "the engine's async API renders each item as the Observable emits it; no thread waits for data");

    private final String id;
    private final String summary;

    Approach(String id, String summary) {
        this.id = id;
        this.summary = summary;
    }

    /** Stable lower-case id: flag value, file name, CSV column value. */
    public String id() {
        return id;
    }

    public String summary() {
        return summary;
    }

    public static Approach byId(String id) {
        for (Approach a : values()) {
            if (a.id.equals(id)) {
                return a;
            }
        }
        throw new UsageException("unknown mode '" + id + "'; valid modes: " + ids(Arrays.asList(values())) + ".");
    }

    public static String ids(Collection<Approach> approaches) {
        return approaches.stream().sorted().map(Approach::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
