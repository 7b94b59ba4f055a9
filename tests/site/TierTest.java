package site;

import cli.Registry;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quick tier's diagonal of the matrix still has every engine, mode and server, and few combinations more. */
class TierTest {

    private static final List<Function<Combination, ?>> PLUGINS = List.of(Combination::engine, Combination::mode,
            Combination::server);

    @Test
    void theDiagonalOfTheRegistryHasEveryPluginAndAboutOneCombinationPerEngine() {
        List<Combination> diagonal = Tier.diagonal(Registry.combinations(), PLUGINS);
        assertEquals(Set.copyOf(Registry.ENGINES), diagonal.stream().map(Combination::engine).collect(Collectors.toSet()));
        assertEquals(Set.copyOf(Registry.MODES), diagonal.stream().map(Combination::mode).collect(Collectors.toSet()));
        assertEquals(Set.copyOf(Registry.SERVERS), diagonal.stream().map(Combination::server)
                .collect(Collectors.toSet()));
        int widest = Math.max(Registry.ENGINES.size(), Math.max(Registry.MODES.size(), Registry.SERVERS.size()));
        assertTrue(diagonal.size() <= widest + 1, diagonal.size() + " combinations: " + diagonal);
        assertTrue(Registry.combinations().containsAll(diagonal), "only valid combinations");
    }

    @Test
    void eachPickCoversTheMostValuesNotYetCoveredSpreadOverTheOthers() {
        record Cell(String row, String column) {
        }
        List<Cell> grid = List.of(new Cell("a", "x"), new Cell("a", "y"), new Cell("b", "x"), new Cell("b", "y"),
                new Cell("c", "x"), new Cell("c", "y"));
        assertEquals(List.of(new Cell("a", "x"), new Cell("b", "y"), new Cell("c", "x")),
                Tier.diagonal(grid, List.<Function<Cell, ?>>of(Cell::row, Cell::column)));
    }

    /** Without the quick profile's system property, every case runs. */
    @Test
    void theFullTierKeepsEveryCase() {
        if (!Tier.diagonal()) {
            assertEquals(Registry.combinations(), Tier.cases(Registry.combinations(), PLUGINS));
        } else {
            assertEquals(Tier.diagonal(Registry.combinations(), PLUGINS), Tier.cases(Registry.combinations(), PLUGINS));
        }
    }
}
