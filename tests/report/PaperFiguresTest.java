package report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * data/study-paper.csv against the project's notes on the papers (shared/notes/study-paper.md): every number of the
 * notes' table of Pereira & Carvalho's quoted results, and of the companion's Table 1, is a row of its figure, and
 * no row of those figures holds a number the notes do not quote.
 */
class PaperFiguresTest {

    /**
     * The notes' table of quoted results: its figure column (its en dashes as the data writes them), its quoted
     * column.
     */
    private static final List<String[]> NOTES = List.of(
            new String[] {"2", "does not scale beyond 4 users"},
            new String[] {"2", "scales to 128; 4,487"},
            new String[] {"2", "scales to 64; 3,514"},
            new String[] {"2", "scales to 32; 2,559"},
            new String[] {"2", "4,691 / 4,792"},
            new String[] {"3", "both scale to 32; 2,498 / 2,797 (not progressive)"},
            new String[] {"4", "scales to 64; 3,744"},
            new String[] {"4", "scales to 128; 4,856"},
            new String[] {"4", "3,088"},
            new String[] {"5", "1,509 / 1,750"},
            new String[] {"5", "3,090 / 3,026"},
            new String[] {"6", "1,916, scales to 64; virtual threads add nothing"},
            new String[] {"7", "3,019 / 3,357 / 1,760; sync approaches scale to 128"},
            new String[] {"8-9", "peaks about 42% and 50%"},
            new String[] {"10-11", "about 300 MB under load, a 450 MB spike at start-up; GC activity low"},
            // The companion's Table 1: score, FCP = LCP and Speed Index, blocking → PSSR, per use case.
            new String[] {"companion Table 1", "64 → 100 | 3.2 → 0.2 | 3.4 → 0.9"},
            new String[] {"companion Table 1", "91 → 99 | 1.4 → 0.2 | 1.4 → 1.2"},
            new String[] {"companion Table 1", "75 → 100 | 2.3 → 0.2 | 2.4 → 0.4"});
    private static final Pattern NUMBER = Pattern.compile("\\d[\\d,]*(\\.\\d+)?");
    /** The numbers of the notes that name something other than a quoted figure (a year, a size, a duration). */
    private static final List<String> NOT_FIGURES = List.of("450");

    @Test
    void everyNumberOfTheNotesIsARowOfItsFigure() {
        for (String[] note : NOTES) {
            for (String number : numbers(note[1])) {
                assertTrue(PaperFigures.all().stream().anyMatch(f -> f.figure().equals(note[0])
                        && (f.value().equals(number) || NOT_FIGURES.contains(number)
                        && f.value().contains(number + " "))), "figure " + note[0] + ": " + number);
            }
        }
    }

    @Test
    void noRowOfTheseFiguresHoldsANumberTheNotesDoNotQuote() {
        Map<String, List<String>> quoted = new java.util.HashMap<>();
        NOTES.forEach(n -> quoted.computeIfAbsent(n[0], k -> new ArrayList<>()).addAll(numbers(n[1])));
        PaperFigures.all().stream().filter(f -> quoted.containsKey(f.figure()) && !f.quoted().equals("claim"))
                .forEach(f -> assertTrue(quoted.get(f.figure()).contains(f.value()), f.toString()));
    }

    /** Each framework has its one stand-in, and each row compared with a bench run names its series. */
    @Test
    void theStandInsAndSeriesAreComplete() {
        Map<String, String> standIns = Map.of("WebFlux", "netty", "MVC", "javalin", "Quarkus", "vertx");
        for (PaperFigures.Figure f : PaperFigures.all()) {
            if (!f.framework().isEmpty()) {
                assertEquals(standIns.get(f.framework()), f.server(), f.toString());
            }
            assertFalse(f.citation().isBlank(), f.toString());
            if (f.quoted().equals(PaperFigures.REQ_PER_S) || f.quoted().equals(PaperFigures.SCALES_TO)) {
                assertTrue(f.benchFigure(), "a peak or a scales_to with its server, page and mode: " + f);
                assertTrue(f.aggregate() || List.of("htmlflow", "jstachio", "thymeleaf").contains(f.engine()),
                        f.toString());
            }
        }
        assertEquals(60, PaperFigures.all().size());
    }

    private static List<String> numbers(String text) {
        List<String> numbers = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            numbers.add(m.group().replace(",", ""));
        }
        return numbers;
    }
}
