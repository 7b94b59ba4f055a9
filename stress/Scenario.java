package stress;

import http.Protocol;
import site.Combination;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A stress scenario, one entry of {@link Scenarios#ALL}: its id ({@code stress --scenario}), the protocols it runs
 * over, the settings it reads (stress's options, each default in {@link StressSettings#DEFAULTS}), how it runs, and
 * its pass rule. The rule is a function of the figures the run measured (the columns of its stress.csv row) and
 * nothing else, so that the verdict can be checked again from stress.csv, and a test can feed the rule the figures of
 * a server that misbehaves and see it fail (tests/stress/PassRulesTest).
 */
public record Scenario(String id, Set<Protocol> protocols, List<String> settings, Run run, Rule rule,
                       int attempts) {

    /** How many times a scenario runs at most while it fails disturbed: bench's windows too (Row). */
    static final int ATTEMPTS = 3;

    /**
     * A scenario that {@code stress} runs again while it fails disturbed, up to {@link #ATTEMPTS} runs in all; one
     * that must run once (the soak: up to 90 minutes at 3 attempts of its 30) says so with {@code attempts}.
     */
    public Scenario(String id, Set<Protocol> protocols, List<String> settings, Run run, Rule rule) {
        this(id, protocols, settings, run, rule, ATTEMPTS);
    }

    public Scenario {
        if (attempts < 1) {
            throw new IllegalArgumentException(id + " runs " + attempts + " times at most; it must run at least once.");
        }
        for (String option : settings) {
            if (!StressSettings.DEFAULTS.containsKey(option)) {
                throw new IllegalArgumentException(id + " reads " + option + ", which is not one of stress's"
                        + " settings: " + String.join(", ", StressSettings.DEFAULTS.keySet()) + ".");
            }
        }
    }

    /** How the scenario runs on one combination: its own server JVM(s), the client in this JVM. */
    interface Run {
        Measured run(Combination c, StressSettings s) throws IOException, InterruptedException;
    }

    /**
     * What a run measured: its figures (column name with unit suffix, as in stress.csv, to value) and a note saying
     * what it saw; {@code ifFailed} is added to the note only when the rule fails.
     */
    record Measured(Map<String, Object> figures, String note, String ifFailed) {
        Measured(Map<String, Object> figures, String note) {
            this(figures, note, "");
        }
    }

    /**
     * The pass rule: whether the figures pass, and the sentence that says the rule (it may name figures). A rule
     * that reads a figure that could not be read ({@link Unread}) does not pass: it could not be checked.
     */
    record Rule(Function<Figures, String> sentence, Predicate<Figures> passes) {
        public boolean pass(Map<String, Object> figures) {
            return verdict(figures).pass();
        }

        /** The rule applied once: its verdict, and the first figure it needed and could not read (else null). */
        Verdict verdict(Map<String, Object> figures) {
            try {
                return new Verdict(passes.test(new Figures(figures)), null);
            } catch (NotRead e) {
                return new Verdict(false, e.figure);
            }
        }

        public String sentence(Map<String, Object> figures) {
            return sentence.apply(new Figures(figures));
        }
    }

    /** A rule's verdict on figures: whether they pass, and the figure it could not read (null when it read all). */
    record Verdict(boolean pass, String unread) {
    }

    /**
     * A figure the run could not read, in place of its value, and why: one read over JMX is -1 when the attach to
     * the server failed (seen in CI's full tier), and a rule comparing two such -1s passed without checking anything.
     * stress.csv holds an empty cell for it.
     */
    record Unread(String why) {
    }

    /** A rule read a figure that could not be read: the rule cannot say whether the server passed. */
    private static final class NotRead extends RuntimeException {
        final String figure;

        NotRead(String figure) {
            super(figure, null, false, false);
            this.figure = figure;
        }
    }

    /** A run's figures read by name; a figure the run did not write fails fast, naming it. */
    record Figures(Map<String, Object> map) {
        double num(String name) {
            return ((Number) get(name)).doubleValue();
        }

        long count(String name) {
            return ((Number) get(name)).longValue();
        }

        boolean yes(String name) {
            return (Boolean) get(name);
        }

        private Object get(String name) {
            Object v = map.get(name);
            if (v == null) {
                throw new IllegalArgumentException("no figure " + name + " among " + map.keySet());
            }
            if (v instanceof Unread) {
                throw new NotRead(name);
            }
            return v;
        }
    }

    /**
     * The outcome on {@code c}: the figures, the rule's sentence and verdict on them, and the note. A rule that needed
     * a figure that could not be read fails, and its note says so first, naming every figure not read and why, so
     * that "could not check" reads apart from "the server failed".
     */
    Outcome judge(Combination c, Measured m) {
        Verdict verdict = rule.verdict(m.figures());
        boolean pass = verdict.pass();
        String note = pass || m.ifFailed().isEmpty() ? m.note()
                : (m.note().isEmpty() ? m.ifFailed() : m.note() + " " + m.ifFailed());
        String needed = verdict.unread();
        if (needed != null) {
            note = notRead(needed, m.figures()) + (note.isEmpty() ? "" : " " + note);
        }
        return new Outcome(id, c, m.figures(), rule.sentence(m.figures()), pass, note);
    }

    /** The note of a rule that needed {@code needed}, which could not be read: every figure not read, and why. */
    private static String notRead(String needed, Map<String, Object> figures) {
        Map<String, List<String>> byWhy = new java.util.LinkedHashMap<>();
        figures.forEach((name, v) -> {
            if (v instanceof Unread u) {
                byWhy.computeIfAbsent(u.why(), k -> new java.util.ArrayList<>()).add(name);
            }
        });
        StringBuilder b = new StringBuilder("not checked: the rule needs " + needed + ", which could not be read;");
        byWhy.forEach((why, names) -> b.append(" not read: ").append(String.join(", ", names)).append(" (")
                .append(why).append(");"));
        b.setCharAt(b.length() - 1, '.');
        return b.toString();
    }

    static double ms(long micros) {
        return round(micros / 1000.0);
    }

    /** A figure to two decimals, as stress.csv shows it (and the pass rules read it). */
    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
