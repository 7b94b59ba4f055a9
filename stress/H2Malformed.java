package stress;

import http.Protocol;
import site.Combination;

import io.netty.channel.EventLoopGroup;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The {@code h2-malformed} scenario, {@code malformed} over HTTP/2: frames no client should send, written as raw bytes
 * on fresh connections (Netty's codec would refuse to write them): h2c, or over h2 through the JDK's TLS socket once
 * ALPN chose h2, the same bytes inside TLS records. Each is a connection error in RFC 9113, which the server must
 * answer with GOAWAY or by closing the connection (a preface that is not HTTP/2's may also get an error status in
 * HTTP/1's text form: the port speaks HTTP/1.1 too, and Vert.x labels its answer with the version the request line
 * named, here {@code HTTP/2.0 501}); after each, a normal page on a new connection; and no stack trace in the server's
 * log.
 */
final class H2Malformed {

    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    /** SETTINGS_MAX_FRAME_SIZE until the server says otherwise (RFC 9113, 6.5.2). */
    static final int DEFAULT_MAX_FRAME = 16_384;
    private static final long ANSWER_MILLIS = 5000;
    /** HTTP/2's ALPN name: what a TLS connection must have chosen before a case is sent. */
    private static final String H2 = "h2";

    /**
     * A GET of / by HPACK's static table (:method GET, :scheme http, :path /) and a literal :authority. Over h2 too:
     * each case that carries it is wrong at the frame level, which a server finds before it reads the fields.
     */
    static final byte[] GET_BLOCK = concat(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x41, 9},
            "127.0.0.1".getBytes(StandardCharsets.US_ASCII));

    /** An indexed field whose index (about 2^28) is far beyond HPACK's static and dynamic tables, then noise. */
    static final byte[] HPACK_GARBAGE = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, (byte) 0xFE, 0x00,
        0x13};

    /**
     * One case: its name; whether the valid preface and SETTINGS go first and the server's SETTINGS are awaited
     * (and acknowledged) before {@code bytes}, which are made from the server's SETTINGS_MAX_FRAME_SIZE; and whether
     * an HTTP/1.1 error status is a right answer (bytes that are not HTTP/2's preface, on a port that speaks both).
     */
    private record Case(String name, boolean handshake, IntFunction<byte[]> bytes, boolean http1Answer) {
    }

    private static final List<Case> CASES = List.of(
            new Case("bad preface", false, max -> concat("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII), frame(SETTINGS, 0, 0, new byte[0])), true),
            // RFC 9113, 3.4: the preface must be followed by SETTINGS
            new Case("PING instead of SETTINGS after the preface", false,
                    max -> concat(PREFACE, frame(PING, 0, 0, new byte[8])), false),
            // 6.1: DATA must be on a stream; 6.2: so must HEADERS
            new Case("DATA on stream 0", true, max -> frame(DATA, END_STREAM, 0, "hello".getBytes(
                    StandardCharsets.US_ASCII)), false),
            new Case("HEADERS on stream 0", true, max -> frame(HEADERS, END_HEADERS | END_STREAM, 0, GET_BLOCK),
                    false),
            // 4.2: a frame above SETTINGS_MAX_FRAME_SIZE that carries a field block is a connection error
            new Case("oversize HEADERS frame", true, max -> frame(HEADERS, END_HEADERS | END_STREAM, 1,
                    concat(GET_BLOCK, filled(max + 1 - GET_BLOCK.length))), false),
            // 4.3: a field block that cannot be decoded is a COMPRESSION_ERROR
            new Case("HPACK garbage", true, max -> frame(HEADERS, END_HEADERS | END_STREAM, 1, HPACK_GARBAGE),
                    false),
            // 6.9: a WINDOW_UPDATE of 0 on the connection
            new Case("WINDOW_UPDATE of 0 on stream 0", true, max -> frame(WINDOW_UPDATE, 0, 0, new byte[4]),
                    false),
            // 6.5: a SETTINGS payload not a multiple of 6 bytes is FRAME_SIZE_ERROR
            new Case("SETTINGS of 7 bytes", true, max -> frame(SETTINGS, 0, 0, new byte[7]), false));

    static final Scenario SCENARIO = new Scenario("h2-malformed", Set.of(Protocol.H2C, Protocol.H2), List.of(),
            H2Malformed::run,
            new Scenario.Rule(f -> "each case answered with GOAWAY or a close (a bad preface: or a 4xx/5xx status"
                    + " line); a normal page on a new connection after each; no stack trace in its log",
                    f -> f.count("cases_right") == f.count("cases") && f.count("pages_after") == f.count("cases")
                            && f.count("stack_trace_lines") == 0));

    private H2Malformed() {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c).withProtocol(s.http2()), s,
                "h2-malformed")) {
            H2Endpoint endpoint = H2Endpoint.of(server);
            Raw.Response page = endpoint.page("/stocks", 10_000);
            if (endpoint.tls()) {
                // ALPN must choose h2 before any case is sent (else the cases would test HTTP/1.1 over TLS): if it
                // does not, the scenario fails here in the sentence saying what it chose.
                endpoint.socket((int) ANSWER_MILLIS, H2).close();
            }
            EventLoopGroup group = H2Client.loop();
            List<String> wrong = new ArrayList<>();
            List<String> answers = new ArrayList<>();
            int pagesAfter = 0;
            try {
                for (Case k : CASES) {
                    String answer = send(endpoint, k);
                    answers.add(k.name() + ": " + answer);
                    boolean right = answer.startsWith("GOAWAY") || answer.equals("closed")
                            || (k.http1Answer() && answer.matches("HTTP/\\d\\.\\d [45]\\d\\d"));
                    if (!right) {
                        wrong.add(k.name() + ": got " + answer + ", want GOAWAY or a close");
                    }
                    if (H2Client.pageWorks(group, endpoint, "/stocks", page.bodyBytes(), page.bodyCrc())) {
                        pagesAfter++;
                    } else {
                        wrong.add("no page on the connection after " + k.name());
                    }
                }
            } finally {
                H2Client.stop(group);
            }
            Thread.sleep(300);
            long traces = server.stackTraceLines();
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("protocol", s.http2().id());
            f.put("cases", CASES.size());
            f.put("cases_right", CASES.size() - wrong.stream().filter(w -> w.contains(": got ")).count());
            f.put("pages_after", pagesAfter);
            f.put("stack_trace_lines", traces);
            f.put("warning_lines", server.warnings());
            f.put("answers", String.join("; ", answers));
            return new Scenario.Measured(f, String.join("; ", wrong));
        }
    }

    /**
     * Sends the case on a new connection (over TLS: once ALPN chose h2) and reads what comes back within 5 s:
     * {@code GOAWAY <code>}, {@code closed} (end of stream or reset), {@code HTTP/1.1 <status>}, or what else ended
     * the wait; {@code no connection (...)} when none could be made, which is no answer to the case.
     */
    private static String send(H2Endpoint endpoint, Case k) {
        List<Integer> seen = new ArrayList<>();   // the types of the frames that came after the case
        Socket connected;
        try {
            connected = endpoint.socket((int) ANSWER_MILLIS, H2);
        } catch (IOException e) {
            return "no connection (" + e.getMessage() + ")";
        }
        try (Socket socket = connected) {
            long deadline = System.nanoTime() + ANSWER_MILLIS * 1_000_000;
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int maxFrame = DEFAULT_MAX_FRAME;
            try {
                if (k.handshake()) {
                    out.write(concat(PREFACE, frame(SETTINGS, 0, 0, new byte[0])));
                    while (true) {   // up to the server's own SETTINGS, which its preface is
                        Frame f = Frame.read(in, socket, deadline);
                        if (f.type() == GOAWAY) {
                            return "an early GOAWAY (" + f.goAwayError() + "), before the case was sent";
                        }
                        if (f.type() == SETTINGS && (f.flags() & ACK) == 0) {
                            maxFrame = f.setting(0x5, DEFAULT_MAX_FRAME);
                            break;
                        }
                    }
                    out.write(frame(SETTINGS, ACK, 0, new byte[0]));
                }
                out.write(k.bytes().apply(maxFrame));
                out.flush();
            } catch (SocketTimeoutException e) {
                return "no SETTINGS from the server within " + ANSWER_MILLIS / 1000 + " s";
            } catch (IOException e) {
                // the server closed before all was written (an oversize frame): read what it said
            }
            byte[] start = new byte[5];
            socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            in.readFully(start);   // a frame header is 9 bytes: 5 are there, or the server closed
            if (Arrays.equals(start, "HTTP/".getBytes(StandardCharsets.US_ASCII))) {
                byte[] line = new byte[7];   // "1.1 400"
                in.readFully(line);
                return "HTTP/" + new String(line, StandardCharsets.US_ASCII);
            }
            Frame f = Frame.read(in, socket, deadline, start);
            while (f.type() != GOAWAY) {
                seen.add(f.type());
                f = Frame.read(in, socket, deadline);
            }
            return "GOAWAY " + f.goAwayError();
        } catch (SocketTimeoutException e) {
            return "no GOAWAY or close within " + ANSWER_MILLIS / 1000 + " s" + (seen.isEmpty() ? ""
                    : " (frame types " + seen.stream().distinct().toList() + " came)");
        } catch (IOException e) {
            return "closed";   // end of stream, or a reset
        }
    }

    /** One frame as read: type, flags, stream and payload. */
    record Frame(int type, int flags, int stream, byte[] payload) {

        static Frame read(DataInputStream in, Socket socket, long deadline) throws IOException {
            return read(in, socket, deadline, new byte[0]);
        }

        /** The next frame, whose first bytes {@code had} were read already; every read bounded by the deadline. */
        static Frame read(DataInputStream in, Socket socket, long deadline, byte[] had) throws IOException {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new SocketTimeoutException("deadline");
            }
            socket.setSoTimeout((int) left);
            byte[] head = Arrays.copyOf(had, 9);
            in.readFully(head, had.length, 9 - had.length);
            ByteBuffer h = ByteBuffer.wrap(head);
            int length = ((h.get() & 0xFF) << 16) | ((h.get() & 0xFF) << 8) | (h.get() & 0xFF);
            int type = h.get() & 0xFF;
            int flags = h.get() & 0xFF;
            int stream = h.getInt() & 0x7FFF_FFFF;
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, stream, payload);
        }

        /** A GOAWAY's error code (RFC 9113, 7), by name where it has one. */
        String goAwayError() {
            int code = payload.length >= 8 ? ByteBuffer.wrap(payload, 4, 4).getInt() : -1;
            List<String> names = List.of("NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
                    "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL",
                    "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY",
                    "HTTP_1_1_REQUIRED");
            return code >= 0 && code < names.size() ? names.get(code) : "0x" + Integer.toHexString(code);
        }

        /** A SETTINGS frame's value of {@code id}, or {@code otherwise}. */
        int setting(int id, int otherwise) {
            ByteBuffer b = ByteBuffer.wrap(payload);
            int value = otherwise;
            while (b.remaining() >= 6) {
                int key = b.getShort() & 0xFFFF;
                int v = b.getInt();
                if (key == id) {
                    value = v;
                }
            }
            return value;
        }
    }

    /** A frame: its 9-byte header (length, type, flags, stream) and payload. */
    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        b.put((byte) type).put((byte) flags).putInt(stream & 0x7FFF_FFFF).put(payload);
        return b.array();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static byte[] filled(int n) {
        byte[] bytes = new byte[Math.max(0, n)];
        Arrays.fill(bytes, (byte) 'a');
        return bytes;
    }
}
