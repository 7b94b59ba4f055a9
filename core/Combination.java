package core;

/** One valid server × engine × mode. */
public record Combination(Server server, Engine engine, Mode mode) {

    public Combination {
        Registry.validate(server, engine, mode);
    }

    /** {@code server engine mode}: the line format of {@code list}. */
    @Override
    public String toString() {
        return server.id() + " " + engine.id() + " " + mode.id();
    }
}
