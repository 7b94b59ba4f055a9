package stress;

import site.ServerStats;
import site.ServerStatsMXBean;

import javax.management.ObjectName;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * A tiny HTTP/1.1 server that misbehaves on purpose, for tests only: each {@link Fault} breaks one stress pass rule,
 * so that the scenario's own code (in stress/) is seen failing against it (tests/stress/FaultRulesTest). It runs in
 * a JVM of its own, as serve does, because the scenarios read a server's threads and memory from /proc by PID,
 * attach to it over JMX and stop it with SIGTERM. It prints serve's first line ({@code serving http://...}), answers
 * {@code /} for readiness, serves a chunked page of 20 items at serve's {@code --delay} per item for every other
 * request, and registers an MXBean under {@link ServerStats#NAME} counting its pages in flight (each holding a
 * data-source subscription) and its connection threads. Without a fault it does what each rule asks where it is
 * cheap to: it checks each request ({@link FaultHead}) and closes a connection whose head is not whole within serve's
 * {@code --idle-timeout}. It stops as serve does ({@link FaultStop}) for the shutdown faults that change a step of
 * that stop; the others end at SIGTERM, with 143. Nothing in cli/ can start it: it lives in the test classes only.
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
        /**
         * aborts: a page whose client went away is never told so: its render stays counted in flight, its
         * data-source subscription open, and a virtual thread of its own parked for good.
         */
        LEAKS_PER_ABORT,
        /** slow-readers: one lock around every response's writes, a small send buffer: one slow reader stalls all. */
        ONE_WRITER,
        /** slow-readers: 8 MB of native memory per connection, touched and never freed. */
        MEMORY_PER_CONNECTION,
        /** malformed: any request at all, garbage included, gets the page with 200. */
        ANSWERS_200,
        /** malformed: each malformed request gets its right status, and a stack trace in the log. */
        LOGS_STACK_TRACE,
        /** idle: never closes a connection, however idle or slow its head. */
        NEVER_CLOSES,
        /**
         * idle: closes idle, half-sent and trickling connections in time, but answers a page 503 while more than
         * {@link #CROWD} other connections are open (the idle ones hold its slots).
         */
        REFUSES_PAGES_WHEN_CROWDED,
        /** shutdown: SIGTERM ignored: it serves on and exits (143) only 6 s later, pages in flight let finish. */
        IGNORES_SIGTERM,
        /** shutdown: stops as serve does ({@link FaultStop}), but ends each page in flight at SIGTERM as if whole. */
        FALSE_COMPLETE,
        /**
         * shutdown: stops as serve does, but keeps accepting after SIGTERM and closes each new connection unanswered.
         */
        CUTS_NEW_CONNECTIONS,
        /** shutdown: stops as serve does, with a warning in its log as it starts to. */
        WARNS_ON_STOP,
        /**
         * soak: every page keeps {@link #KEPT_PER_PAGE} bytes of heap for good, as a cache that never evicts, beside
         * the garbage a real render leaves ({@link #GARBAGE_PER_PAGE}), whose young GCs make the heap after GC
         * readable within the soak's first window.
         */
        HEAP_PER_PAGE,
        /**
         * Any rule that reads a figure over JMX: no fault in the server, but its JVM refuses the attach
         * (-XX:+DisableAttachMechanism), as the attach failed in CI's full tier, so those figures cannot be read.
         */
        NO_ATTACH
    }

    /** How long {@link Fault#IGNORES_SIGTERM} runs on after SIGTERM: past the grace + 2 s the rules allow. */
    static final Duration IGNORED_FOR = Duration.ofSeconds(6);

    /** {@link Fault#REFUSES_PAGES_WHEN_CROWDED}'s slots: other connections open beyond this, a page gets 503. */
    static final int CROWD = 8;

    /** Its faults: one in most tests; a few that move figures of their own, where they do not mask each other. */
    final Set<Fault> faults;
    private final Duration delay;
    private final Duration idleTimeout;
    /** Set by {@link FaultStop} at SIGTERM. */
    volatile boolean stopping;
    final AtomicInteger inFlight = new AtomicInteger();
    /** The connections writing a page, which {@link FaultStop} cuts at the end of the grace period. */
    final java.util.Set<Socket> paging = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final AtomicInteger subscriptions = new AtomicInteger();
    /** {@link Fault#LEAKS_PER_ABORT}'s parked virtual threads, counted beside the connections' own. */
    private final AtomicInteger leakedVirtual = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger pages = new AtomicInteger();
    private final ReentrantLock writer = new ReentrantLock();
    /** {@link Fault#MEMORY_PER_CONNECTION}'s buffers, kept for good. */
    private static final List<java.nio.ByteBuffer> LEAKED = new java.util.concurrent.CopyOnWriteArrayList<>();
    /**
     * {@link Fault#HEAP_PER_PAGE}'s bytes kept a page: at some 130 pages a second (8 connections; measured) about
     * 16 MB a second, far more than the soak's slack over its 2 s in the test, far below the fixed 512 MB heap.
     */
    static final int KEPT_PER_PAGE = 128 << 10;
    /**
     * {@link Fault#HEAP_PER_PAGE}'s garbage a page: some 260 MB a second, so that young GCs run in every window (with
     * the kept bytes alone, 32 MB in 2 s, no GC ran after start-up: the heap after GC read 4.0 MB from the first
     * quarter to the last, and the soak passed; a 30-minute soak has GCs enough).
     */
    static final int GARBAGE_PER_PAGE = 2 << 20;
    private static final java.util.Queue<byte[]> KEPT = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static volatile byte[] garbage;

    private FaultServer(Set<Fault> faults, Duration delay, Duration idleTimeout) {
        this.faults = faults;
        this.delay = delay;
        this.idleTimeout = idleTimeout;
    }

    /** Servers for {@link StressSettings#servers()}: this one with {@code faults}, in a JVM of its own. */
    static StressSettings.Servers servers(Fault... faults) {
        Set<Fault> these = EnumSet.copyOf(List.of(faults));
        String names = these.stream().map(Fault::name).collect(Collectors.joining(","));
        return (config, jvmFlags, log) -> {
            List<String> command = new ArrayList<>(List.of(
                    ProcessHandle.current().info().command().orElse("java"), "-cp",
                    System.getProperty("java.class.path")));
            command.addAll(jvmFlags);
            if (these.contains(Fault.NO_ATTACH)) {
                command.add("-XX:+DisableAttachMechanism");
            }
            command.addAll(List.of(FaultServer.class.getName(), names, "--delay="
                    + base.Durations.format(config.delay()), "--idle-timeout="
                    + base.Durations.format(config.limits().idleTimeout()), "--grace="
                    + base.Durations.format(config.grace())));
            return harness.ServerProcess.start(command, "fault server " + names, log);
        };
    }

    public static void main(String[] args) throws Exception {
        Duration delay = Duration.ofMillis(1);
        Duration idleTimeout = http.ConnectionLimits.DEFAULT.idleTimeout();
        Duration grace = site.ServeConfig.DEFAULT_GRACE;
        for (String a : args) {
            if (a.startsWith("--delay=")) {
                delay = base.Durations.parse(a.substring("--delay=".length()));
            } else if (a.startsWith("--idle-timeout=")) {
                idleTimeout = base.Durations.parse(a.substring("--idle-timeout=".length()));
            } else if (a.startsWith("--grace=")) {
                grace = base.Durations.parse(a.substring("--grace=".length()));
            }
        }
        FaultServer server = new FaultServer(
                EnumSet.copyOf(Arrays.stream(args[0].split(",")).map(Fault::valueOf).toList()), delay, idleTimeout);
        harness.Signals.endWithParent();   // as serve: no fault server outlives its test JVM, SIGKILL included
        if (server.has(Fault.IGNORES_SIGTERM)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> sleep(IGNORED_FOR.toMillis())));
        }
        ManagementFactory.getPlatformMBeanServer().registerMBean(server.stats(), new ObjectName(ServerStats.NAME));
        ServerSocket listener = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        if (server.has(Fault.FALSE_COMPLETE) || server.has(Fault.CUTS_NEW_CONNECTIONS)
                || server.has(Fault.WARNS_ON_STOP)) {
            FaultStop.onSigterm(server, listener, grace);   // the others end at once on SIGTERM (143), as the JVM does
        }
        System.out.println("serving http://127.0.0.1:" + listener.getLocalPort() + "/ (faults " + server.faults + ")");
        System.out.flush();
        while (true) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (java.net.SocketException e) {
                if (server.stopping) {
                    return;   // closed by the stop, which ends the JVM
                }
                throw e;
            }
            if (server.stopping && server.has(Fault.CUTS_NEW_CONNECTIONS)) {
                socket.close();   // accepted after SIGTERM, closed unanswered
                continue;
            }
            Thread.ofVirtual().start(() -> server.serve(socket));
        }
    }

    boolean has(Fault fault) {
        return faults.contains(fault);
    }

    private ServerStatsMXBean stats() {
        return new ServerStatsMXBean() {
            public int getInFlightPages() {
                return inFlight.get();
            }

            public long getVirtualThreads() {
                return connections.get() + leakedVirtual.get();
            }

            public long[] getSample() {
                // the heap after GC and the GC count as a real server gives them: a soak reads the heap only
                // once a GC has run (before, this said no GC ever ran, and the soak never read its heap)
                long[] gc = site.ServerStats.gcSample();
                return new long[] {getVirtualThreads(), gc[0], gc[1], gc[2]};
            }

            public double sourceMedianMillis(String page, int samples) {
                return delay.toMillis();
            }

            public int getDataSourceSubscriptions() {
                return subscriptions.get();
            }
        };
    }

    /** One connection, a virtual thread: request after request until the client closes it. */
    private void serve(Socket socket) {
        connections.incrementAndGet();
        try (socket) {
            if (has(Fault.ONE_WRITER)) {
                socket.setSendBufferSize(4096);
            }
            if (has(Fault.MEMORY_PER_CONNECTION)) {
                LEAKED.add(java.nio.ByteBuffer.allocateDirect(8 << 20));   // zeroed, so resident
            }
            OutputStream out = socket.getOutputStream();
            // NEVER_CLOSES waits for a head for ever; the others close a connection whose head is not whole in time
            FaultHead heads = new FaultHead(socket, has(Fault.NEVER_CLOSES) ? null : idleTimeout);
            FaultHead.Request head;
            while ((head = heads.next()) != null) {
                int refused = has(Fault.ANSWERS_200) ? 0 : head.status();
                if (refused == 0 && has(Fault.REFUSES_PAGES_WHEN_CROWDED) && connections.get() - 1 > CROWD) {
                    refused = 503;
                }
                if (stopping) {
                    refused = 503;   // a request after SIGTERM, as serve answers it
                }
                if (refused != 0) {
                    if (has(Fault.LOGS_STACK_TRACE)) {
                        new IllegalArgumentException("bad request: " + head.brief()).printStackTrace();
                    }
                    FaultHead.refuse(socket, refused);
                    return;
                }
                if (head.path().equals("/")) {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } else {
                    paging.add(socket);
                    try {
                        page(out);
                    } finally {
                        paging.remove(socket);
                    }
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            connections.decrementAndGet();
        }
    }

    /** The page: a chunk at once, then 20 items of about 1 KB at {@code delay} each, then its end. */
    private void page(OutputStream out) throws IOException {
        int number = pages.incrementAndGet();
        if (has(Fault.THREAD_PER_REQUEST)) {
            Thread.ofPlatform().daemon(true).name("leaked-" + number).start(() -> sleep(Long.MAX_VALUE));
        }
        if (has(Fault.HEAP_PER_PAGE)) {
            KEPT.add(new byte[KEPT_PER_PAGE]);
            for (int i = 0; i < GARBAGE_PER_PAGE / KEPT_PER_PAGE; i++) {
                garbage = new byte[KEPT_PER_PAGE];   // a field's store, so that the JIT cannot drop it
            }
        }
        inFlight.incrementAndGet();
        subscriptions.incrementAndGet();
        boolean ended = false;
        if (has(Fault.ONE_WRITER)) {
            writer.lock();
        }
        try {
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, "<!doctype html><title>stocks</title><ul>\n"
                    + (has(Fault.DIFFERENT_PAGES) ? "<!-- page " + number + " -->\n" : ""));
            for (int i = 0; i < 20 && !(stopping && has(Fault.FALSE_COMPLETE)); i++) {
                sleep(delay.toMillis());
                chunk(out, "<li>item " + i + " " + "x".repeat(1000) + "</li>\n");
            }
            if (has(Fault.ENDLESS_PAGE) && number > 1) {
                while (true) {   // the last chunk never comes: the JVM's end ends this thread
                    sleep(1000);
                }
            }
            chunk(out, "</ul>\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ended = true;
        } finally {
            if (has(Fault.ONE_WRITER)) {
                writer.unlock();
            }
            if (!ended && has(Fault.LEAKS_PER_ABORT)) {   // the write failed: its client went away
                leakedVirtual.incrementAndGet();
                Thread.ofVirtual().start(() -> sleep(Long.MAX_VALUE));
            } else {
                inFlight.decrementAndGet();
                subscriptions.decrementAndGet();
            }
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
