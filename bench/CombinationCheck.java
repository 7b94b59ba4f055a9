package bench;

import base.Durations;
import harness.ServerProcess;
import model.Engine;
import model.Page;
import site.Combination;
import site.ServeConfig;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What a combination must pass before its points are measured: {@code verify} in a JVM of its own, then the
 * served pages at the measured delay byte for byte. Each check returns why it failed, or null; the failure becomes
 * the note of every point of the combination, which is written invalid and not measured.
 */
final class CombinationCheck {

    /**
     * The check's delay and concurrency: a quicker verify than the command's defaults (a shorter page, fewer
     * concurrent requests), still above {@link verify.Verifier#MIN_DELAY}, where progressive arrival shows.
     */
    static final Duration DELAY = Duration.ofMillis(20);
    static final int CONCURRENCY = 10;

    private final Path logs;
    private final BooleanSupplier stopped;
    private final List<String> serverJvm;
    /** The verification JVM running now, if any, so that a stop does not wait for it. */
    private volatile Process verifying;

    /**
     * {@code logs}: where each verification's output is kept; {@code serverJvm}: bench's options for the JVMs that
     * serve (--server-jvm), the verifying one too; {@code stopped}: the sweep's stop.
     */
    CombinationCheck(Path logs, List<String> serverJvm, BooleanSupplier stopped) {
        this.logs = logs;
        this.serverJvm = serverJvm;
        this.stopped = stopped;
    }

    /** Ends the verification under way, if any: called after the sweep's stop has been set. */
    void cancel() {
        Process p = verifying;
        if (p != null) {   // a verification takes many seconds: not worth finishing when the sweep ends
            p.destroy();
        }
    }

    /**
     * {@code verify} of one combination (progressive, correct, the same bytes under concurrency), in a JVM of its
     * own like the measured server: this JVM, the load generator's, never runs a server. Returns why it failed, or
     * null; its output is kept in logs/.
     */
    String verify(Combination c) throws IOException, InterruptedException {
        return verify(c, http.Protocol.H1);
    }

    /**
     * The same over {@code protocol}: verify starts the combination speaking it and checks it with a client that
     * speaks it (the point's load generator measures over it).
     */
    String verify(Combination c, http.Protocol protocol) throws IOException, InterruptedException {
        Path log = logs.resolve(Point.label(c, protocol) + ".verify.log");   // one per protocol verified over
        Process p = ServerProcess.child(ServerProcess.command(List.of(), serverJvm, verifyArgs(c, protocol)
                .toArray(String[]::new)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        verifying = p;
        if (stopped.getAsBoolean()) {
            p.destroy();
        }
        boolean ended;
        try {
            ended = p.waitFor(5, TimeUnit.MINUTES);
        } finally {
            verifying = null;
        }
        if (stopped.getAsBoolean()) {
            p.waitFor();
            return "not verified: the sweep was stopped";
        }
        if (!ended) {
            p.destroyForcibly().waitFor();
            return "failed verification: no answer within 5 minutes; see " + log;
        }
        if (p.exitValue() == 0) {   // passed, warnings included: verify exits 1 only when a check failed
            return null;
        }
        // verify prints a failed combination's failed checks first, each indented, then its warnings.
        String why = Files.readAllLines(log).stream().filter(l -> l.startsWith("    ")).map(String::strip)
                .findFirst().orElse("exit code " + p.exitValue());
        return "failed verification: " + why + " (see " + log.getFileName() + ")";
    }

    /**
     * {@code verify}'s command line for {@code c}: the combination as {@link ServeConfig#args()} writes it (verify
     * shares serve's --server, --engine and --mode; serve's defaults write nothing else), then verify's own knobs,
     * --delay always (verify's default is not serve's).
     */
    static List<String> verifyArgs(Combination c) {
        return verifyArgs(c, http.Protocol.H1);
    }

    /** The same with serve's --protocol where it is not HTTP/1.1 (verify shares it). */
    static List<String> verifyArgs(Combination c, http.Protocol protocol) {
        List<String> args = new ArrayList<>(List.of("verify"));
        args.addAll(ServeConfig.defaults(c).withProtocol(protocol).args());
        args.add("--delay=" + Durations.format(DELAY));
        args.add("--concurrency=" + CONCURRENCY);
        return args;
    }

    /**
     * The served pages at the measured delay must be byte-identical to the engines' rendering; over HTTP/1.1, which
     * every port offers (over TLS too), trusting exactly {@code tls}'s certificate (null: in clear text).
     */
    static String checkBytes(URI base, http.Tls tls, Map<Page, Map<Engine, byte[]>> expected)
            throws InterruptedException {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
        HttpClient client = (tls == null ? builder : builder.sslContext(tls.trustingContext())).build();
        try {
            for (Page page : Page.values()) {
                byte[] want = expected.get(page).values().iterator().next();
                HttpResponse<byte[]> r;
                try {
                    r = client.send(HttpRequest.newBuilder(base.resolve(page.id())).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                } catch (IOException e) {   // a server gone since it was asked: its points are invalid, said why
                    return "failed verification: GET " + page.path() + " at " + base + " failed: "
                            + verify.TimedFetch.why(e);
                }
                if (r.statusCode() != 200 || !Arrays.equals(want, r.body())) {
                    return "failed verification: " + page.path() + " answered " + r.statusCode() + " with "
                            + r.body().length + " bytes, not the verified page";
                }
            }
            return null;
        } finally {
            client.shutdownNow();
        }
    }
}
