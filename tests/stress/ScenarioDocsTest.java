package stress;

import cli.CliTest;
import http.Protocol;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario registry is the only list: docs/stress.md's two tables have a row for exactly its scenarios, in its
 * order, each row naming the settings the scenario reads, the page giving each setting's default; and stress's help
 * offers exactly its ids.
 */
class ScenarioDocsTest {

    private static final Path DOCS = Path.of(System.getProperty("user.dir"), "docs", "stress.md");

    private static List<String> registry() {
        List<String> ids = new ArrayList<>(Scenarios.ids(Protocol.H1));
        ids.addAll(Scenarios.ids(Protocol.H2C));
        return ids;
    }

    @Test
    void theDocsTablesHaveARowForEveryScenarioOfTheRegistryAndNoOther() throws Exception {
        Map<String, String> rows = new java.util.LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\|(.*)$").matcher(Files.readString(DOCS));
        while (row.find()) {
            rows.put(row.group(1), row.group(2));
        }
        assertEquals(registry(), List.copyOf(rows.keySet()), "docs/stress.md's scenario tables");
        for (Scenario s : Scenarios.ALL) {
            for (String option : s.settings()) {
                assertTrue(rows.get(s.id()).contains("`" + option + "`"), "docs/stress.md's " + s.id()
                        + " row names " + option);
            }
        }
    }

    @Test
    void theDocsGiveEverySettingsDefault() throws Exception {
        String docs = Files.readString(DOCS);
        StressSettings.DEFAULTS.forEach((option, value) -> {
            String shown = value.matches("\\d+") ? String.format(Locale.ROOT, "%,d", Long.parseLong(value)) : value;
            assertTrue(docs.contains("`" + option + "` (" + shown + ")"), "docs/stress.md: `" + option + "` ("
                    + shown + ")");
        });
    }

    @Test
    void theHelpOffersExactlyTheRegistrysScenarios() {
        CliTest.Run help = CliTest.run("stress", "--help");
        assertEquals(0, help.code(), help.err());
        String text = help.out().replaceAll("\\s+", " ");
        Matcher offered = Pattern.compile("--scenario=ID\\[,ID\\.\\.\\.] Scenarios, comma-separated: (.*?);"
                + " with --protocol=h2c or h2: (.*?) \\(default: all of the protocol's\\)").matcher(text);
        assertTrue(offered.find(), text);
        assertEquals(Scenarios.ids(Protocol.H1), Arrays.asList(offered.group(1).split(", ")));
        assertEquals(Scenarios.ids(Protocol.H2C), Arrays.asList(offered.group(2).split(", ")));
        assertEquals(Scenarios.ids(Protocol.H2C), Scenarios.ids(Protocol.H2), "h2 runs what h2c runs");
        assertTrue(text.contains("Reliability scenarios (" + Scenarios.idText(Protocol.H1) + "; over h2c or h2: "
                + Scenarios.idText(Protocol.H2C) + ")"), text);
    }

    @Test
    void anUnknownScenarioIsRefusedNamingTheProtocolsScenarios() {
        CliTest.Run r = CliTest.run("stress", "--scenario=h2-streams", "--out=" + System.getProperty("java.io.tmpdir")
                + "/pssrbench-no-such-run");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("unknown scenario 'h2-streams' for --protocol=h1; scenarios: "
                + Scenarios.idText(Protocol.H1) + "."), r.err());
    }
}
