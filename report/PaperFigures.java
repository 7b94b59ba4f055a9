package report;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The figures the published study (Pereira & Carvalho 2025) and its companion paper quote, as the repository keeps
 * them in {@code data/study-paper.csv}: one row per quoted figure, with the framework's stand-in server, the page,
 * the series and its PssrBench engine and mode, what is quoted, the value and the citation. Only the values their
 * text quotes are there (the figures themselves are charts). The file ships in the jar; a row that breaks the
 * file's rules is a bug of the repository, refused on the first read.
 */
final class PaperFigures {

    static final String RESOURCE = "/data/study-paper.csv";
    /** A peak throughput in requests per second. */
    static final String REQ_PER_S = "req_per_s";
    /** The largest user count that still scales (docs/method.md: the study's reading, PssrBench's scales_to). */
    static final String SCALES_TO = "scales_to";
    /** A claim in words. */
    static final String CLAIM = "claim";
    /** What the rows may quote: the two compared with a bench run, then those no bench run measures. */
    static final Set<String> QUOTED = Set.of(REQ_PER_S, SCALES_TO, CLAIM, "cpu_peak_pct", "heap_mb",
            "lighthouse_score", "fcp_s", "speed_index_s");

    private PaperFigures() {
    }

    /**
     * One quoted figure. {@code server}: PssrBench's stand-in for the framework (empty where none stands in);
     * {@code engine} empty with a {@code mode}: the study's aggregated series, the mean over its engines of that mode.
     */
    record Figure(String figure, String framework, String server, String page, String series, String engine,
                  String mode, String quoted, String value, String citation) {

        /** Whether this is one of the study's series averaged over its engines ("Blocking", "Virtual"). */
        boolean aggregate() {
            return engine.isEmpty() && !mode.isEmpty();
        }

        /** Whether a bench run's summary.csv can hold PssrBench's figure for it. */
        boolean benchFigure() {
            return (quoted.equals(REQ_PER_S) || quoted.equals(SCALES_TO)) && !server.isEmpty() && !page.isEmpty()
                    && !mode.isEmpty();
        }

        /** The quoted number (for a req_per_s or scales_to row). */
        double number() {
            return Double.parseDouble(value);
        }

        /** The framework, and its stand-in where one is named: "WebFlux (netty)". */
        String where() {
            return framework.isEmpty() ? "" : server.isEmpty() ? framework : framework + " (" + server + ")";
        }
    }

    private static List<Figure> all;

    /** Every row of the file, in its order. */
    static synchronized List<Figure> all() {
        if (all == null) {
            all = read();
        }
        return all;
    }

    private static List<Figure> read() {
        List<Figure> figures = new ArrayList<>();
        try (InputStream in = PaperFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            MappingIterator<Map<String, String>> rows = new CsvMapper().readerForMapOf(String.class)
                    .with(CsvSchema.emptySchema().withHeader()).readValues(in);
            while (rows.hasNext()) {
                Map<String, String> r = rows.next();
                Figure f = new Figure(r.get("figure"), r.get("framework"), r.get("server"), r.get("page"),
                        r.get("series"), r.get("engine"), r.get("mode"), r.get("quoted"), r.get("value"),
                        r.get("citation"));
                check(f);
                figures.add(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + " cannot be read", e);
        }
        return List.copyOf(figures);
    }

    /** The file's rules: every column present, a known quoted kind, a number where one is compared. */
    private static void check(Figure f) {
        if (f.citation() == null || f.citation().isEmpty() || f.value() == null || f.value().isEmpty()) {
            throw new IllegalStateException(RESOURCE + ": every row has a value and a citation, not " + f);
        }
        if (!QUOTED.contains(f.quoted())) {
            throw new IllegalStateException(RESOURCE + ": quoted is one of " + QUOTED + ", not " + f.quoted());
        }
        if ((f.quoted().equals(REQ_PER_S) || f.quoted().equals(SCALES_TO)) && !f.value().matches("\\d+")) {
            throw new IllegalStateException(RESOURCE + ": a " + f.quoted() + " is a whole number, not " + f.value());
        }
    }
}
