package bench;

import base.UsageException;

import java.util.List;

/**
 * The load drivers {@code bench --driver} takes, the default first: the one list of them, from which the flag's check
 * and its help come. A new driver is its file and a line here.
 */
public final class LoadDrivers {

    public static final List<LoadDriver> ALL = List.of(new PssrBenchDriver(), new HyperfoilDriver());

    /** {@code --driver}'s default, as an annotation must have it: a constant string. */
    public static final String DEFAULT = PssrBenchDriver.ID;

    private LoadDrivers() {
    }

    /** The driver of this id, or one sentence naming those there are. */
    public static LoadDriver byId(String id) {
        return ALL.stream().filter(d -> d.about().id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "--driver takes " + or(ALL.stream().map(d -> d.about().id()).toList()) + "."));
    }

    /** {@code --driver}'s help: each driver's id and, in brackets, what it is ("a (…), b (…) or c (…)"). */
    public static String help() {
        return or(ALL.stream().map(d -> d.about().id() + " (" + d.about().help() + ")").toList());
    }

    private static String or(List<String> items) {
        int last = items.size() - 1;
        return last == 0 ? items.get(0) : String.join(", ", items.subList(0, last)) + " or " + items.get(last);
    }
}
