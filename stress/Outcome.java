package stress;

import site.Combination;

import java.util.Map;

/**
 * One scenario's result on one combination: its figures (column name with unit suffix, as in stress.csv, to
 * value), the pass rule in words, whether it held, and a note saying what failed.
 */
public record Outcome(String scenario, Combination combination, Map<String, Object> figures, String rule,
                      boolean pass, String note) {
}
