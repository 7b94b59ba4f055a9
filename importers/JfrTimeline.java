package importers;

import tables.TimelineCsv;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The timeline of each server JVM of a results folder's {@code jfr/} (the recordings {@code bench --jfr} keeps, one
 * per measured window, named after its point), read with the JDK's own {@link RecordingFile}: second by second, the
 * server's CPU (process and machine, {@code jdk.CPULoad}), its heap used after GC and committed
 * ({@code jdk.GCHeapSummary}), its GC pauses ({@code jdk.GarbageCollection}: their sum and count), its live threads
 * ({@code jdk.JavaThreadStatistics}), the virtual threads it started and ended ({@code jdk.VirtualThreadStart/End},
 * where the recording has them) and those pinned to their carrier for 20 ms or more ({@code jdk.VirtualThreadPinned}).
 * The recordings of one JVM are told apart from another's by the JVM's own pid and start time
 * ({@code jdk.JVMInformation}), not by their names, so the windows of one ramp (one JVM going from 1 to 128 users
 * with {@code --settle}) form one timeline, on one clock, with a gap where bench settled between two windows.
 */
public final class JfrTimeline {

    /** A point's connection count in its file's name ({@code nima-jstachio-virtual-stocks-c16-rep1}). */
    private static final Pattern CONNECTIONS = Pattern.compile("-c(\\d+)(?=-|$)");
    /** What names one window of a JVM rather than the JVM: the count, a later window, a retry. */
    private static final Pattern PER_WINDOW = Pattern.compile("-(c|w|try)\\d+(?=-|$)");
    private static final double MB = 1024.0 * 1024.0;

    private JfrTimeline() {
    }

    /** One recording: its JVM and its window (its events are read again, a second at a time, not held). */
    private record Window(Path file, String point, String jvmKey, Instant start, Instant end) {
    }

    /**
     * The timeline.csv lines ({@link TimelineCsv}) of every {@code .jfr} file in {@code jfrFolder}, JVM by JVM in the
     * order they started, each JVM's windows in time order; none for a folder without recordings.
     *
     * @throws IOException a recording that cannot be read, in one sentence naming it
     */
    public static List<TimelineCsv.Line> read(Path jfrFolder) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(jfrFolder)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".jfr")).sorted().toList();
        }
        Map<String, List<Window>> jvms = new LinkedHashMap<>();
        for (Path f : files) {
            Window w = window(f);
            if (w != null) {
                jvms.computeIfAbsent(w.jvmKey(), k -> new ArrayList<>()).add(w);
            }
        }
        List<List<Window>> ordered = new ArrayList<>(jvms.values());
        ordered.forEach(ws -> ws.sort(Comparator.comparing(Window::start)));
        ordered.sort(Comparator.comparing(ws -> ws.get(0).start()));
        List<TimelineCsv.Line> lines = new ArrayList<>();
        for (List<Window> ws : ordered) {   // a JVM's clock starts at its first window's first event
            lines.addAll(lines(label(ws), ws));
        }
        return lines;
    }

    /**
     * A recording's window; null for one without a single event (stopped as it started). Streamed: a window at 128
     * connections with the virtual threads' events holds hundreds of thousands.
     */
    private static Window window(Path file) throws IOException {
        String name = file.getFileName().toString();
        String point = name.substring(0, name.length() - ".jfr".length());
        String[] jvm = {"file " + point};   // no jdk.JVMInformation (a custom setting): a JVM of its own
        // Its start is the recording's own (the latest started, where a user's --server-jvm recording runs beside
        // bench's): a thread parked or sleeping since before it is recorded with that earlier start. Without
        // jdk.ActiveRecording, its first event's end. Its end is its last event's.
        Instant[] span = {Instant.MAX, Instant.MIN, Instant.MIN};
        each(file, e -> {
            if (e.getEndTime().isBefore(span[0])) {
                span[0] = e.getEndTime();
            }
            if (e.getEndTime().isAfter(span[1])) {
                span[1] = e.getEndTime();
            }
            switch (e.getEventType().getName()) {
                case "jdk.JVMInformation" -> jvm[0] = e.getLong("pid") + "@" + e.getInstant("jvmStartTime");
                case "jdk.ActiveRecording" -> {
                    if (e.getInstant("recordingStart").isAfter(span[2])) {
                        span[2] = e.getInstant("recordingStart");
                    }
                }
                default -> {
                }
            }
        });
        Instant start = span[2].equals(Instant.MIN) || span[2].isAfter(span[0]) ? span[0] : span[2];
        return span[0].equals(Instant.MAX) ? null : new Window(file, point, jvm[0], start, span[1]);
    }

    /** Every event of {@code file}, in the file's order. */
    private static void each(Path file, java.util.function.Consumer<RecordedEvent> action) throws IOException {
        try (RecordingFile r = new RecordingFile(file)) {
            while (r.hasMoreEvents()) {
                action.accept(r.readEvent());
            }
        } catch (IOException | RuntimeException e) {   // a truncated or foreign file: named, not a stack trace
            throw new IOException("JFR recording " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The JVM's label: its windows' names without what names a window (their count, later window or retry). */
    private static String label(List<Window> windows) {
        Set<String> names = new LinkedHashSet<>();
        windows.forEach(w -> names.add(PER_WINDOW.matcher(w.point()).replaceAll("")));
        return String.join(" + ", names);
    }

    /** One JVM's lines: each window's marks and its figures second by second, on the clock of its first event. */
    private static List<TimelineCsv.Line> lines(String jvm, List<Window> windows) throws IOException {
        Instant origin = windows.get(0).start();
        List<TimelineCsv.Line> lines = new ArrayList<>();
        for (Window w : windows) {
            Matcher m = CONNECTIONS.matcher(w.point());
            double connections = m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
            lines.add(new TimelineCsv.Line(jvm, w.point(), seconds(origin, w.start()), TimelineCsv.WINDOW_START,
                    connections));
            Map<Long, Second> perSecond = new TreeMap<>();
            long first = (long) Math.floor(seconds(origin, w.start()));
            long last = (long) Math.floor(seconds(origin, w.end()));
            for (long s = first; s <= last; s++) {
                perSecond.put(s, new Second());   // every second of the window: a count of none is a zero
            }
            boolean[] virtual = {false};
            each(w.file(), e -> {   // an event begun before the window (a pause under way) in its first second
                Instant at = e.getStartTime().isBefore(w.start()) ? w.start() : e.getStartTime();
                virtual[0] |= perSecond.get((long) Math.floor(seconds(origin, at))).add(e);
            });
            for (Map.Entry<Long, Second> e : perSecond.entrySet()) {
                e.getValue().lines(jvm, w.point(), e.getKey() + 0.5, virtual[0], lines);
            }
            lines.add(new TimelineCsv.Line(jvm, w.point(), seconds(origin, w.end()), TimelineCsv.WINDOW_END,
                    connections));
        }
        return lines;
    }

    private static double seconds(Instant origin, Instant t) {
        return (t.getEpochSecond() - origin.getEpochSecond()) + (t.getNano() - origin.getNano()) / 1e9;
    }

    /** One second's events summed up: the mean of a sampled load, the last of a sampled level, the sum of a count. */
    private static final class Second {
        private double cpuProcess;
        private double cpuMachine;
        private int cpuSamples;
        private double heapUsedAfterGc = Double.NaN;
        private double heapCommitted = Double.NaN;
        private double gcPauseMs;
        private int gcCount;
        private double threads = Double.NaN;
        private int virtualStarted;
        private int virtualEnded;
        private int pinned;

        /** Adds one event; whether it was a virtual thread's start or end (the recording has those). */
        boolean add(RecordedEvent e) {
            switch (e.getEventType().getName()) {
                case "jdk.CPULoad" -> {
                    cpuProcess += e.getFloat("jvmUser") + e.getFloat("jvmSystem");
                    cpuMachine += e.getFloat("machineTotal");
                    cpuSamples++;
                }
                case "jdk.GCHeapSummary" -> {
                    heapCommitted = e.getLong("heapSpace.committedSize") / MB;
                    if ("After GC".equals(e.getString("when"))) {
                        heapUsedAfterGc = e.getLong("heapUsed") / MB;
                    }
                }
                case "jdk.GarbageCollection" -> {
                    gcPauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
                    gcCount++;
                }
                case "jdk.JavaThreadStatistics" -> threads = e.getLong("activeCount");
                case "jdk.VirtualThreadStart" -> {
                    virtualStarted++;
                    return true;
                }
                case "jdk.VirtualThreadEnd" -> {
                    virtualEnded++;
                    return true;
                }
                case "jdk.VirtualThreadPinned" -> pinned++;
                default -> {
                }
            }
            return false;
        }

        /** Its lines at {@code second}; the virtual threads' counts only from a recording that has them. */
        void lines(String jvm, String point, double second, boolean virtual, List<TimelineCsv.Line> out) {
            if (cpuSamples > 0) {
                out.add(new TimelineCsv.Line(jvm, point, second, "cpu_process_pct", 100 * cpuProcess / cpuSamples));
                out.add(new TimelineCsv.Line(jvm, point, second, "cpu_machine_pct", 100 * cpuMachine / cpuSamples));
            }
            if (!Double.isNaN(heapUsedAfterGc)) {
                out.add(new TimelineCsv.Line(jvm, point, second, "heap_used_after_gc_mb", heapUsedAfterGc));
            }
            if (!Double.isNaN(heapCommitted)) {
                out.add(new TimelineCsv.Line(jvm, point, second, "heap_committed_mb", heapCommitted));
            }
            out.add(new TimelineCsv.Line(jvm, point, second, "gc_pause_ms", gcPauseMs));
            out.add(new TimelineCsv.Line(jvm, point, second, "gc_count", gcCount));
            if (!Double.isNaN(threads)) {
                out.add(new TimelineCsv.Line(jvm, point, second, "threads_live", threads));
            }
            if (virtual) {
                out.add(new TimelineCsv.Line(jvm, point, second, "virtual_threads_started", virtualStarted));
                out.add(new TimelineCsv.Line(jvm, point, second, "virtual_threads_ended", virtualEnded));
            }
            out.add(new TimelineCsv.Line(jvm, point, second, "virtual_threads_pinned", pinned));
        }
    }
}
