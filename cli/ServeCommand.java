package cli;

import base.Durations;
import harness.Signals;
import http.ConnectionLimits;
import http.ListenAddress;
import http.Protocol;
import model.DataSource;
import site.Demo;
import site.Logs;
import site.ServeConfig;
import site.Server;
import site.ServerStats;
import site.Site;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code serve}, the default command: one combination until Ctrl-C or SIGTERM. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Serve /presentations and /stocks progressively with one combination until Ctrl-C or"
                + " SIGTERM (in-flight pages get --grace to finish).")
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--server", paramLabel = "ID", defaultValue = "${bundle:registry.server}",
            description = "HTTP server: ${bundle:registry.servers} (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--engine", paramLabel = "ID", defaultValue = "${bundle:registry.engine}",
            description = "Template engine: ${bundle:registry.engines} (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--mode", paramLabel = "ID", defaultValue = "${bundle:registry.mode}",
            description = "Mode: ${bundle:registry.modes} (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = ServeConfig.DEFAULT_HOST,
            description = "Address to listen on (default: ${DEFAULT-VALUE}): this machine only; 0.0.0.0 or :: for"
                    + " every interface, which makes the server reachable from other machines (serve says so on"
                    + " stderr).")
    String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + ServeConfig.DEFAULT_PORT,
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--delay", paramLabel = "DURATION", defaultValue = ServeConfig.DEFAULT_DELAY_TEXT,
            description = "Per-item delay of the data source (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration delay;

    @Option(names = "--source-scheduler", paramLabel = "ID", defaultValue = DataSource.Timers.DEFAULT_TEXT,
            description = "Where the data source's delays run: computation (RxJava's per-core pool) or io (its"
                    + " cached pool, a thread per delay in flight, as the published study's app) (default:"
                    + " ${DEFAULT-VALUE}).")
    DataSource.Timers timers;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "" + ServeConfig.DEFAULT_THREADS,
            description = "Platform threads of the blocking mode's pool (default: ${DEFAULT-VALUE}, as Tomcat"
                    + " and Jetty).")
    int threads;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = ServeConfig.DEFAULT_GRACE_TEXT,
            description = "On Ctrl-C or SIGTERM, how long in-flight pages may finish (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration grace;

    @Option(names = "--demo", description = "Also serve /demo, the page rendered progressively and buffered side by"
            + " side (the buffered half from /buffered/PAGE: the same engine in the buffered mode); the delay is "
            + Demo.DEFAULT_DELAY_TEXT + " unless --delay is given.")
    boolean demo;

    @Option(names = "--fail-after", paramLabel = "N", defaultValue = "" + ServeConfig.NEVER_FAIL,
            description = "Testing: the data source fails after N items, to exercise aborted pages"
                    + " (default: ${DEFAULT-VALUE}, never).")
    int failAfter;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--backlog", paramLabel = "N", defaultValue = "" + ConnectionLimits.DEFAULT_BACKLOG,
            description = "Listen backlog: connections the kernel holds until the server accepts them; capped by"
                    + " net.core.somaxconn (default: ${DEFAULT-VALUE}).")
    int backlog;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", defaultValue = ConnectionLimits.DEFAULT_IDLE_TIMEOUT_TEXT,
            description = "Close a connection with no request in progress after this long; a request head"
                    + " that has not arrived within it is closed too (default: ${DEFAULT-VALUE})."
                    + " Units: " + Durations.UNITS + ".")
    Duration idleTimeout;

    @Option(names = "--protocol", paramLabel = "ID", defaultValue = Protocol.DEFAULT_TEXT,
            description = "HTTP on the port: h1 (HTTP/1.1), h1s (HTTP/1.1 over TLS), h2c (HTTP/2 in clear text, by"
                    + " prior knowledge or Upgrade, beside HTTP/1.1), h2 (HTTP/2 over TLS by ALPN, beside HTTP/1.1"
                    + " over TLS); which server speaks which: list --format=markdown (default: ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "With h1s or h2: the PEM certificate chain to present, the server's first (default: a"
                    + " self-signed certificate made at start-up for localhost, 127.0.0.1, ::1 and --host).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "With --tls-cert: its unencrypted PEM private key (PKCS#8, or a traditional RSA or EC key).")
    Path tlsKey;

    /** The flags as parsed, as the one configuration value ({@link ServeConfig#args()} writes them back). */
    ServeConfig config() {
        Registry.validate(Registry.server(server), Registry.engine(engine), Registry.mode(mode));   // names the valid
        Duration perItem = demo && !Cli.given(spec, "--delay") ? Durations.parse(Demo.DEFAULT_DELAY_TEXT) : delay;
        return new ServeConfig(Registry.server(server), Registry.engine(engine), Registry.mode(mode), host, port,
                perItem, timers, threads, grace, failAfter, new ConnectionLimits(backlog, idleTimeout),
                Protocol.byId(protocol), tlsCert, tlsKey);
    }

    @Override
    public Integer call() throws InterruptedException {
        ServeConfig config = config();
        Logs.configure();
        Site site = config.site(demo ? Registry.buffered() : null);
        ListenAddress.check(config.host(), config.port());
        ServerStats.register(site);
        Server.Running running = config.server().start(config.listen(), site);
        CountDownLatch stop = new CountDownLatch(1);
        Signals.onTermination(stop::countDown);
        String url = ListenAddress.url(config.protocol().scheme(), config.host(), running.port());
        System.out.printf(Locale.ROOT, "pssrbench: serving %s server=%s engine=%s mode=%s delay=%s%s%n",
                url, config.server().id(), config.engine().id(), config.mode().id(), Durations.format(config.delay()),
                config.protocol() == ServeConfig.DEFAULT_PROTOCOL ? "" : " protocol=" + config.protocol().id());
        if (demo) {
            System.out.printf(Locale.ROOT, "pssrbench: demo at %s%s (progressive and buffered side by side)%n",
                    url.substring(0, url.length() - 1), Demo.PATH);
        }
        String exposure = ListenAddress.exposure(config.host());
        if (exposure != null) {
            System.err.println(exposure);
        }
        System.out.flush();
        stop.await();
        if (config.server().stopsAcceptingAlone()) {
            // New connections are refused from here on: a client that the drain's 503 sends away with Connection:
            // close cannot come back, be accepted and then lose its request to the close after the grace period.
            running.stopAccepting();
        }
        site.drain(config.grace());
        running.close();
        site.close();
        System.out.println("pssrbench: stopped");
        return 0;
    }
}
