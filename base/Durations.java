package base;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Human durations for flags: {@code 1ms}, {@code 500us}, {@code 2s}, {@code 1.5ms}, {@code 1m}, {@code 0}. */
public final class Durations {

    /** Every unit {@link #parse} accepts ({@code µs} is {@code us}), for help texts and messages. */
    public static final String UNITS = "ns, us, ms, s or m (minutes)";

    private static final Pattern FORMAT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m)");

    private Durations() {
    }

    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = FORMAT.matcher(t);
        if (t.startsWith("-") && (t.equals("-0") || FORMAT.matcher(t.substring(1)).matches())) {
            // Readable, only not allowed: say that, not that it cannot be read.
            throw new UsageException("the duration '" + text + "' must not be negative; write for example 1ms, 500us"
                    + " or 2s.");
        }
        if (!m.matches()) {
            throw new UsageException("cannot read the duration '" + text
                    + "'; write a number and a unit, " + UNITS + ", for example 1ms, 500us or 2s.");
        }
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit = switch (m.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> 60e9;
        };
        double nanos = value * nanosPerUnit;
        if (nanos > Long.MAX_VALUE / 2.0) {
            throw new UsageException("the duration '" + text + "' is too long.");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /** The shortest exact form: {@code 1ms}, {@code 50ms}, {@code 2s}, {@code 1500us}. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0";
        }
        String[] units = {"s", "ms", "us", "ns"};
        long[] sizes = {1_000_000_000L, 1_000_000L, 1_000L, 1L};
        for (int i = 0; i < units.length; i++) {
            if (nanos % sizes[i] == 0) {
                return nanos / sizes[i] + units[i];
            }
        }
        return nanos + "ns";
    }
}
