package stress;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static stress.H2Malformed.ACK;
import static stress.H2Malformed.GOAWAY;
import static stress.H2Malformed.PREFACE;
import static stress.H2Malformed.SETTINGS;
import static stress.H2Malformed.frame;

/**
 * The attacking connection of an {@link H2Attacks.Attack}: a raw socket to the scenario's own server (loopback, as
 * every {@link H2Endpoint}; over h2 the JDK's TLS with ALPN h2), the preface and the attack's SETTINGS, then the
 * attack's batches as fast as one thread writes them, until its time is up or {@link #MAX_BYTES} are sent, or the
 * server cut it off. How it was cut off is what the server said: a GOAWAY (read while it attacks, or, for an attack
 * that never reads, once it is over), a close, writes that block because the server stopped reading, or nothing.
 */
final class H2Attacker {

    /** The most an attack sends: a bound on the traffic whatever the server does. */
    static final long MAX_BYTES = 64L << 20;
    private static final int HANDSHAKE_MILLIS = 5000;
    /** How long an attack that never reads has, once over, to find what the server said (it may have queued MBs). */
    private static final long DRAIN_MILLIS = 3000;
    /** The drain ends sooner once the server has said nothing for this long. */
    private static final long DRAIN_IDLE_MILLIS = 500;
    /** How long past its end a write may block before the socket is closed under it. */
    private static final long BLOCKED_MILLIS = 2000;

    /**
     * What the attack did: how the server cut it off ({@code GOAWAY <code>}, {@code closed}, {@code stopped reading}
     * or {@code none}) and when (s after the attack's start; -1 when not cut off or not known), the frames and bytes
     * it sent, and the frames it read.
     */
    record Result(String cut, double cutS, long frames, long bytes, long received) {
    }

    private final Socket socket;
    /** The TCP socket under {@link #socket} (itself in clear text): what is closed to end a blocked write. */
    private final Socket tcp;
    private final OutputStream out;
    private final AtomicReference<String> cut = new AtomicReference<>();
    private final AtomicLong cutNanos = new AtomicLong(-1);
    private final AtomicLong received = new AtomicLong();
    private volatile boolean ending;
    private volatile boolean blocked;
    /** Reading what a never-reading attack was told once it is over: when it was said is not known. */
    private volatile boolean draining;
    private long start;

    private H2Attacker(H2Endpoint.Dialed dialed) throws IOException {
        this.socket = dialed.socket();
        this.tcp = dialed.tcp();
        this.out = socket.getOutputStream();
    }

    /** Runs {@code attack} for {@code duration} against {@code endpoint}. */
    static Result run(H2Endpoint endpoint, H2Attacks.Attack attack, Duration duration)
            throws IOException, InterruptedException {
        H2Endpoint.Dialed dialed = endpoint.dial(HANDSHAKE_MILLIS, "h2");
        // Closed in reverse: the TCP socket first, so that the SSLSocket's close_notify cannot wait on a full buffer.
        try (Socket socket = dialed.socket(); Socket tcp = dialed.tcp()) {
            return new H2Attacker(dialed).attack(endpoint, attack, duration);
        }
    }

    private Result attack(H2Endpoint endpoint, H2Attacks.Attack attack, Duration duration)
            throws IOException, InterruptedException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        write(H2Attacks.concat(PREFACE, frame(SETTINGS, 0, 0, H2Attacks.settings(attack.settings()))));
        int maxFrame = H2Malformed.DEFAULT_MAX_FRAME;
        long handshake = System.nanoTime() + HANDSHAKE_MILLIS * 1_000_000L;
        while (true) {   // up to the server's SETTINGS, its preface
            H2Malformed.Frame f = H2Malformed.Frame.read(in, socket, handshake);
            if (f.type() == GOAWAY) {
                return new Result("GOAWAY " + f.goAwayError() + " before the attack", 0, 0, 0, 1);
            }
            if (f.type() == SETTINGS && (f.flags() & ACK) == 0) {
                maxFrame = f.setting(0x5, maxFrame);
                break;
            }
        }
        write(frame(SETTINGS, ACK, 0, new byte[0]));
        H2Attacks.Target target = new H2Attacks.Target(endpoint.tls(), endpoint.authority(), maxFrame);
        start = System.nanoTime();
        long end = start + duration.toNanos();
        Thread reader = attack.reads() ? Thread.ofPlatform().daemon(true).name("h2-attack-reader")
                .start(() -> read(in, attack.reply(), end + 10_000_000_000L)) : null;
        Thread watchdog = Thread.ofPlatform().daemon(true).name("h2-attack-watchdog").start(() -> {
            try {
                Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000) + BLOCKED_MILLIS);
                blocked = true;
                tcp.close();   // a write blocked on a server that stopped reading ends here (see H2Endpoint.Dialed)
            } catch (InterruptedException | IOException e) {
                // the attack ended in time
            }
        });
        long frames = 0;
        long bytes = 0;
        long failedAt = -1;
        while (System.nanoTime() < end && cut.get() == null) {
            byte[] batch = attack.frames().next(target);
            if (batch.length == 0) {
                Thread.sleep(5);
                continue;
            }
            if (bytes + batch.length > MAX_BYTES) {
                break;
            }
            try {
                write(batch);
            } catch (IOException e) {
                // the server closed (or, blocked, stopped reading); an attack that never reads learns why below
                failedAt = System.nanoTime() - start;
                if (blocked || attack.reads()) {
                    cutOff(blocked ? "stopped reading" : "closed");
                }
                break;
            }
            bytes += batch.length;
            frames += H2Attacks.count(batch);
        }
        watchdog.interrupt();
        if (reader != null) {
            Thread.sleep(300);   // what the server said at the end
        } else if (!blocked) {
            draining = true;
            read(in, H2Attacks.NO_REPLY, System.nanoTime() + DRAIN_MILLIS * 1_000_000);
            if (failedAt >= 0) {
                cut.compareAndSet(null, "closed");
                cutNanos.set(failedAt);   // the close (after any GOAWAY) is when the writes failed
            }
        }
        ending = true;
        tcp.close();   // no close_notify: it could wait on a server that stopped reading (H2Endpoint.Dialed)
        if (reader != null) {
            reader.join(2000);
        }
        String how = cut.get();
        return new Result(how == null ? "none" : how, cutNanos.get() < 0 ? -1
                : Scenario.round(cutNanos.get() / 1e9), frames, bytes, received.get());
    }

    /**
     * Reads the server's frames until {@code deadline} or the end of the connection: a GOAWAY or the close is the
     * cut-off (unless this side is ending); SETTINGS are acknowledged, and {@code reply} answers the rest.
     */
    private void read(DataInputStream in, H2Attacks.Reply reply, long deadline) {
        try {
            while (true) {
                H2Malformed.Frame f = H2Malformed.Frame.read(in, socket, draining
                        ? Math.min(deadline, System.nanoTime() + DRAIN_IDLE_MILLIS * 1_000_000) : deadline);
                received.incrementAndGet();
                if (f.type() == GOAWAY) {
                    cutOff("GOAWAY " + f.goAwayError());
                } else if (f.type() == SETTINGS && (f.flags() & ACK) == 0) {
                    write(frame(SETTINGS, ACK, 0, new byte[0]));
                }
                byte[] answer = reply.to(f);
                if (answer.length > 0) {
                    write(answer);
                }
            }
        } catch (SocketTimeoutException e) {
            // still open, nothing more said
        } catch (IOException e) {
            if (!ending) {
                cutOff(blocked ? "stopped reading" : "closed");
            }
        }
    }

    /** The first cut-off seen is the one kept (a GOAWAY, then its close). */
    private void cutOff(String how) {
        if (cut.compareAndSet(null, how) && !draining) {
            cutNanos.set(start == 0 ? 0 : System.nanoTime() - start);
        }
    }

    private void write(byte[] bytes) throws IOException {
        synchronized (out) {
            out.write(bytes);
            out.flush();
        }
    }
}
