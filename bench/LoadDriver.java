package bench;

import base.UsageException;
import http.Protocol;
import load.LoadGenerator;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A load generator that measures a point's window ({@code bench --driver}): PssrBench's own ({@link PssrBenchDriver})
 * or Hyperfoil's engine ({@link HyperfoilDriver}), listed in {@link LoadDrivers}. Where they differ is said here as
 * data (what they time, where their load comes from, what they speak), so that neither the sweep, nor the point's
 * measurement, nor the command line asks which one it is.
 */
public interface LoadDriver {

    /**
     * What a driver is and what it can do, as data.
     *
     * @param id              {@code --driver}'s value, and the name the help gives it
     * @param help            what {@code --driver}'s help says of it, in brackets after its id
     * @param tool            the tool column of its rows (and of runs.csv, whose repetitions a resume goes on from)
     * @param provenance      a sweep's load generator in provenance.json
     * @param http1Only       whether it measures over HTTP/1.1 only: bench refuses another --protocol with it
     * @param timesFirstBytes whether it times the first byte and the first item (their histograms in hgrm/)
     * @param childJvm        whether its load comes from a JVM it starts, a child of this one: then this JVM's
     *                        process tree is the client's CPU, rather than this JVM alone
     */
    record About(String id, String help, String tool, String provenance, boolean http1Only, boolean timesFirstBytes,
                 boolean childJvm) {

        /** {@code p} when this driver measures over it, else one sentence naming the default driver, which does. */
        public Protocol check(Protocol p) {
            if (http1Only && p != Protocol.H1) {
                throw new UsageException("--driver=" + id + " measures over HTTP/1.1 only: leave out --protocol, or"
                        + " use --driver=" + LoadDrivers.DEFAULT + " for " + p.id() + ".");
            }
            return p;
        }
    }

    About about();

    /**
     * Whether a failed window over {@code p} fails that point alone (a failed row, the sweep goes on with the next
     * one), rather than the server it loads (an exception: the repetition's points left fail with it).
     */
    boolean failsPointOnly(Point p);

    /** Ready to measure, once per sweep before its first window (Hyperfoil's class path fetched and compiled). */
    LoadDriver prepare() throws IOException, InterruptedException;

    /**
     * One point's warm-up and window ({@code plan}: its URL, connections, threads, warm-up and window; {@code out}:
     * the results folder; {@code name}: the window's files), {@code measuring} run when the measured window begins,
     * {@code stopped} ending it early.
     */
    LoadGenerator.Result run(LoadGenerator.Plan plan, Point p, Path out, String name, BooleanSupplier stopped,
                             Runnable measuring) throws IOException, InterruptedException;

    /** What its rows' notes say of it with this warm-up rule ({@code steady} null: a fixed warm-up); null: nothing. */
    String remark(LoadGenerator.Steady steady);

    /** A driver that can also write a point as a benchmark to run elsewhere ({@code bench --export}). */
    interface Exports {
        /**
         * Every point of {@code combination} (pages x connections x rates; no rate: the closed loop) written to
         * {@code dir} for the {@code agents} that load the server at {@code base}; returns the files written.
         */
        List<Path> export(site.Combination combination, List<model.Page> pages, List<Integer> connections,
                          List<Double> rates, URI base, Duration warmup, LoadGenerator.Steady steady,
                          Duration duration, List<String> agents, Path dir) throws IOException, InterruptedException;
    }
}
