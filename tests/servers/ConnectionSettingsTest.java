package servers;

import base.Durations;
import cli.Registry;
import http.ConnectionLimits;
import model.Engine;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Servers;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection settings every server of the registry applies ({@link ConnectionLimits}): a listen backlog that
 * takes a burst of connections without the kernel dropping SYNs, an idle timeout that closes idle and half-sent
 * connections and bounds a request head that trickles in (slowloris), and no warning-level log line for malformed
 * requests or clients that hang up.
 */
@Tag("alone")   // times the servers' timeouts and drops under a burst: measured with nothing beside it (pom.xml)
class ConnectionSettingsTest {

    /** Every server, with its first engine and mode. */
    static Stream<String> servers() {
        return Registry.SERVERS.stream().map(Server::id);
    }

    private static Servers.Started start(String server, ConnectionLimits limits) {
        Server s = Registry.server(server);
        Engine engine = Registry.ENGINES.stream().filter(e -> !Registry.modes(e).isEmpty()).findFirst().orElseThrow();
        Combination c = new Combination(s, engine, Registry.modes(engine).iterator().next());
        return Servers.start(ServeConfig.of(c, Duration.ofMillis(1)).withLimits(limits));
    }

    /**
     * 2,000 connections opened at once, none of them read by the server for a while: every one is established
     * within 900 ms, before a client's first SYN retry (1 s), so none was dropped from a full accept queue. With
     * Jetty's default queue of 50 this failed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aBurstOfConnectionsFitsTheBacklog(String server) throws IOException {
        try (Servers.Started s = start(server, ConnectionLimits.DEFAULT); Selector selector = Selector.open()) {
            List<SocketChannel> channels = new ArrayList<>();
            try {
                long start = System.nanoTime();
                for (int i = 0; i < 2000; i++) {
                    SocketChannel ch = SocketChannel.open();
                    ch.configureBlocking(false);
                    channels.add(ch);
                    if (!ch.connect(new InetSocketAddress("127.0.0.1", s.port()))) {
                        ch.register(selector, SelectionKey.OP_CONNECT);
                    }
                }
                long deadline = start + Duration.ofMillis(900).toNanos();
                while (!selector.keys().isEmpty() && System.nanoTime() < deadline) {
                    selector.select(50);
                    for (SelectionKey key : selector.selectedKeys()) {
                        ((SocketChannel) key.channel()).finishConnect();
                        key.cancel();
                    }
                    selector.selectedKeys().clear();
                    selector.selectNow();   // flush the cancelled keys
                }
                long pending = channels.stream().filter(SocketChannel::isConnectionPending).count();
                assertEquals(0, pending, "connections not established within 900 ms (SYNs dropped)");
            } finally {
                for (SocketChannel ch : channels) {
                    ch.close();
                }
            }
            assertEquals(200, status(s.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        }
    }

    /** With a 1 s idle timeout: an idle connection and one that sent half a request line are closed by 2.5 s. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    @Tag("slow")   // each server waits out a 1 s timeout, which is what is checked: the full tier's
    void idleAndHalfSentConnectionsAreClosed(String server) throws Exception {
        withIdleTimeout(server, Duration.ofSeconds(1), ConnectionSettingsTest::idleAndHalfSentConnectionsAreClosed);
    }

    /** A test on a port where {@code server} serves with {@code idleTimeout}. */
    private interface OnPort {
        void run(int port) throws Exception;
    }

    /**
     * Runs {@code test} against {@code server} serving with {@code idleTimeout}: in this JVM, or, for a server whose
     * library reads its limits once per JVM (which this test JVM's earlier servers did), in a JVM of its own as
     * serve runs it.
     */
    private static void withIdleTimeout(String server, Duration idleTimeout, OnPort test) throws Exception {
        Server s = Registry.server(server);
        if (s.limitsPerJvm()) {
            Engine engine = Registry.ENGINES.get(0);
            java.nio.file.Path log = java.nio.file.Files.createTempFile("pssrbench-limits", ".log");
            try (harness.ServerProcess p = harness.ServerProcess.start(ServeConfig.of(new Combination(s, engine,
                    Registry.modes(engine).get(0)), Duration.ofMillis(1)).withLimits(new ConnectionLimits(
                    ConnectionLimits.DEFAULT_BACKLOG, idleTimeout)), List.of(), log)) {
                test.run(p.base().getPort());
            } finally {
                java.nio.file.Files.deleteIfExists(log);
            }
            return;
        }
        try (Servers.Started started = start(server, new ConnectionLimits(ConnectionLimits.DEFAULT_BACKLOG,
                idleTimeout))) {
            test.run(started.port());
        }
    }

    private static void idleAndHalfSentConnectionsAreClosed(int port) throws IOException {
        try (Socket idle = open(port, ""); Socket half = open(port, "GET /stocks HTT")) {
            long start = System.nanoTime();
            assertClosedBy(idle, start, 2500);
            assertClosedBy(half, start, 2500);
        }
        assertEquals(200, status(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    }

    /** The idle timeout of {@link #tricklingHeadsAreClosedWithinTheTimeout}. */
    private static final Duration TRICKLE_TIMEOUT = Duration.ofSeconds(2);
    /**
     * What the close may take beyond the timeout: the servers' own clocks tick at a tenth of it, the rest is for a
     * shared machine. Less than the half timeout by which a timer started at the wrong moment (the request line, or
     * the head's first byte) would close later.
     */
    private static final Duration TRICKLE_MARGIN = Duration.ofSeconds(1);

    /**
     * Slowloris: clients that send a head a byte every 100-150 ms, so that it would take several timeouts, each byte
     * well within the timeout of the last. Every one must be closed within the timeout (+ a margin) of the moment
     * its connection was ready for a request: after the connect, or after a first response on the same connection;
     * whether the trickle is in the request line or only in the headers, and however the head began. The server
     * serves a page afterwards.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    @Tag("slow")   // each server waits out a 2 s timeout, which is what is checked: the full tier's
    void tricklingHeadsAreClosedWithinTheTimeout(String server) throws Exception {
        withIdleTimeout(server, TRICKLE_TIMEOUT, port -> tricklingHeadsAreClosed(Registry.server(server), port));
    }

    private static void tricklingHeadsAreClosed(Server server, int port) throws Exception {
        Duration byte150 = Duration.ofMillis(150);
        String headers = "Host: x\r\nX-Trickle: " + "a".repeat(40) + "\r\n\r\n";
        String line = "GET /stocks HTTP/1.1\r\n";
        // 0.75 of the timeout before the headers start: a timer started by the request line (or by the head's first
        // byte) instead of the moment the connection was ready would close 0.75 timeouts late.
        Duration late = TRICKLE_TIMEOUT.multipliedBy(3).dividedBy(4);
        List<Trickle> clients = List.of(
                new Trickle("the whole head, the request line too, a byte at a time", false, Duration.ZERO,
                        List.of(new Trickle.Step(line + headers, byte150))),
                new Trickle("a complete request line, then the headers a byte at a time", false, Duration.ZERO,
                        List.of(new Trickle.Step(line, Duration.ZERO), new Trickle.Step(headers, byte150))),
                new Trickle("a request line a byte at a time, complete 0.75 timeouts in, then the headers", false,
                        Duration.ZERO, List.of(new Trickle.Step(line, late.dividedBy(line.length())),
                        new Trickle.Step(headers, byte150))),
                new Trickle("after a first response on the connection, the next head a byte at a time", true,
                        Duration.ZERO, List.of(new Trickle.Step(line + headers, byte150))),
                new Trickle("after a first response, 0.75 timeouts of silence, then the head a byte at a time", true,
                        late, List.of(new Trickle.Step(line + headers, byte150))),
                new Trickle("after a first response, 0.75 timeouts of silence, then a complete request line and the"
                        + " headers a byte at a time", true, late, List.of(new Trickle.Step(line, Duration.ZERO),
                        new Trickle.Step(headers, byte150))));
        Duration deadline = TRICKLE_TIMEOUT.plus(TRICKLE_MARGIN);
        Duration giveUp = deadline.plus(late).plusSeconds(1);
        List<Trickle.Result> results = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<Trickle.Result>> running = new ArrayList<>();
            for (Trickle t : clients) {
                running.add(threads.submit(() -> t.run(port, giveUp)));
            }
            for (var r : running) {
                results.add(r.get());
            }
        }
        List<String> wrong = new ArrayList<>();
        for (Trickle.Result r : results) {
            System.out.println("trickle on port " + port + ": " + r.trickle().name() + ": " + (r.closedAfter() == null
                    ? "open" : "closed after " + r.closedAfter().toMillis() + " ms") + ", " + r.sent() + " bytes sent");
            String sent = " (" + r.sent() + " of the head's " + r.total() + " bytes sent)";
            // A server that counts from the head's first byte says so; its idle timeout covers the pause before.
            Duration allowed = server.headTimeoutFromFirstByte() ? deadline.plus(r.trickle().pause()) : deadline;
            if (r.closedAfter() == null) {
                wrong.add(r.trickle().name() + ": still open " + Durations.format(giveUp)
                        + " after the connection was ready" + sent);
            } else if (r.closedAfter().compareTo(allowed) > 0) {
                wrong.add(r.trickle().name() + ": closed " + r.closedAfter().toMillis() + " ms after the connection"
                        + " was ready, later than " + allowed.toMillis() + " ms" + sent);
            } else if (r.closedAfter().compareTo(TRICKLE_TIMEOUT.dividedBy(4)) < 0) {
                wrong.add(r.trickle().name() + ": closed after only " + r.closedAfter().toMillis() + " ms" + sent);
            }
        }
        assertEquals(List.of(), wrong, "trickling heads, timeout " + TRICKLE_TIMEOUT.toMillis() + " ms");
        assertEquals(200, status(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    }

    /** Malformed requests get their 4xx, clients hang up mid-head and mid-page: nothing at warning level. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void ordinaryClientBehaviourLogsNoWarning(String server) throws IOException, InterruptedException {
        List<String> warnings = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    synchronized (warnings) {
                        warnings.add(r.getLoggerName() + ": " + r.getMessage() + " " + r.getThrown());
                        if (r.getThrown() != null) {
                            r.getThrown().printStackTrace();   // where it came from, in the test's output
                        }
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try (Servers.Started s = start(server, ConnectionLimits.DEFAULT)) {
            int garbage = status(s.port(), "GARBAGE\r\n\r\n");
            assertTrue(garbage >= 400 && garbage < 500, "garbage: " + garbage);
            int big = status(s.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(100_000) + "\r\n\r\n");
            // Refused (400, 431), or served where the library's limit is higher (the JDK's: 380 KiB of headers).
            assertTrue(big == 400 || big == 431 || big == 200, "100 KB header: " + big);
            int preface = status(s.port(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
            // A client error, or 501 (Vert.x: a method it does not implement) or 505 (a version it does not serve).
            assertTrue(preface >= 400 && preface < 500 || preface == 501 || preface == 505, "HTTP/2 preface: "
                    + preface);
            for (int i = 0; i < 5; i++) {
                open(s.port(), "GET / HTTP/1.1\r\nHost: x\r\n").close();   // hangs up mid-head
                try (Socket page = open(s.port(), "GET /stocks HTTP/1.1\r\nHost: x\r\n\r\n")) {
                    page.getInputStream().read(new byte[100]);
                    page.setSoLinger(true, 0);   // hangs up mid-page with a reset
                }
            }
            Thread.sleep(500);
            assertEquals(200, status(s.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        } finally {
            root.removeHandler(capture);
        }
        assertEquals(List.of(), warnings);
    }

    private static Socket open(int port, String request) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        return socket;
    }

    private static int status(int port, String request) throws IOException {
        try (Socket socket = open(port, request)) {
            byte[] head = new byte[12];
            int n = socket.getInputStream().readNBytes(head, 0, 12);
            String line = new String(head, 0, n, StandardCharsets.ISO_8859_1);
            return Integer.parseInt(line.substring(9, 12));
        }
    }

    private static void assertClosedBy(Socket socket, long start, long millis) throws IOException {
        InputStream in = socket.getInputStream();
        socket.setSoTimeout((int) Math.max(1, millis - (System.nanoTime() - start) / 1_000_000));
        try {
            while (in.read() >= 0) {
                // a 408 or the like is fine; the close is what counts
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open after " + millis + " ms");
        } catch (IOException e) {
            // reset: closed too
        }
    }
}
