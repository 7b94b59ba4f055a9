package harness;

import base.Failure;
import base.UsageException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A CPU list as {@code taskset -c} reads it (numbers, ranges and ranges with a stride: {@code 0}, {@code 0-3},
 * {@code 1,3-5}, {@code 0-6:2}), checked before bench starts anything: taskset would refuse a bad one only when the
 * server starts, and every point would then be written as invalid.
 */
public final class CpuList {

    private static final Pattern ITEM = Pattern.compile("(\\d{1,6})(?:-(\\d{1,6})(?::(\\d{1,6}))?)?");

    private CpuList() {
    }

    /** Refuses, in one sentence, a list that is not taskset's syntax or names a CPU this process cannot use. */
    public static void check(String option, String list) {
        SortedSet<Integer> usable = usable();
        Optional<SortedSet<Integer>> cpus = parse(list);
        if (cpus.isEmpty() || !usable.containsAll(cpus.get())) {
            throw new UsageException(option + " takes a list of this machine's CPUs (" + format(usable) + ") as"
                    + " taskset -c does, numbers and ranges such as 0 or 0-1,3, not '" + list + "'.");
        }
        if (!tasksetFound()) {
            throw new Failure(option + " needs taskset, which is not installed (util-linux); install it or leave out"
                    + " --server-cpus and --client-cpus.");
        }
    }

    /**
     * How bench places the server and the load generator when neither is pinned: {@code apart} with disjoint CPU
     * lists, or sharing all CPUs, and a sentence saying which (for the provenance and the report's header).
     */
    public record Split(boolean apart, String server, String client, String text) {
    }

    /**
     * Disjoint halves of the usable CPUs (the server the first half) where there are 4 or more and taskset is
     * installed: with fewer, a half is one core, and a server or client pinned to one core measures that core's
     * limit rather than the software; else both share every CPU, said plainly.
     */
    public static Split split(SortedSet<Integer> usable, boolean taskset) {
        if (usable.size() >= 4 && taskset) {
            SortedSet<Integer> server = new TreeSet<>(usable.stream().limit(usable.size() / 2).toList());
            SortedSet<Integer> client = new TreeSet<>(usable);
            client.removeAll(server);
            return new Split(true, format(server), format(client), "apart: server on CPUs " + format(server)
                    + ", load generator on CPUs " + format(client) + " (bench's default with 4 or more CPUs)");
        }
        return new Split(false, null, null, "shared: the server and the load generator share this machine's "
                + usable.size() + " CPU" + (usable.size() == 1 ? "" : "s") + (usable.size() >= 4
                ? " (taskset is not installed)" : " (bench pins them apart only with 4 or more)"));
    }

    /** {@link #split(SortedSet, boolean)} for this process's CPUs and PATH. */
    public static Split split() {
        return split(usable(), tasksetFound());
    }

    /** Whether taskset is on the PATH. */
    static boolean tasksetFound() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset")));
    }

    /** The CPUs a list names, or empty when it is not taskset's list syntax. */
    static Optional<SortedSet<Integer>> parse(String list) {
        SortedSet<Integer> cpus = new TreeSet<>();
        for (String item : list.split(",", -1)) {
            Matcher m = ITEM.matcher(item.strip());
            if (!m.matches()) {
                return Optional.empty();
            }
            int from = Integer.parseInt(m.group(1));
            int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
            int stride = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
            if (to < from || stride < 1) {
                return Optional.empty();
            }
            for (int cpu = from; cpu <= to; cpu += stride) {
                cpus.add(cpu);
            }
        }
        return Optional.of(cpus);
    }

    /**
     * The CPUs this process may run on (its affinity, inherited by what it starts): the kernel's list, else every
     * CPU the JVM counts.
     */
    static SortedSet<Integer> usable() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    Optional<SortedSet<Integer>> allowed = parse(line.substring(line.indexOf(':') + 1).strip());
                    if (allowed.isPresent() && !allowed.get().isEmpty()) {
                        return allowed.get();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall back below
        }
        SortedSet<Integer> all = new TreeSet<>();
        for (int cpu = 0; cpu < Runtime.getRuntime().availableProcessors(); cpu++) {
            all.add(cpu);
        }
        return all;
    }

    /** The shortest list form: {@code 0-3,6}. */
    static String format(SortedSet<Integer> cpus) {
        StringBuilder out = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int cpu : cpus) {
            if (previous != null && cpu == previous + 1) {
                previous = cpu;
                continue;
            }
            append(out, start, previous);
            start = cpu;
            previous = cpu;
        }
        append(out, start, previous);
        return out.toString();
    }

    private static void append(StringBuilder out, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        out.append(out.isEmpty() ? "" : ",").append(start).append(start.equals(end) ? "" : "-" + end);
    }
}
