package tables;

import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The one CSV writer of the results files (summary.csv, runs.csv, browser.csv, browser-runs.csv, stress.csv), beside
 * the one reader, {@link CsvFile}: cells are text already formatted by their owner (three decimals, whole counts,
 * empty for not measured), written on Jackson's generator. A cell is quoted only where it must be (a comma, a
 * quote, a line break), with a quote doubled inside, and lines end in {@code \n}: the bytes every file had.
 */
public final class CsvWriter {

    /**
     * Strict quoting: Jackson's default quotes any cell with a character below the comma (a space), which every
     * note has; strict quotes only a separator, a quote and a line break ({@code \r} as well as {@code \n}, so that
     * a lone carriage return in a note no longer ends the line for a reader).
     */
    private static final CsvFactory FACTORY = CsvFactory.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();

    private CsvWriter() {
    }

    /** The text of a whole file: the header, then each row, one line each. */
    public static String text(List<String> header, List<List<String>> rows) {
        StringBuilder text = new StringBuilder(line(header));
        rows.forEach(r -> text.append(line(r)));
        return text.toString();
    }

    /** One line, its line break included; a null cell is empty. */
    public static String line(List<String> cells) {
        StringWriter out = new StringWriter();
        try (CsvGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartArray();
            for (String cell : cells) {
                g.writeString(cell == null ? "" : cell);
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // a StringWriter does not fail
        }
        return out.toString();
    }
}
