package bench;

import base.Durations;
import base.UsageException;
import http.Protocol;
import load.LoadGenerator;
import model.DataSource;
import model.Page;
import site.Combination;
import site.ServeConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Everything {@code bench} was asked for, validated: the one value its flags are parsed into (cli/BenchCommand), that
 * the sweep runs ({@link Sweep}) and that writes itself back as bench's flags ({@link #args}). Its parts are named
 * after what they set: the points of each combination, the windows and their repetitions, the servers started
 * here, the load driver, the results folder, and a server running elsewhere. Each check fails with one sentence
 * (exit 2); bench's defaults live here and nowhere else, as constants the flags' annotations refer to.
 */
public record BenchConfig(Points points, Windows windows, Servers servers, Load load, Folder folder,
                          Running running) {

    /** The most connections a point may have: what stress's streams scenario opens, within a 20,000 file limit. */
    public static final int MAX_CONNECTIONS = 10_000;
    public static final String DEFAULT_PAGES = "stocks";
    /**
     * One point per combination by default, at the published study's headline concurrency: with repetitions and a
     * warm-up that reaches steady state, each point costs about half a minute per repetition, so the default spends
     * the time on measuring carefully rather than on a curve (name more counts for one).
     */
    public static final String DEFAULT_CONNECTIONS = "128";
    public static final String DEFAULT_STREAMS = "1";
    /** serve's pool size: bench measures the servers as they serve by default. */
    public static final String DEFAULT_THREADS = "" + ServeConfig.DEFAULT_THREADS;
    /** The largest pool --threads takes: as many threads as a point may have connections, each waiting on one. */
    public static final int MAX_THREADS = MAX_CONNECTIONS;
    /**
     * Six: the fewest fresh JVMs whose median has a real 95% interval (their range covers it at 96.9%; five give a
     * 93.75% range), and enough for compare's rank test (with three per side no difference can reach p < 0.05).
     */
    public static final String DEFAULT_REPEAT = "6";
    /**
     * Off: exactly --repeat. Here even a data-source-bound point (nima jstachio virtual, Stocks, 128 connections)
     * needed more than 10 JVMs for ±3%: a default precision would send most points to --repeat-max (docs/method.md).
     */
    public static final String DEFAULT_PRECISION = "off";
    /** The most repetitions --precision adds up to (or --repeat, if more): a cap on a point whose JVMs never agree. */
    public static final int DEFAULT_REPEAT_MAX = 10;
    /**
     * A JVM warmed once (WarmOnce), each later point settled 2 s: equal to a full warm-up per point on nima (6 of 6
     * points) and javalin (4 of 4), 6 pairs of JVMs each, 2026-11-28 (docs/method.md); it saves 11 to 37% of a ramp.
     */
    public static final String DEFAULT_SETTLE = "2s";
    /** The most windows per point per JVM that --windows takes. */
    public static final int MAX_WINDOWS = 10;
    /**
     * A point's window after its first in the same JVM (--windows above 1) waits this long for the load generator's
     * new connections, the load being the one the JVM was just at (not yet shown to read as the first: docs/method.md).
     */
    public static final Duration NEXT_WINDOW = Duration.ofSeconds(2);
    public static final String OFF = "off";
    public static final String AUTO = "auto";
    /** One: --windows=auto (Kalibera-Jones) saw a point's later windows read up to 17% low (docs/method.md). */
    public static final String DEFAULT_WINDOWS = "1";
    public static final String DEFAULT_WARMUP = AUTO;
    public static final String DEFAULT_WARMUP_MAX = "60s";
    public static final String DEFAULT_DURATION = "5s";
    public static final String DEFAULT_LOAD_THREADS = "1";
    public static final String DEFAULT_DRIVER = LoadDrivers.DEFAULT;
    /** --no-aot-cache's help, beside the defaults: what the cache is, where it lives, when it is off. */
    public static final String NO_AOT_CACHE_HELP = "Start the server JVMs without an AOT cache. By default they start"
            + " from a JDK AOT cache (JDK 25 or newer, the packaged jar), trained once per jar, JDK and combination"
            + " in $XDG_CACHE_HOME/pssrbench/aot or ~/.cache/pssrbench/aot (" + harness.AotCache.FOLDER_ENV
            + " names another folder).";

    /**
     * What each combination is measured at: every page x connection count x rate (none: the closed loop), over each
     * protocol (a server JVM of its own per protocol), HTTP/2's at each streams count in flight per connection, and,
     * where the combination has a platform pool ({@link model.Serving#onPlatformPool}), at each pool size (a server JVM of its own per
     * size; the others once, at serve's default, which they do not use).
     */
    public record Points(List<Page> pages, List<Integer> connections, List<Double> rates, List<Protocol> protocols,
                         List<Integer> streams, List<Integer> threads) {
        public Points {
            protocols = List.copyOf(new LinkedHashSet<>(protocols));   // a protocol named twice is measured once
            threads = List.copyOf(new LinkedHashSet<>(threads));   // and a pool size
            if (protocols.isEmpty() || threads.isEmpty()) {
                throw new IllegalArgumentException("a sweep measures over at least one protocol and pool size");
            }
        }

        /** At serve's pool size. */
        public Points(List<Page> pages, List<Integer> connections, List<Double> rates, List<Protocol> protocols,
                      List<Integer> streams) {
            this(pages, connections, rates, protocols, streams, List.of(ServeConfig.DEFAULT_THREADS));
        }

        /** The same at these pool sizes. */
        public Points withThreads(List<Integer> sizes) {
            return new Points(pages, connections, rates, protocols, streams, sizes);
        }

        /** The pool sizes {@code c}'s server JVMs start with: each one where it has a pool, else serve's default. */
        List<Integer> threads(Combination c) {
            return c != null && c.serving().onPlatformPool() ? threads : List.of(ServeConfig.DEFAULT_THREADS);
        }

        /** The streams per connection measured over {@code p}: HTTP/1.1 has one request in flight per connection. */
        List<Integer> streams(Protocol p) {
            return p.http2() ? streams : List.of(1);
        }

        /** Whether any point is measured over HTTP/2. */
        boolean http2() {
            return protocols.stream().anyMatch(Protocol::http2);
        }
    }

    /**
     * Each point's warm-up ({@link #AUTO}, adaptive up to {@code warmupMax}, or a fixed duration) and window, measured
     * {@code repeat} times at least in an order shuffled from {@code seed} (null: a new one, chosen when the sweep
     * starts), then again up to {@code repeatMax} times while its interval is wider than {@code precision} %
     * ({@link #OFF}: exactly {@code repeat}); in each JVM, a point after the first warmed only for {@code settle}
     * ({@link #OFF}: each its own warm-up), {@code windows} windows of each point ({@link #AUTO}: Kalibera-Jones).
     */
    public record Windows(int repeat, Long seed, String warmup, Duration warmupMax, Duration duration, String settle,
                          String windows, String precision, int repeatMax) {

        /** With the settle, windows and precision at their defaults. */
        public Windows(int repeat, Long seed, String warmup, Duration warmupMax, Duration duration) {
            this(repeat, seed, warmup, warmupMax, duration, DEFAULT_SETTLE, DEFAULT_WINDOWS, OFF, repeat);
        }

        /** The same with this seed. */
        public Windows withSeed(long s) {
            return new Windows(repeat, s, warmup, warmupMax, duration, settle, windows, precision, repeatMax);
        }

        /** A later point's warm-up in a warm JVM; null: each point warms up as the first does. */
        public Duration settleTime() {
            return settle.equals(OFF) ? null : Durations.parse(settle);
        }

        /** The windows of each point per JVM, or 0 when they are chosen from the variance components. */
        public int fixedWindows() {
            return windows.equals(AUTO) ? 0 : Integer.parseInt(windows);
        }

        /** The precision asked of each point's throughput interval, in % of its median; 0: none (exactly repeat). */
        public double precisionPct() {
            return precision.equals(OFF) ? 0 : Double.parseDouble(precision);
        }

        /** Whether the warm-up adapts (--warmup=auto). */
        public boolean auto() {
            return warmup.equals(AUTO);
        }

        /** The fixed warm-up; zero when it adapts. */
        public Duration fixedWarmup() {
            return auto() ? Duration.ZERO : Durations.parse(warmup);
        }

        /** The adaptive warm-up's rule; null for a fixed one. */
        public LoadGenerator.Steady steady() {
            return auto() ? LoadGenerator.Steady.of(warmupMax) : null;
        }
    }

    /**
     * The servers bench starts: at this per-item delay and source scheduler (serve's defaults: bench measures them
     * as they serve by default), pinned to {@code serverCpus} (null: anywhere) while bench runs on
     * {@code clientCpus}, recorded with JFR, with the raw baseline beside each selection unless {@code noBaseline},
     * started from an AOT cache trained once per combination ({@link AotTraining}) unless {@code noAotCache}, with
     * {@code serverJvm}'s JVM options after each server's own ({@link ServerJvm}: none by default).
     */
    public record Servers(Duration delay, DataSource.Timers timers, String serverCpus, String clientCpus, boolean jfr,
                          boolean noBaseline, boolean noAotCache, List<String> serverJvm) {
        public Servers {
            serverJvm = ServerJvm.checked(serverJvm);
        }

        /** With no JVM options of bench's own. */
        public Servers(Duration delay, DataSource.Timers timers, String serverCpus, String clientCpus, boolean jfr,
                       boolean noBaseline, boolean noAotCache) {
            this(delay, timers, serverCpus, clientCpus, jfr, noBaseline, noAotCache, List.of());
        }
    }

    /** The load driver ({@link LoadDrivers}) and its threads; {@code export}: a folder to write benchmarks to. */
    public record Load(String driver, int loadThreads, Path export, List<String> agents) {
        public LoadDriver loadDriver() {
            return LoadDrivers.byId(driver);
        }
    }

    /** The results folder (null: results/ and a timestamp, chosen when the sweep starts); a sweep there goes on. */
    public record Folder(Path out, boolean resume) {
    }

    /** A server already running at {@code target} (a URL as given; null: servers started here), a foreign app's label. */
    public record Running(String target, String label) {
    }

    public BenchConfig {
        if (points.connections().stream().anyMatch(c -> c < 1) || load.loadThreads() < 1) {
            throw new UsageException("--connections and --load-threads take whole numbers of at least 1.");
        }
        if (points.connections().stream().anyMatch(c -> c > MAX_CONNECTIONS)) {
            throw new UsageException("--connections takes at most " + MAX_CONNECTIONS + " per point.");
        }
        if (points.threads().stream().anyMatch(t -> t < 1 || t > MAX_THREADS)) {
            throw new UsageException("--threads takes whole numbers from 1 to " + MAX_THREADS + ", the platform pool"
                    + " sizes of the servers bench starts.");
        }
        if (points.rates().stream().anyMatch(r -> r <= 0)) {
            throw new UsageException("--rate takes positive requests per second.");
        }
        if (windows.duration().isZero()) {
            throw new UsageException("--duration must be longer than 0.");
        }
        if (windows.repeat() < 1) {
            throw new UsageException("--repeat takes a whole number of at least 1.");
        }
        windows = checked(windows);
        if (!windows.auto()) {
            try {   // written back as parsed, so that an equal warm-up is an equal configuration
                windows = new Windows(windows.repeat(), windows.seed(), Durations.format(Durations.parse(
                        windows.warmup())), windows.warmupMax(), windows.duration(), windows.settle(),
                        windows.windows(), windows.precision(), windows.repeatMax());
            } catch (UsageException e) {
                throw new UsageException("--warmup takes auto or a duration: " + e.getMessage());
            }
        }
        Duration least = LoadGenerator.Steady.of(windows.warmupMax()).least();
        if (windows.auto() && windows.warmupMax().compareTo(least) < 0) {
            throw new UsageException("--warmup-max must be at least " + Durations.format(least) + ": auto compares"
                    + " two blocks of " + LoadGenerator.Steady.WINDOWS + " one-second windows.");
        }
        LoadDriver driver = load.loadDriver();
        if (load.export() != null && !(driver instanceof LoadDriver.Exports)) {
            throw new UsageException("--export writes Hyperfoil benchmarks: add --driver=hyperfoil.");
        }
        if (!load.agents().isEmpty() && load.export() == null) {
            throw new UsageException("--agents names the hosts of an exported benchmark: add --export=DIR.");
        }
        HyperfoilBenchmark.agents(load.agents());   // a malformed agent fails here, before the target is asked
        if (load.export() != null && running.target() == null) {
            throw new UsageException("--export needs --target=URL: the server the agents will load, running.");
        }
        if (load.export() != null && running.label() != null) {
            throw new UsageException("--export writes the benchmarks of a PssrBench serve, not of a foreign app"
                    + " (--label): measure it with --driver=hyperfoil on this machine instead.");
        }
        if (folder.resume() && folder.out() == null) {
            throw new UsageException("--resume continues a sweep: name its folder with --out=DIR.");
        }
        if (running.target() != null && running.target().regionMatches(true, 0, "https:", 0, 6)) {
            // --target resolves over TLS (its /info.json, --trust) for verify and browser, but bench's load generator
            // and its byte check speak clear-text HTTP/1.1: refused before any request rather than failing on each.
            throw new UsageException("bench measures over clear-text HTTP/1.1, its load generator has no TLS yet:"
                    + " give an http:// --target (verify and browser take https://).");
        }
    }

    /** The settle, windows, precision and repeat-max of {@code w} checked, and written back as parsed. */
    private static Windows checked(Windows w) {
        String settle = w.settle();
        if (!settle.equals(OFF)) {
            try {
                settle = Durations.format(Durations.parse(settle));
            } catch (UsageException e) {
                throw new UsageException("--settle takes off or a duration: " + e.getMessage());
            }
        }
        String windows = w.windows();
        if (!windows.equals(AUTO)) {
            int n = windows.matches("\\d{1,4}") ? Integer.parseInt(windows) : -1;
            if (n < 1 || n > MAX_WINDOWS) {
                throw new UsageException("--windows takes auto or a whole number from 1 to " + MAX_WINDOWS + ", not "
                        + windows + ".");
            }
            windows = String.valueOf(n);
        }
        String precision = w.precision();
        if (!precision.equals(OFF)) {
            double pct;
            try {
                pct = Double.parseDouble(precision.endsWith("%") ? precision.substring(0, precision.length() - 1)
                        : precision);
            } catch (NumberFormatException e) {
                pct = -1;
            }
            if (!(pct > 0 && pct < 100)) {
                throw new UsageException("--precision takes off or a percentage above 0 and below 100, not "
                        + precision + ".");
            }
            precision = pct == Math.rint(pct) ? String.valueOf((long) pct) : String.valueOf(pct);
        }
        // 0: not given, the default cap (or --repeat, if more)
        int most = precision.equals(OFF) ? w.repeat() : w.repeatMax() == 0 ? Math.max(w.repeat(), DEFAULT_REPEAT_MAX)
                : w.repeatMax();
        if (most < w.repeat()) {
            throw new UsageException("--repeat-max must be at least --repeat (" + w.repeat() + "): it caps the"
                    + " repetitions --precision adds.");
        }
        return new Windows(w.repeat(), w.seed(), w.warmup(), w.warmupMax(), w.duration(), settle, windows,
                precision, most);
    }

    /** bench with no flag: every part at its default. */
    public static BenchConfig defaults() {
        return new BenchConfig(new Points(List.of(Page.byId(DEFAULT_PAGES)), List.of(Integer.valueOf(
                DEFAULT_CONNECTIONS)), List.of(), List.of(Protocol.byId(Protocol.DEFAULT_TEXT)),
                List.of(Integer.valueOf(DEFAULT_STREAMS)), List.of(Integer.valueOf(DEFAULT_THREADS))),
                new Windows(Integer.parseInt(DEFAULT_REPEAT), null, DEFAULT_WARMUP, Durations.parse(DEFAULT_WARMUP_MAX),
                        Durations.parse(DEFAULT_DURATION), DEFAULT_SETTLE, DEFAULT_WINDOWS, DEFAULT_PRECISION, 0),
                new Servers(ServeConfig.DEFAULT_DELAY, ServeConfig.DEFAULT_TIMERS, null, null, false, false, false),
                new Load(DEFAULT_DRIVER, Integer.parseInt(DEFAULT_LOAD_THREADS), null, List.of()),
                new Folder(null, false), new Running(null, null));
    }

    public BenchConfig with(Points p) {
        return new BenchConfig(p, windows, servers, load, folder, running);
    }

    public BenchConfig with(Windows w) {
        return new BenchConfig(points, w, servers, load, folder, running);
    }

    public BenchConfig with(Servers s) {
        return new BenchConfig(points, windows, s, load, folder, running);
    }

    public BenchConfig with(Load l) {
        return new BenchConfig(points, windows, servers, l, folder, running);
    }

    public BenchConfig with(Folder f) {
        return new BenchConfig(points, windows, servers, load, f, running);
    }

    public BenchConfig with(Running r) {
        return new BenchConfig(points, windows, servers, load, folder, r);
    }
}
