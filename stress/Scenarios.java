package stress;

import http.Protocol;

import java.util.List;

/**
 * The registry of stress scenarios, the only list of them: {@code stress --scenario}'s values and their help, the
 * order they run in, and the ids docs/stress.md's tables must name (tests/stress/ScenarioDocsTest) come from it. A new
 * scenario is its file (with its {@link Scenario} entry) and one line here.
 */
public final class Scenarios {

    /**
     * Every scenario, in the order they run: the HTTP/1.1 ones, then those over HTTP/2 (h2c or h2), the attacks of
     * record last ({@link H2Attacks}, each run by {@link H2Attack}).
     */
    static final List<Scenario> ALL = List.of(
            Streams.SCENARIO,
            Aborts.SCENARIO,
            SlowReaders.SCENARIO,
            Malformed.SCENARIO,
            Idle.SCENARIO,
            Shutdown.SCENARIO,
            Soak.SCENARIO,
            H2Streams.SCENARIO,
            H2Resets.SCENARIO,
            H2SlowReader.SCENARIO,
            H2Malformed.SCENARIO,
            H2Attack.of(H2Attacks.RAPID_RESET),
            H2Attack.of(H2Attacks.CONTINUATION_FLOOD),
            H2Attack.of(H2Attacks.HPACK_BOMB),
            H2Attack.of(H2Attacks.PING_FLOOD),
            H2Attack.of(H2Attacks.SETTINGS_FLOOD),
            H2Attack.of(H2Attacks.RESET_FLOOD),
            H2Attack.of(H2Attacks.EMPTY_FRAMES),
            H2Attack.of(H2Attacks.ZERO_LENGTH_HEADERS),
            H2Attack.of(H2Attacks.DATA_DRIBBLE),
            H2Attack.of(H2Attacks.INTERNAL_BUFFERING),
            H2Attack.of(H2Attacks.RESOURCE_LOOP));

    private Scenarios() {
    }

    /** The ids of the scenarios that run over {@code over}, in the order they run. */
    public static List<String> ids(Protocol over) {
        return ALL.stream().filter(s -> s.protocols().contains(over)).map(Scenario::id).toList();
    }

    /** The ids over {@code over} for help text: comma-separated. */
    public static String idText(Protocol over) {
        return String.join(", ", ids(over));
    }

    /** The scenario {@code id}; it must be one of {@link #ALL}'s (stress checks the user's ids first). */
    static Scenario byId(String id) {
        return ALL.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown scenario '" + id + "'; scenarios: " + String.join(", ", ALL.stream().map(Scenario::id)
                        .toList()) + "."));
    }
}
