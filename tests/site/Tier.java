package site;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How much of the matrix the tests that loop over the registry serve: all of their cases (the full tier, what CI
 * runs), or one diagonal of them (the quick tier, {@code scripts/test --quick}, which sets the system property
 * {@code pssrbench.matrix=diagonal}). The diagonal still has every engine, every mode and every server at least
 * once, so a plug-in that breaks outright fails the quick tier too; what only a pair of them gets wrong is left to
 * the full tier.
 */
public final class Tier {

    private Tier() {
    }

    /** Whether this run serves one diagonal of the matrix instead of all of its cases. */
    public static boolean diagonal() {
        String matrix = System.getProperty("pssrbench.matrix", "all");
        return switch (matrix) {
            case "all", "" -> false;
            case "diagonal" -> true;
            default -> throw new IllegalArgumentException("pssrbench.matrix is all or diagonal, not '" + matrix + "'");
        };
    }

    /**
     * {@code cases} as they are, or, in a diagonal run, the fewest of them found greedily in which every value of
     * every dimension appears at least once: each pick covers the most values not yet covered, and among equals the
     * one whose values were picked least often, so that the picks spread over the dimensions as a diagonal does.
     */
    public static <T> List<T> cases(List<T> cases, List<Function<T, ?>> dimensions) {
        return diagonal() ? diagonal(cases, dimensions) : cases;
    }

    /** The diagonal of {@code cases} over {@code dimensions}, whatever the system property says. */
    public static <T> List<T> diagonal(List<T> cases, List<Function<T, ?>> dimensions) {
        Set<List<Object>> uncovered = new LinkedHashSet<>();
        for (T c : cases) {
            for (int d = 0; d < dimensions.size(); d++) {
                uncovered.add(List.of(d, dimensions.get(d).apply(c)));
            }
        }
        Map<List<Object>, Integer> used = new HashMap<>();
        List<T> chosen = new ArrayList<>();
        while (!uncovered.isEmpty()) {
            T best = null;
            int bestNew = 0;
            int bestUsed = Integer.MAX_VALUE;
            for (T c : cases) {
                int fresh = 0;
                int times = 0;
                for (int d = 0; d < dimensions.size(); d++) {
                    List<Object> value = List.of(d, dimensions.get(d).apply(c));
                    fresh += uncovered.contains(value) ? 1 : 0;
                    times += used.getOrDefault(value, 0);
                }
                if (fresh > bestNew || (fresh == bestNew && fresh > 0 && times < bestUsed)) {
                    best = c;
                    bestNew = fresh;
                    bestUsed = times;
                }
            }
            chosen.add(best);
            for (int d = 0; d < dimensions.size(); d++) {
                List<Object> value = List.of(d, dimensions.get(d).apply(best));
                uncovered.remove(value);
                used.merge(value, 1, Integer::sum);
            }
        }
        return List.copyOf(chosen);
    }
}
