package core;

/** One valid server × engine × approach. */
public record Combination(Server server, Engine engine, Approach approach) {

    public Combination {
        Registry.validate(server, engine, approach);
    }

    /** {@code server engine mode}: the line format of {@code list}. */
    @Override
    public String toString() {
        return server.id() + " " + engine.id() + " " + approach.id();
    }
}
