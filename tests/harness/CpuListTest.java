package harness;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where bench puts the server and the load generator when the user pins neither. */
class CpuListTest {

    @Test
    void fourOrMoreCpusAreSplitInDisjointHalves() {
        CpuList.Split four = CpuList.split(new TreeSet<>(List.of(0, 1, 2, 3)), true);
        assertTrue(four.apart());
        assertEquals("0-1", four.server());
        assertEquals("2-3", four.client());
        assertEquals("apart: server on CPUs 0-1, load generator on CPUs 2-3 (bench's default with 4 or more CPUs)",
                four.text());
        CpuList.Split odd = CpuList.split(new TreeSet<>(List.of(2, 3, 5, 6, 7)), true);
        assertEquals("2-3", odd.server(), "the usable CPUs, as the affinity lists them");
        assertEquals("5-7", odd.client());
    }

    @Test
    void fewerCpusOrNoTasksetAreSharedAndSaidSo() {
        CpuList.Split two = CpuList.split(new TreeSet<>(List.of(0, 1)), true);
        assertFalse(two.apart());
        assertEquals("shared: the server and the load generator share this machine's 2 CPUs (bench pins them apart"
                + " only with 4 or more)", two.text());
        CpuList.Split noTaskset = CpuList.split(new TreeSet<>(List.of(0, 1, 2, 3)), false);
        assertFalse(noTaskset.apart());
        assertTrue(noTaskset.text().endsWith("(taskset is not installed)"), noTaskset.text());
    }

    /** The lists --server-cpus and --client-cpus take (CliTest checks that bad ones are refused before a run). */
    @Test
    void listsAreReadAndWrittenAsTasksetDoes() {
        assertEquals(java.util.Optional.of(new TreeSet<>(List.of(0, 1, 3))), CpuList.parse("0-1,3"));
        assertEquals(java.util.Optional.of(new TreeSet<>(List.of(0, 2, 4))), CpuList.parse("0-4:2"));
        for (String bad : List.of("", "1-0", "0,,1", "0-", "-1", "x1")) {
            assertTrue(CpuList.parse(bad).isEmpty(), bad);
        }
        assertEquals("0-3,6", CpuList.format(new TreeSet<>(List.of(0, 1, 2, 3, 6))));
    }
}
