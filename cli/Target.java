package cli;

import base.Durations;
import base.Failure;
import base.UsageException;
import base.Version;
import http.Protocol;
import http.Tls;
import model.Engine;
import model.Mode;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.ServerInfo;
import verify.Handshake;
import verify.TimedFetch;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --target}: a server that is already running, which verify and bench did not start. What it runs, and at
 * which delay, comes from its {@link ServerInfo#PATH}; --server, --engine and --mode may be left out (then they are
 * taken from it) or must agree with it. A server without /info.json (not a pssrbench serve, or an older one) is
 * taken on trust: the one combination named on the command line, at the --delay given there. The URL is checked
 * first, before any connection ({@link TargetUrl}). Over https the client trusts {@code trust} (the certificates of
 * {@code --trust}) or, when null, the default trust store; a failed handshake is one sentence naming the
 * certificate's problem (exit 1).
 */
public record Target(URI url, ServerInfo info, Combination combination, Duration delay, String note,
                     SSLContext trust) {

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The usage checks first (a URL, known ids), then one request to the server. {@code server}, {@code engine},
     * {@code mode}: null when not named; {@code delay}: the command's --delay, {@code delayGiven} if the user gave it;
     * {@code trustFile}: --trust, or null for the default trust store.
     */
    public static Target resolve(String text, boolean allowRemote, String server, String engine, String mode,
                                 Duration delay, boolean delayGiven, Path trustFile) {
        TargetUrl checked = TargetUrl.check(text, allowRemote);
        URI url = checked.url();
        if (trustFile != null && !url.getScheme().equals("https")) {
            throw new UsageException("--trust goes with an https:// --target: over http there is no certificate.");
        }
        SSLContext trust = trustFile == null ? null : Tls.trusting(trustFile);
        // Which host is measured, in every note that goes into the results: it may be another machine.
        String where = checked.local() ? "" : " (on another machine: " + checked.measured() + ")";
        Server s = server == null ? null : Registry.server(server);
        Engine e = engine == null ? null : Registry.engine(engine);
        Mode a = mode == null ? null : Registry.mode(mode);
        Fetched fetched = fetch(url, trust);
        if (fetched.info() == null) {
            if (s == null || e == null || a == null) {
                throw new UsageException("the server at " + url + " does not say what it runs (" + fetched.why()
                        + "): name its combination with --server, --engine and --mode, or measure it as a foreign"
                        + " app with --label=NAME and --delay.");
            }
            return new Target(url, null, new Combination(s, e, a), delay, "the server at " + url + where
                    + " does not say what it runs (" + fetched.why() + "): taken on trust as " + s.id() + " "
                    + e.id() + " " + a.id() + " with " + Durations.format(delay) + " per item (--delay)", trust);
        }
        ServerInfo info = fetched.info();
        ServeConfig config = read(url, info);
        boolean https = url.getScheme().equals("https");
        if (config.protocol().tls() != https) {
            throw new UsageException("the server at " + url + " speaks " + config.protocol().id() + " (its "
                    + ServerInfo.PATH + "), " + (https ? "in clear text: give an http:// URL."
                    : "over TLS: give an https:// URL."));
        }
        Combination running = config.combination();
        List<String> differ = new ArrayList<>();
        if (s != null && s != running.server()) {
            differ.add("--server=" + s.id());
        }
        if (e != null && e != running.engine()) {
            differ.add("--engine=" + e.id());
        }
        if (a != null && a != running.mode()) {
            differ.add("--mode=" + a.id());
        }
        if (!differ.isEmpty()) {
            throw new UsageException("the server at " + url + " runs " + running + ", not " + String.join(" ", differ)
                    + "; leave out --server, --engine and --mode to take them from it.");
        }
        Duration runs = config.delay();
        if (delayGiven && !delay.equals(runs)) {
            throw new UsageException("the server at " + url + " runs with " + Durations.format(runs) + " per item"
                    + " (its serve --delay); leave out --delay, which sets the delay of servers started here.");
        }
        return new Target(url, info, running, runs, "the server at " + url + where + " runs " + running + " with "
                + Durations.format(runs) + " per item (its " + ServerInfo.PATH + ")", trust);
    }

    /**
     * The protocol the client speaks to the server: what its /info.json says (checked against the URL's scheme
     * when resolved); a server taken on trust speaks HTTP/1.1, over TLS when the URL is https.
     */
    public Protocol protocol() {
        ServeConfig config = config();
        if (config != null) {
            return config.protocol();
        }
        return url.getScheme().equals("https") ? Protocol.H1S : ServeConfig.DEFAULT_PROTOCOL;
    }

    /**
     * What the server runs, read back from its /info.json ({@link ServeConfig#from}: the flags it does not carry
     * are serve's defaults), or null for a server taken on trust.
     */
    public ServeConfig config() {
        return info == null ? null : read(url, info);
    }

    private static ServeConfig read(URI url, ServerInfo info) {
        return ServeConfig.from(info, combination(url, info), url.getHost(),
                url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80);
    }

    /** What the server at {@code url} says it runs (its /info.json), or null: not a PssrBench serve. */
    static ServerInfo info(URI url) {
        return fetch(url, null).info();
    }

    /** What the server says about itself, or null with why not. */
    private record Fetched(ServerInfo info, String why) {
    }

    /**
     * Over HTTP/1.1, which every PssrBench serve answers on its port, over TLS (h1s, h2) too: h2 offers http/1.1
     * by ALPN beside h2.
     */
    private static Fetched fetch(URI url, SSLContext trust) {
        URI uri = url.resolve(ServerInfo.PATH);
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TimedFetch.CONNECT_TIMEOUT);
        HttpClient client = (trust == null ? builder : builder.sslContext(trust)).build();
        try {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri).timeout(ANSWER_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                return new Fetched(null, ServerInfo.PATH + " answered " + r.statusCode());
            }
            try {
                return new Fetched(ServerInfo.parse(r.body()), null);
            } catch (IOException e) {
                return new Fetched(null, "its " + ServerInfo.PATH + " is not PssrBench's");
            }
        } catch (IOException e) {
            String certificate = Handshake.problem(e, trust != null);
            if (certificate != null) {
                throw new Failure("the TLS handshake with " + url + " failed: " + certificate + ".");
            }
            throw new Failure("nothing answers at " + url + ": " + TimedFetch.why(e) + ".");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure("interrupted while asking " + uri + ".");
        } finally {
            client.shutdownNow();
        }
    }

    /** The combination the server says it runs, in this version's registry. */
    private static Combination combination(URI url, ServerInfo info) {
        try {
            return new Combination(Registry.server(info.server()), Registry.engine(info.engine()),
                    Registry.mode(info.mode()));
        } catch (UsageException e) {
            throw new Failure("the server at " + url + " runs " + info.combinationIds() + " (pssrbench "
                    + info.pssrbench() + "), which this pssrbench " + Version.VERSION + " does not know.");
        }
    }
}
