package cli;

import tables.Provenance;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Library versions in the plug-ins' one-line descriptions, read from the build's own dependency metadata (the same
 * that provenance records) instead of being written by hand: a description names a library as
 * {@code {group:artifact}}, and {@link #fill} puts the resolved version there.
 */
public final class Versions {

    private static final Pattern COORDINATES = Pattern.compile("\\{([\\w.\\-]+:[\\w.\\-]+)}");
    private static volatile Map<String, String> libraries;

    private Versions() {
    }

    /** {@code text} with every {@code {group:artifact}} replaced by that library's version in this build. */
    public static String fill(String text) {
        Map<String, String> known = libraries();
        Matcher m = COORDINATES.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String version = known.get(m.group(1));
            if (version == null) {
                throw new IllegalStateException(m.group(1) + " is not a library of this build: " + text);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(version));
        }
        return m.appendTail(out).toString();
    }

    private static Map<String, String> libraries() {
        Map<String, String> known = libraries;
        if (known == null) {
            known = Provenance.libraries();
            libraries = known;
        }
        return known;
    }
}
