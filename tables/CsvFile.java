package tables;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One CSV file of a results folder (summary.csv, runs.csv, browser.csv, stress.csv) read whole: its header and its
 * lines, each cell read as its column's type. Whatever the file holds, reading it either gives the rows or throws an
 * {@link IOException} whose message is one sentence naming the file, the line and the column, and the value cut to
 * a few dozen characters: Jackson's parse errors are caught here, at the one seam every reader goes through, so that
 * {@code report} and {@code compare} never show a stack trace for a file a user edited or a disk damaged.
 *
 * <p>What is accepted, and why:
 * <ul>
 * <li>The text is UTF-8; a byte that is not is read as U+FFFD (the replacement character) rather than refused: it is
 * almost always in a free-text note (an error message in another encoding, an editor's Latin-1), and one bad byte
 * there must not lose the whole report. In a number or a name it is refused or shown, like any other odd text.</li>
 * <li>Every line has as many cells as the header: PssrBench writes no other, and a cell more or less shifts every
 * value after it into the wrong column.</li>
 * <li>A cell holds at most {@link #MAX_CELL} characters (a mebibyte) and the header at most {@link #MAX_COLUMNS}
 * columns: no value PssrBench writes comes near (its longest, a note, is a few hundred characters), a name up to
 * that long is still shown (cut, {@link report.Charts#name}), and past it a damaged or hostile file is refused while it is
 * read rather than held whole. The number of lines is not bounded: a long sweep has many, and each costs the
 * same.</li>
 * <li>A number that is not finite (NaN, Infinity) is a missing value, as an empty cell is: no measurement is
 * infinite, so such a value is a division by zero or an edit, and the row's other figures are still worth showing.
 * A finite number beyond {@link #MAX_NUMBER} in size is refused: no figure PssrBench records comes near it, and past
 * it a double no longer holds the three decimals the files keep.</li>
 * </ul>
 */
public final class CsvFile {

    /** The longest cell read, in characters. */
    static final int MAX_CELL = 1 << 20;
    /** The most columns a header may have. */
    static final int MAX_COLUMNS = 1_000;
    /** The largest size of a number read (10^12): three decimals still exact in a double up to there. */
    static final double MAX_NUMBER = 1e12;
    /** How many characters of a value a message shows. */
    private static final int SHOWN = 40;

    /**
     * The parser: the lines as arrays (no schema, the header is read as the first line), empty lines skipped as
     * Jackson's header reading skipped them, and Jackson's own bound on a value set to ours so that a huge cell is
     * refused while it is read, not after it has been held whole.
     */
    private static final CsvFactory FACTORY = CsvFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_CELL).build())
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .build();

    private final Path file;
    private final List<String> header;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<Line> lines;

    private CsvFile(Path file, List<String> header, List<Line> lines) {
        this.file = file;
        this.header = List.copyOf(header);
        for (int i = 0; i < header.size(); i++) {
            index.putIfAbsent(header.get(i), i);
        }
        this.lines = lines;
    }

    /** The column names of the first line (none for an empty file). */
    public List<String> header() {
        return header;
    }

    /** Every line after the header. */
    public List<Line> lines() {
        return lines;
    }

    /** Reads {@code file}: see the class comment for what is refused. */
    public static CsvFile read(Path file) throws IOException {
        List<String> header = null;
        List<List<String>> cells = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        // InputStreamReader replaces a malformed byte with U+FFFD (its decoder's default action).
        try (Reader in = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8);
             CsvParser p = FACTORY.createParser(in)) {
            List<String> row = null;
            int lineNr = 0;
            try {
                JsonToken t;
                while ((t = p.nextToken()) != null) {
                    if (t == JsonToken.START_ARRAY) {
                        row = new ArrayList<>();
                        lineNr = p.currentLocation().getLineNr();   // where the row's first cell begins
                    } else if (t == JsonToken.VALUE_STRING && row != null) {
                        int limit = header == null ? MAX_COLUMNS : header.size();
                        if (row.size() == limit) {
                            throw new IOException(where(file, p.currentTokenLocation()) + ": more than " + limit
                                    + (header == null ? " columns" : " cells, the header's number"));
                        }
                        row.add(p.getText());
                    } else if (t == JsonToken.END_ARRAY && row != null) {
                        if (header == null) {
                            if (!row.isEmpty() && row.get(0).startsWith("\uFEFF")) {   // an editor's byte order mark
                                row.set(0, row.get(0).substring(1));
                            }
                            header = row;
                        } else if (row.size() != header.size()) {
                            throw new IOException(file + ", line " + lineNr + ": " + row.size() + " cells where the"
                                    + " header has " + header.size());
                        } else {
                            cells.add(row);
                            lineNumbers.add(lineNr);
                        }
                        row = null;
                    }
                }
            } catch (JsonProcessingException e) {
                // Some (a cell past MAX_CELL) carry no location: where the parser stopped is near enough. A quote
                // left open is found only at the end of the file, so the row it is in is named too.
                JsonLocation at = e.getLocation() != null ? e.getLocation() : p.currentLocation();
                throw new IOException(where(file, at) + ": " + reason(e) + (row != null && at != null
                        && at.getLineNr() != lineNr ? ", in the row that begins on line " + lineNr : ""));
            }
        }
        List<String> names = header == null ? List.of() : header;
        List<Line> lines = new ArrayList<>();
        CsvFile csv = new CsvFile(file, names, lines);
        for (int i = 0; i < cells.size(); i++) {
            lines.add(csv.new Line(lineNumbers.get(i), cells.get(i)));
        }
        return csv;
    }

    private static String where(Path file, JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? file.toString()
                : file + ", line " + at.getLineNr() + ", character " + at.getColumnNr();
    }

    /** Jackson's reason, without its location and the value it may quote at length. */
    private static String reason(JsonProcessingException e) {
        String why = String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("");
        if (why.startsWith("String value length")) {   // StreamConstraintsException: a cell past MAX_CELL
            return "a cell longer than " + MAX_CELL + " characters";
        }
        return oneLine(why, 100);
    }

    /** A value for a message: at most a few dozen characters, on one line, with its length when cut. */
    public static String shown(String value) {
        return "'" + oneLine(value, SHOWN) + "'" + (value.length() > SHOWN ? " (" + value.length() + " characters)"
                : "");
    }

    /** Text for a one-line message: cut to {@code max} characters, control characters and line breaks escaped. */
    public static String oneLine(String value, int max) {
        String cut = value.length() <= max ? value : value.substring(0, Character.isHighSurrogate(
                value.charAt(max - 2)) ? max - 2 : max - 1) + "\u2026";   // never half a character
        StringBuilder out = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> {
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", c));   // a line break in a value must not break the sentence
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** One line of the file: its cells by the header's column names, each read as a type or refused in a sentence. */
    public final class Line {
        private final int lineNr;
        private final List<String> cells;

        private Line(int lineNr, List<String> cells) {
            this.lineNr = lineNr;
            this.cells = cells;
        }

        /** Its line number in the file (where its first cell begins), for a message about it. */
        public int number() {
            return lineNr;
        }

        /** Every cell by column name, in the header's order. */
        public Map<String, String> cells() {
            Map<String, String> byName = new java.util.LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                byName.putIfAbsent(header.get(i), cells.get(i));
            }
            return byName;
        }

        /** The cell's text; "" where the file has no such column. */
        String text(String column) {
            Integer i = index.get(column);
            return i == null ? "" : cells.get(i);
        }

        /** A decimal; null when empty or not finite (see the class comment). */
        Double decimal(String column) throws IOException {
            String t = text(column);
            if (t.isEmpty()) {
                return null;
            }
            double v;
            try {
                v = Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw refused(column, "a number");
            }
            if (!Double.isFinite(v)) {
                return null;
            }
            if (Math.abs(v) > MAX_NUMBER) {
                throw refused(column, "a number of a size up to 10^12");
            }
            return v;
        }

        /** A decimal that must be there (and finite). */
        double requiredDecimal(String column) throws IOException {
            Double v = decimal(column);
            if (v == null) {
                throw refused(column, "a finite number");
            }
            return v;
        }

        /** A whole number; null when empty. */
        Long whole(String column) throws IOException {
            String t = text(column);
            if (t.isEmpty()) {
                return null;
            }
            try {
                long v = Long.parseLong(t);
                if (Math.abs((double) v) <= MAX_NUMBER) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // refused below
            }
            throw refused(column, "a whole number of a size up to 10^12");
        }

        /** A whole number that must be there, within an int. */
        int count(String column) throws IOException {
            Integer v = countOrNull(column);
            if (v == null) {
                throw refused(column, "a whole number");
            }
            return v;
        }

        /** A whole number within an int; null when empty. */
        Integer countOrNull(String column) throws IOException {
            String t = text(column);
            if (t.isEmpty()) {
                return null;
            }
            try {
                return Integer.valueOf(t);
            } catch (NumberFormatException e) {
                throw refused(column, "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE);
            }
        }

        /** true or false, which must be there. */
        boolean flag(String column) throws IOException {
            Boolean v = flagOrNull(column);
            if (v == null) {
                throw refused(column, "true or false");
            }
            return v;
        }

        /** true, false, or null when empty. */
        Boolean flagOrNull(String column) throws IOException {
            String t = text(column);
            if (t.isEmpty()) {
                return null;
            }
            if (!t.equals("true") && !t.equals("false")) {
                throw refused(column, "true or false");
            }
            return t.equals("true");
        }

        /** The one sentence for a cell its column cannot hold: file, line, column, the value cut, what is expected. */
        IOException refused(String column, String expected) {
            Integer i = index.get(column);
            return new IOException(file + ", line " + lineNr + (i == null ? "" : ", column " + (i + 1)) + " ("
                    + column + "): " + shown(text(column)) + " is not " + expected);
        }
    }
}
