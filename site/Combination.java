package site;

import base.UsageException;
import model.Engine;
import model.Mode;
import model.Serving;

/** One valid server × engine × mode. */
public record Combination(Server server, Engine engine, Mode mode) {

    public Combination {
        check(server, engine, mode);
    }

    /**
     * Refuses a mode the engine cannot render in. The command line checks first, with the list of valid modes
     * (cli.Registry.validate); this is the guard for code that builds a combination itself.
     */
    public static void check(Server server, Engine engine, Mode mode) {
        if (!mode.supports(engine)) {
            throw new UsageException("mode " + mode.id() + " is not available with server " + server.id()
                    + " and engine " + engine.id() + ".");
        }
    }

    /** How this combination serves a page: the plan the site and the server act on ({@link Serving}). */
    public Serving serving() {
        return Serving.of(server.handling(), mode);
    }

    /** {@code server engine mode}: the line format of {@code list}. */
    @Override
    public String toString() {
        return server.id() + " " + engine.id() + " " + mode.id();
    }
}
