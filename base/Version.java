package base;

/**
 * PssrBench's version: what {@code --version}, /info.json and provenance.json say. It lives here, at the bottom,
 * so that the code that writes it needs nothing above base/.
 */
public final class Version {

    public static final String VERSION = "0.1.0";

    private Version() {
    }
}
