package stress;

import site.ServerStats;
import site.ServerStatsMXBean;

import javax.management.ObjectName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tiny HTTP/1.1 server that misbehaves on purpose, for tests only: each {@link Fault} breaks one stress pass rule,
 * so that the scenario's own code (in stress/) is seen failing against it (tests/stress/FaultRulesTest). It runs in
 * a JVM of its own, as serve does, because the scenarios read a server's threads and memory from /proc by PID,
 * attach to it over JMX and stop it with SIGTERM. It prints serve's first line ({@code serving http://...}), answers
 * {@code /} for readiness, serves a chunked page of 20 items at serve's {@code --delay} per item for every other
 * request, and registers an MXBean under {@link ServerStats#NAME} counting its pages in flight and its connection
 * threads. It never enforces a limit or a timeout: where a fault is "what it lacks", that is all there is to it.
 * Nothing in cli/ can start it: it lives in the test classes only.
 */
public final class FaultServer {

    /** One broken rule each; the stress scenario it breaks is named. */
    enum Fault {
        /** streams: after the first (the scenario's check that the server works), no page's last chunk comes. */
        ENDLESS_PAGE,
        /** streams: every page differs from the others (its number in the body). */
        DIFFERENT_PAGES,
        /** aborts: a platform thread started per request that never ends. */
        THREAD_PER_REQUEST,
        /** slow-readers: one lock around every response's writes, a small send buffer: one slow reader stalls all. */
        ONE_WRITER,
        /** slow-readers: 8 MB of native memory per connection, touched and never freed. */
        MEMORY_PER_CONNECTION,
        /** malformed: any request at all, garbage included, gets the page with 200. */
        ANSWERS_200,
        /** idle: never closes a connection, however idle or slow its head. */
        NEVER_CLOSES,
        /** shutdown: SIGTERM ignored: it serves on and exits (143) only 6 s later, pages in flight let finish. */
        IGNORES_SIGTERM,
        /**
         * Any rule that reads a figure over JMX: no fault in the server, but its JVM refuses the attach
         * (-XX:+DisableAttachMechanism), as the attach failed in CI's full tier, so those figures cannot be read.
         */
        NO_ATTACH
    }

    /** How long {@link Fault#IGNORES_SIGTERM} runs on after SIGTERM: past the grace + 2 s the rules allow. */
    static final Duration IGNORED_FOR = Duration.ofSeconds(6);

    private final Fault fault;
    private final Duration delay;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger pages = new AtomicInteger();
    private final ReentrantLock writer = new ReentrantLock();
    /** {@link Fault#MEMORY_PER_CONNECTION}'s buffers, kept for good. */
    private static final List<java.nio.ByteBuffer> LEAKED = new java.util.concurrent.CopyOnWriteArrayList<>();

    private FaultServer(Fault fault, Duration delay) {
        this.fault = fault;
        this.delay = delay;
    }

    /** Servers for {@link StressSettings#servers()}: this one with {@code fault}, in a JVM of its own. */
    static StressSettings.Servers servers(Fault fault) {
        return (config, jvmFlags, log) -> {
            List<String> command = new ArrayList<>(List.of(
                    ProcessHandle.current().info().command().orElse("java"), "-cp",
                    System.getProperty("java.class.path")));
            command.addAll(jvmFlags);
            if (fault == Fault.NO_ATTACH) {
                command.add("-XX:+DisableAttachMechanism");
            }
            command.addAll(List.of(FaultServer.class.getName(), fault.name(), "--delay="
                    + base.Durations.format(config.delay())));
            return harness.ServerProcess.start(command, "fault server " + fault, log);
        };
    }

    public static void main(String[] args) throws Exception {
        Duration delay = Duration.ofMillis(1);
        for (String a : args) {
            if (a.startsWith("--delay=")) {
                delay = base.Durations.parse(a.substring("--delay=".length()));
            }
        }
        FaultServer server = new FaultServer(Fault.valueOf(args[0]), delay);
        harness.Signals.endWithParent();   // as serve: no fault server outlives its test JVM, SIGKILL included
        if (server.fault == Fault.IGNORES_SIGTERM) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> sleep(IGNORED_FOR.toMillis())));
        }
        ManagementFactory.getPlatformMBeanServer().registerMBean(server.stats(), new ObjectName(ServerStats.NAME));
        ServerSocket listener = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        System.out.println("serving http://127.0.0.1:" + listener.getLocalPort() + "/ (fault " + server.fault + ")");
        System.out.flush();
        while (true) {
            Socket socket = listener.accept();
            Thread.ofVirtual().start(() -> server.serve(socket));
        }
    }

    private ServerStatsMXBean stats() {
        return new ServerStatsMXBean() {
            public int getInFlightPages() {
                return inFlight.get();
            }

            public long getVirtualThreads() {
                return connections.get();
            }

            public long[] getSample() {
                return new long[] {connections.get(), Runtime.getRuntime().totalMemory(), 0, 0};
            }

            public double sourceMedianMillis(String page, int samples) {
                return delay.toMillis();
            }

            public int getDataSourceSubscriptions() {
                return 0;
            }
        };
    }

    /** One connection, a virtual thread: request after request until the client closes it. */
    private void serve(Socket socket) {
        connections.incrementAndGet();
        try (socket) {
            if (fault == Fault.ONE_WRITER) {
                socket.setSendBufferSize(4096);
            }
            if (fault == Fault.MEMORY_PER_CONNECTION) {
                LEAKED.add(java.nio.ByteBuffer.allocateDirect(8 << 20));   // zeroed, so resident
            }
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            String line;
            while ((line = line(in)) != null) {
                while (true) {   // the rest of the head, whatever it holds, up to its blank line
                    String header = line(in);
                    if (header == null || header.isEmpty()) {
                        break;
                    }
                }
                String[] parts = line.split(" ");
                String path = parts.length > 1 ? parts[1] : "/";
                if (path.equals("/")) {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } else {
                    page(out);
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            connections.decrementAndGet();
        }
    }

    /** A line of the head (CR LF or LF ended, ISO-8859-1), or null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return c < 0 && b.isEmpty() ? null : b.toString();
    }

    /** The page: a chunk at once, then 20 items of about 1 KB at {@code delay} each, then its end. */
    private void page(OutputStream out) throws IOException {
        int number = pages.incrementAndGet();
        if (fault == Fault.THREAD_PER_REQUEST) {
            Thread.ofPlatform().daemon(true).name("leaked-" + number).start(() -> sleep(Long.MAX_VALUE));
        }
        inFlight.incrementAndGet();
        if (fault == Fault.ONE_WRITER) {
            writer.lock();
        }
        try {
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, "<!doctype html><title>stocks</title><ul>\n"
                    + (fault == Fault.DIFFERENT_PAGES ? "<!-- page " + number + " -->\n" : ""));
            for (int i = 0; i < 20; i++) {
                sleep(delay.toMillis());
                chunk(out, "<li>item " + i + " " + "x".repeat(1000) + "</li>\n");
            }
            if (fault == Fault.ENDLESS_PAGE && number > 1) {
                while (true) {   // the last chunk never comes: the JVM's end ends this thread
                    sleep(1000);
                }
            }
            chunk(out, "</ul>\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } finally {
            if (fault == Fault.ONE_WRITER) {
                writer.unlock();
            }
            inFlight.decrementAndGet();
        }
    }

    private static void chunk(OutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
