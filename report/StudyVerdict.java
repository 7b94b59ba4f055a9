package report;

import stats.ScalesTo;
import tables.Row;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The verdict on one of the paper's quoted figures against a results folder's rows (docs/study.md writes the rule
 * out, {@link Study#RULE}): PssrBench's figure for the same series on the framework's stand-in server and page, and
 * confirmed, contradicted, not comparable or not measured, with why.
 */
final class StudyVerdict {

    static final String CONFIRMED = "confirmed";
    static final String CONTRADICTED = "contradicted";
    static final String NOT_COMPARABLE = "not comparable";
    static final String NOT_MEASURED = "not measured";
    /** How far PssrBench's ratio of two peaks may lie from the paper's, in %, and still confirm it. */
    static final double RATIO_TOLERANCE_PCT = 15;
    /** The user counts of the paper's sweep: its figures' x axis. */
    static final String PAPER_COUNTS = "1,2,4,8,16,32,64,128";
    static final int PAPER_LAST_COUNT = 128;
    /** The 8 engines the paper's "Blocking" and "Virtual" series average over, as PssrBench names them. */
    static final List<String> PAPER_ENGINES = List.of("kotlinx", "rocker", "jstachio", "pebble", "freemarker",
            "trimou", "htmlflow", "thymeleaf");

    /** A verdict: its word, PssrBench's figure as the doc shows it (empty where none), and why. */
    record Verdict(String word, String ours, String why) {
    }

    /** One series as the folder measured it at one pool size: {@code pool} "" for none, else "on N threads". */
    record Measured(String pool, List<ScalesTo.Point> points) {
        ScalesTo.Point peak() {
            return points.stream().max(Comparator.comparingDouble(ScalesTo.Point::median)).orElseThrow();
        }

        TreeSet<Integer> counts() {
            return points.stream().map(ScalesTo.Point::users).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private final List<Row> rows;
    private final String raw;

    /** {@code rows}: the folder's summary rows with their scales_to; {@code raw}: the baseline engine. */
    StudyVerdict(List<Row> rows, String raw) {
        // The paper's points: closed loop over HTTP/1.1, valid, PssrBench's own load generator.
        this.rows = rows.stream().filter(r -> ScalesTo.counts(r) && r.plainHttp1() && r.tool().equals(Row.PSSRBENCH))
                .toList();
        this.raw = raw;
    }

    /** The verdict on one of the paper's rows. */
    Verdict of(PaperFigures.Figure f) {
        return switch (f.quoted()) {
            case PaperFigures.REQ_PER_S -> f.benchFigure() ? peak(f) : wordsOnly(f);
            case PaperFigures.SCALES_TO -> f.benchFigure() ? scalesTo(f) : wordsOnly(f);
            case PaperFigures.CLAIM -> wordsOnly(f);
            // Both are measured by other commands into folders of their own; this page reads summary.csv only.
            case "cpu_peak_pct", "heap_mb" -> new Verdict(NOT_MEASURED, "", "a timeline of one server JVM through a"
                    + " ramp from 1 to 128 users (the paper's VisualVM charts), which this page does not read:"
                    + " `scripts/pssrbench bench --server=" + f.server() + " --engine=htmlflow"
                    + " --mode=suspendable,virtual --page=presentations --connections=1,2,4,8,16,32,64,128 --repeat=1"
                    + " --no-baseline --jfr` draws it per JVM in its report (docs/bench.md, Timeline)");
            default -> new Verdict(NOT_MEASURED, "", "Lighthouse's figures, which this page does not read:"
                    + " `scripts/pssrbench browser --lighthouse --page=presentations --delay=200ms` measures the"
                    + " score, FCP, LCP and Speed Index per load, streamed and buffered (docs/browser.md, With"
                    + " Lighthouse); the companion's Weather and Artist pages are not PssrBench's");
        };
    }

    private static Verdict wordsOnly(PaperFigures.Figure f) {
        return new Verdict(NOT_COMPARABLE, "", f.figure().equals("Table 1")
                ? "PssrBench's matrix (`list --format=markdown`) says per engine and mode whether a page streams,"
                + " and `verify` checks it on the wire; the findings below say where it differs"
                : "a claim in words, with no number to compare; the rows of its figures test its numbers");
    }

    /**
     * A peak in req/s depends on the machine, so only its ratio to another peak of the same figure is compared: to
     * the figure's highest quoted peak, or for that one to the second highest.
     */
    private Verdict peak(PaperFigures.Figure f) {
        List<PaperFigures.Figure> figure = PaperFigures.all().stream().filter(o -> o.figure().equals(f.figure())
                && o.quoted().equals(PaperFigures.REQ_PER_S)).sorted(Comparator.comparingDouble(
                PaperFigures.Figure::number).reversed()).toList();
        List<Measured> ours = measured(f);
        String figureText = ours.stream().map(m -> prefix(m) + peakText(m.peak())).collect(Collectors.joining("; "));
        if (figure.size() < 2) {
            return new Verdict(NOT_COMPARABLE, figureText, "the figure quotes one peak, and a peak in req/s"
                    + " depends on the machine: only ratios between peaks of one figure are compared");
        }
        PaperFigures.Figure reference = figure.get(0).equals(f) ? figure.get(1) : figure.get(0);
        List<Measured> theirs = measured(reference);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new Verdict(NOT_MEASURED, figureText, "compared as a ratio to " + reference.series() + "'s peak,"
                    + " the folder lacks " + (ours.isEmpty() ? f.series() : reference.series()) + "; "
                    + command(List.of(f, reference)));
        }
        double paper = f.number() / reference.number();
        double against = theirs.get(0).peak().median();
        List<String> words = new ArrayList<>();
        List<String> whys = new ArrayList<>();
        for (Measured m : ours) {
            double ratio = m.peak().median() / against;
            boolean within = Math.abs(ratio / paper - 1) * 100 <= RATIO_TOLERANCE_PCT;
            words.add(prefix(m) + (within ? CONFIRMED : CONTRADICTED));
            whys.add(prefix(m) + String.format(Locale.ROOT, "%.2f", ratio));
        }
        return new Verdict(String.join("; ", words), figureText, String.format(Locale.ROOT,
                "ratio to %s's peak: the paper %.2f, PssrBench %s (%s%s), within %.0f%% confirms",
                reference.series(), paper, String.join("; ", whys), peakText(theirs.get(0).peak()),
                theirs.get(0).pool().isEmpty() ? "" : " " + theirs.get(0).pool(), RATIO_TOLERANCE_PCT));
    }

    /**
     * scales_to is compared where the folder measured the paper's count and one above it (or the paper's last count,
     * 128): below those, PssrBench's figure cannot tell whether the series stops where the paper says.
     */
    private Verdict scalesTo(PaperFigures.Figure f) {
        List<Measured> ours = measured(f);
        if (ours.isEmpty()) {
            return new Verdict(NOT_MEASURED, "", command(List.of(f)));
        }
        int paper = (int) f.number();
        List<String> words = new ArrayList<>();
        List<String> figures = new ArrayList<>();
        List<String> whys = new ArrayList<>();
        for (Measured m : ours) {
            TreeSet<Integer> counts = m.counts();
            Integer figure = ScalesTo.of(m.points());
            figures.add(prefix(m) + (figure == null ? "none" : figure) + " (measured at "
                    + counts.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")");
            if (figure == null || !counts.contains(paper) || counts.last() <= paper && paper < PAPER_LAST_COUNT) {
                words.add(prefix(m) + NOT_COMPARABLE);
                whys.add(prefix(m) + "the paper's figure needs a point at " + paper + " users and one above it");
            } else {
                words.add(prefix(m) + (figure == paper ? CONFIRMED : CONTRADICTED));
                whys.add(prefix(m) + "scales to " + figure + " where the paper reads " + paper);
            }
        }
        return new Verdict(String.join("; ", words), String.join("; ", figures), String.join("; ", whys));
    }

    private static String prefix(Measured m) {
        return m.pool().isEmpty() ? "" : m.pool() + ": ";
    }

    private static String peakText(ScalesTo.Point p) {
        return String.format(Locale.ROOT, "%,.0f req/s (%,.0f to %,.0f) at %d users", p.median(), p.lo(), p.hi(),
                p.users());
    }

    /** The folder's series of a figure's row, one per pool size (none first), empty where it was not measured. */
    List<Measured> measured(PaperFigures.Figure f) {
        List<Row> mine = rows.stream().filter(r -> r.server().equals(f.server()) && r.page().equals(f.page())
                && r.mode().equals(f.mode())).toList();
        List<Integer> pools = mine.stream().map(Row::threads).distinct()
                .sorted(Comparator.nullsFirst(Comparator.naturalOrder())).toList();
        List<Measured> measured = new ArrayList<>();
        for (Integer pool : pools) {
            String name = pool == null ? "" : "on " + pool + " threads";
            if (f.aggregate()) {
                UsersChart.Means means = UsersChart.means(mine, f.mode(), pool, raw);
                if (means != null && means.counts().size() >= 2) {
                    measured.add(new Measured(name, means.counts().stream().map(UsersChart.Mean::point).toList()));
                }
            } else {
                Map<Integer, ScalesTo.Point> byCount = new LinkedHashMap<>();
                boolean unique = mine.stream().filter(r -> r.engine().equals(f.engine())
                        && Objects.equals(r.threads(), pool)).allMatch(r -> byCount.put(r.connections(),
                        ScalesTo.point(r)) == null);
                // Two rows at one count (a column PssrBench adds later) are two series: none is the paper's.
                if (unique && byCount.size() >= 2) {
                    measured.add(new Measured(name, List.copyOf(byCount.values())));
                }
            }
        }
        return measured;
    }

    /** The bench command that measures these rows' series at the paper's user counts. */
    static String command(List<PaperFigures.Figure> figures) {
        Set<String> engines = new LinkedHashSet<>();
        Set<String> modes = new LinkedHashSet<>();
        figures.forEach(f -> {
            engines.addAll(f.aggregate() ? PAPER_ENGINES : List.of(f.engine()));
            modes.add(f.mode());
        });
        PaperFigures.Figure f = figures.get(0);
        return "`scripts/pssrbench bench --server=" + f.server() + " --engine=" + String.join(",", engines)
                + " --mode=" + String.join(",", modes) + " --page=" + f.page() + " --connections=" + PAPER_COUNTS
                + "` measures it";
    }
}
