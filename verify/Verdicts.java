package verify;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks of one page as they are made: failures and warnings as found, and a pass for each check that found
 * none.
 */
final class Verdicts {

    private final List<Check> checks = new ArrayList<>();

    void fail(Check.Name name, String message) {
        checks.add(Check.fail(name, message));
    }

    void warn(Check.Name name, String message) {
        checks.add(Check.warn(name, message));
    }

    void add(Check check) {
        checks.add(check);
    }

    /** Records a pass for each of {@code names} that has no verdict yet: the check was made and found nothing. */
    void checked(Check.Name... names) {
        for (Check.Name n : names) {
            if (checks.stream().noneMatch(c -> c.name() == n)) {
                checks.add(Check.pass(n));
            }
        }
    }

    boolean failed() {
        return checks.stream().anyMatch(c -> c.status() == Check.Status.FAIL);
    }

    /** Whether it failed, and only on checks of when bytes arrived ({@link Check.Name#timing()}). */
    boolean failedOnTimingOnly() {
        return failed() && failures().stream().allMatch(c -> c.name().timing());
    }

    List<Check> failures() {
        return checks.stream().filter(c -> c.status() == Check.Status.FAIL).toList();
    }

    List<Check> list() {
        return List.copyOf(checks);
    }
}
