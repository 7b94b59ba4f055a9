package cli;

import base.UsageException;
import bench.LoadDriver;
import http.Protocol;
import site.Combination;

import java.util.List;

/**
 * {@code bench --protocol} and {@code --streams}: what may be measured over what, each refusal one sentence (exit 2).
 * The protocol flows to the servers bench starts as serve's (their configuration refuses what they do not speak);
 * these checks come first, so that nothing is started or written for a sweep that cannot run.
 */
final class BenchProtocols {

    static final int MAX_STREAMS = 1000;

    private BenchProtocols() {
    }

    /**
     * --protocol's list ({@code asked}) and --streams checked against each other, the driver and --target (before
     * anything is asked of a server): the protocols to measure over. {@code streamsGiven}: whether the user wrote
     * --streams.
     */
    static List<Protocol> check(List<Protocol> asked, List<Integer> streams, boolean streamsGiven,
                                LoadDriver.About driver, boolean target) {
        for (Protocol p : asked) {
            check(p, driver, target);
        }
        // At most 1000: a bound on the slots the generator keeps (connections x streams); a server that allows a
        // connection fewer (its SETTINGS_MAX_CONCURRENT_STREAMS) fails the point in a sentence of its own.
        if (streams.stream().anyMatch(n -> n < 1 || n > MAX_STREAMS)) {
            throw new UsageException("--streams takes whole numbers from 1 to " + MAX_STREAMS + ".");
        }
        if (streamsGiven && asked.stream().noneMatch(Protocol::http2)) {
            throw new UsageException("--streams sets the HTTP/2 streams in flight per connection: it needs"
                    + " --protocol=h2c or h2.");
        }
        return asked;
    }

    private static void check(Protocol p, LoadDriver.About driver, boolean target) {
        driver.check(Protocol.Command.BENCH.check(p));
        if (p.tls() && target) {
            throw new UsageException("--protocol=" + p.id() + " measures servers that bench starts: over TLS it"
                    + " trusts only the certificate it made for them, and --target takes http:// URLs.");
        }
    }

    /** Every selected server must speak the protocol, as serve requires: refused as serve refuses it. */
    static void spokenBy(List<Combination> chosen, List<Protocol> over) {
        over.forEach(p -> Registry.speaking(chosen, p, true));
    }

    /**
     * A running PssrBench serve must speak the protocol on its port, as its /info.json says: HTTP/1.1 is offered
     * beside h2c, so h1 is measurable on either; one that does not say is taken on trust, as its combination is.
     */
    static void spokenBy(Target running, List<Protocol> over) {
        over.forEach(p -> spokenBy(running, p));
    }

    private static void spokenBy(Target running, Protocol p) {
        if (running.config() == null || p == Protocol.H1) {
            return;
        }
        Protocol port = running.config().protocol();
        if (port != p) {
            throw new UsageException("the server at " + running.url() + " speaks " + port.id() + " (its "
                    + site.ServerInfo.PATH + "), not --protocol=" + p.id() + ".");
        }
    }
}
