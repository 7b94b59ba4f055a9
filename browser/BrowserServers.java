package browser;

import harness.ServerProcess;
import http.Protocol;
import model.Page;
import site.Combination;
import site.ServeConfig;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Where a browser run's pages come from: servers started here, each in a JVM of its own as bench starts them, over
 * the protocol asked, those over TLS with the run's one certificate ({@link BrowserTls}, which the browser is told
 * to accept); or the one running at {@code --target} (then nothing is started or stopped, and its buffered
 * counterpart is its own {@code /buffered/PAGE}, or none).
 */
final class BrowserServers implements AutoCloseable {

    /** A server to load pages from; closing one started here stops it. */
    interface Served extends AutoCloseable {
        URI url(Page<?> page);

        @Override
        void close() throws InterruptedException;
    }

    /** The server at --target, or null: servers are started here. */
    private final URI target;
    /** Where the --target server serves a page's buffered counterpart (null: it is measured alone). */
    private final Function<Page<?>, URI> bufferedTarget;
    private final Duration delay;
    private final Path logs;
    /** The certificate of the servers over TLS (null when none is, or at --target). */
    private final BrowserTls tls;

    private BrowserServers(URI target, Function<Page<?>, URI> bufferedTarget, Duration delay, Path logs,
                           BrowserTls tls) {
        this.target = target;
        this.bufferedTarget = bufferedTarget;
        this.delay = delay;
        this.logs = logs;
        this.tls = tls;
    }

    /**
     * Servers started here at {@code delay}, logging into {@code logs}, over {@code protocols} (a certificate is
     * made when one of them is over TLS); or, with {@code target}, that server and {@code bufferedTarget}.
     */
    static BrowserServers of(URI target, Function<Page<?>, URI> bufferedTarget, Duration delay, Path logs,
                             List<Protocol> protocols) throws IOException {
        boolean tls = target == null && protocols.stream().anyMatch(Protocol::tls);
        return new BrowserServers(target, bufferedTarget, delay, logs, tls ? BrowserTls.make() : null);
    }

    /** The browser's flags beyond {@link Chromium#FLAGS}: the certificate to accept, when servers speak TLS. */
    /** The public-key hashes of the certificate the servers started here use, for Chromium to accept. */
    List<String> trustedKeys() {
        return tls == null ? List.of() : List.of(tls.pin());
    }

    /** What provenance.json says of the certificate, null without TLS. */
    String tlsNote() {
        return tls == null ? null : "a self-signed EC P-256 certificate for " + ServeConfig.DEFAULT_HOST + " made"
                + " at the run's start and given to every server over TLS; the browser accepts it alone, by its"
                + " public key (" + tls.chromiumFlag() + ")";
    }

    /**
     * {@code c} served over {@code protocol} (its log's name ends in {@code suffix}), or the --target server's page
     * of {@code c}'s kind.
     */
    Served serve(Combination c, Protocol protocol, String suffix) throws IOException, InterruptedException {
        if (target != null) {
            boolean buffered = c.mode().wholePage() && bufferedTarget != null;
            return new Served() {
                public URI url(Page<?> page) {
                    return buffered ? bufferedTarget.apply(page) : target.resolve(page.path());
                }

                public void close() {
                }
            };
        }
        ServeConfig config = ServeConfig.of(c, delay).withProtocol(protocol);
        Path log = logs.resolve(c.server().id() + "-" + c.engine().id() + "-" + c.mode().id()
                + suffix + ".server.log");
        ServerProcess server = ServerProcess.serve(tls == null ? config : tls.serve(config), log);
        return new Served() {
            public URI url(Page<?> page) {
                return server.base().resolve(page.path().substring(1));
            }

            public void close() throws InterruptedException {
                server.close();
            }
        };
    }

    /** The certificate's files are deleted. */
    @Override
    public void close() {
        if (tls != null) {
            tls.close();
        }
    }
}
