package browser;

import bench.ServerProcess;
import core.Combination;
import core.Page;
import core.Protocol;
import core.ServeConfig;

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

    private final BrowserBench.Plan plan;
    /** The certificate of the servers over TLS (null when none is, or at --target). */
    private final BrowserTls tls;

    private BrowserServers(BrowserBench.Plan plan, BrowserTls tls) {
        this.plan = plan;
        this.tls = tls;
    }

    /** For {@code plan}: a certificate is made when servers started here speak TLS. */
    static BrowserServers of(BrowserBench.Plan plan) throws IOException {
        boolean tls = plan.target() == null && plan.protocols().stream().anyMatch(Protocol::tls);
        return new BrowserServers(plan, tls ? BrowserTls.make() : null);
    }

    /** The browser's flags beyond {@link Chromium#FLAGS}: the certificate to accept, when servers speak TLS. */
    List<String> browserFlags() {
        return tls == null ? List.of() : List.of(tls.chromiumFlag());
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
        URI target = plan.target();
        if (target != null) {
            Function<Page<?>, URI> bufferedTarget = plan.bufferedTarget();
            boolean buffered = c.mode().wholePage() && bufferedTarget != null;
            return new Served() {
                public URI url(Page<?> page) {
                    return buffered ? bufferedTarget.apply(page) : target.resolve(page.path());
                }

                public void close() {
                }
            };
        }
        Duration delay = plan.delay();
        ServeConfig config = ServeConfig.of(c, delay).withProtocol(protocol);
        Path log = plan.out().resolve("logs/" + c.server().id() + "-" + c.engine().id() + "-" + c.mode().id()
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
