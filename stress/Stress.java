package stress;

import site.Combination;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * {@code stress}: each scenario on each combination, every one in a server JVM of its own started for it; the client
 * runs in this JVM; the scenarios are the entries of {@link Scenarios}, each run's figures judged by its rule.
 * Results: {@code stress.csv} (one row per scenario and combination: its figures with unit suffixes, the pass rule
 * and whether it held), a table on the terminal, and the server logs in {@code logs/}.
 */
public final class Stress {

    public static final String FILE = report.StressReport.FILE;

    private Stress() {
    }

    /**
     * Runs every scenario on every combination; returns the outcomes (a scenario that could not run fails). Once
     * {@code stopped} is true (Ctrl-C), the scenario under way is not a result: it is dropped and no other starts;
     * stress.csv keeps every finished one.
     */
    public static List<Outcome> run(List<Combination> combinations, List<String> scenarios, StressSettings s,
                                    java.util.function.BooleanSupplier stopped)
            throws IOException, InterruptedException {
        List<Outcome> all = new ArrayList<>();
        PrintStream out = s.out();
        for (Combination c : combinations) {
            for (String id : scenarios) {
                if (stopped.getAsBoolean()) {
                    return all;
                }
                Scenario scenario = Scenarios.byId(id);
                out.printf(Locale.ROOT, "stress: %s on %s ...%n", id, c);
                out.flush();
                Outcome o = untilUndisturbed(scenario, () -> {
                    Outcome once;
                    harness.CpuWatch.Mark before = harness.CpuWatch.markTree();
                    try {
                        once = scenario.judge(c, scenario.run().run(c, s));
                    } catch (IOException | RuntimeException e) {
                        once = new Outcome(id, c, new java.util.LinkedHashMap<>(), "(could not run)", false,
                                e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                    // This JVM, the scenario's clients, and the server JVM it started (reaped by now) are the
                    // measured.
                    return stopped.getAsBoolean() ? null
                            : withConditions(once, harness.CpuWatch.between(before, harness.CpuWatch.markTree()));
                }, out);
                if (o == null) {
                    return all;   // cut short (its server stopped under it): not a result
                }
                all.add(o);
                out.println("  " + line(o));
                write(s.folder(), all);
            }
        }
        return all;
    }

    /** One run of a scenario: its outcome with its conditions, or null when the run was stopped. */
    interface Attempt {
        Outcome run() throws IOException, InterruptedException;
    }

    /** {@code scenario}'s runs: {@link #untilUndisturbed(Attempt, int, PrintStream)} at its own attempts. */
    static Outcome untilUndisturbed(Scenario scenario, Attempt attempt, PrintStream out)
            throws IOException, InterruptedException {
        return untilUndisturbed(attempt, scenario.attempts(), out);
    }

    /**
     * Runs {@code attempt} again, up to {@code max} times in all, while it fails disturbed: a pass rule that
     * compares timings (the slow readers' neighbours' p99) failed on this machine when the host stole 7% of the
     * CPU, which says nothing of the server. The rule itself is never relaxed: the kept outcome is the last one,
     * undisturbed or the last disturbed one, its note saying how many were run. A scenario that runs once
     * ({@code max} 1: the soak) keeps its disturbed failure, its note saying so. Null when stopped.
     */
    static Outcome untilUndisturbed(Attempt attempt, int max, PrintStream out)
            throws IOException, InterruptedException {
        for (int n = 1; ; n++) {
            Outcome o = attempt.run();
            if (o == null) {
                return null;
            }
            boolean disturbedFailure = !o.pass() && Boolean.TRUE.equals(o.figures().get("disturbed"));
            if (disturbedFailure && max == 1) {
                return new Outcome(o.scenario(), o.combination(), o.figures(), o.rule(), o.pass(),
                        "failed while disturbed, kept and marked so: this scenario runs once; " + o.note());
            }
            if (!disturbedFailure || n == max) {
                return n == 1 ? o : new Outcome(o.scenario(), o.combination(), o.figures(), o.rule(), o.pass(),
                        "attempt " + n + " of " + max + ", the ones before failed disturbed"
                                + (o.note().isEmpty() ? "" : "; " + o.note()));
            }
            out.printf(Locale.ROOT, "  %s failed while disturbed (%s): running it again, attempt %d of %d%n",
                    o.scenario(), o.note(), n + 1, max);
            out.flush();
        }
    }

    /**
     * The outcome with what the rest of the machine did while it ran: {@code foreign_cpu} (cores, on average over
     * the scenario) and {@code steal_pct}, and {@code disturbed} with a note where either passed bench's threshold
     * ({@link tables.Row#DISTURBED_FOREIGN_CPU}, {@link tables.Row#DISTURBED_STEAL_PCT}). A pass rule is not
     * changed by it: a reader is told that a neighbour may have made a figure, not the server.
     */
    static Outcome withConditions(Outcome o, harness.CpuWatch.Conditions during) {
        if (Double.isNaN(during.foreignCores())) {
            return o;
        }
        Map<String, Object> figures = new LinkedHashMap<>(o.figures());
        figures.put("foreign_cpu", Math.round(during.foreignCores() * 100) / 100.0);
        figures.put("steal_pct", Math.round(during.stealPct() * 10) / 10.0);
        boolean disturbed = tables.Row.disturbs(during.foreignCores(), during.stealPct());
        figures.put("disturbed", disturbed);
        String note = !disturbed ? o.note() : String.format(Locale.ROOT, "disturbed: foreign CPU %.2f cores,"
                + " steal %.1f%% on average while it ran%s", during.foreignCores(), during.stealPct(),
                o.note().isEmpty() ? "" : "; " + o.note());
        return new Outcome(o.scenario(), o.combination(), figures, o.rule(), o.pass(), note);
    }

    /** stress.csv: scenario, server, engine, mode, pass, the union of the figure columns, rule, note. */
    static void write(Path folder, List<Outcome> outcomes) throws IOException {
        Set<String> figures = new LinkedHashSet<>();
        outcomes.forEach(o -> figures.addAll(o.figures().keySet()));
        List<String> header = new ArrayList<>(List.of("scenario", "server", "engine", "mode", "pass"));
        header.addAll(figures);
        header.addAll(List.of("rule", "note"));
        List<List<String>> lines = new ArrayList<>();
        for (Outcome o : outcomes) {
            List<String> cells = new ArrayList<>(List.of(o.scenario(), o.combination().server().id(),
                    o.combination().engine().id(), o.combination().mode().id(), String.valueOf(o.pass())));
            // empty: a figure the scenario did not write, or one it could not read (Scenario.Unread)
            figures.forEach(k -> cells.add(o.figures().get(k) == null || o.figures().get(k) instanceof Scenario.Unread
                    ? "" : String.valueOf(o.figures().get(k))));
            cells.addAll(List.of(o.rule(), o.note()));
            lines.add(cells);
        }
        Files.createDirectories(folder);
        base.AtomicFile.write(folder.resolve(FILE), tables.CsvWriter.text(header, lines));
    }

    /** One outcome on one line: PASS/FAIL, scenario, combination, figures, rule, note. */
    static String line(Outcome o) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-4s %-9s %-28s", o.pass() ? "PASS" : "FAIL",
                o.scenario(), o.combination()));
        o.figures().forEach((k, v) -> b.append(' ').append(k).append('=')
                .append(v instanceof Scenario.Unread ? "(not read)" : v));
        b.append("\n       rule: ").append(o.rule());
        if (!o.note().isEmpty()) {
            b.append("\n       note: ").append(o.note());
        }
        return b.toString();
    }

    /** The table at the end: one line per scenario and combination. */
    public static void printTable(List<Outcome> outcomes, PrintStream out) {
        out.println();
        out.println("stress results:");
        BiFunction<String, Integer, String> pad = (s, w) -> String.format(Locale.ROOT, "%-" + w + "s", s);
        for (Outcome o : outcomes) {
            out.println(pad.apply(o.pass() ? "PASS" : "FAIL", 5) + line(o).substring(5));
        }
        long failed = outcomes.stream().filter(o -> !o.pass()).count();
        out.printf(Locale.ROOT, "%d of %d passed%n", outcomes.size() - failed, outcomes.size());
    }
}
