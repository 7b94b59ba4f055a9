package load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The first few wrong responses of a point, kept as raw data: "wrong body 1" in a row says that something went
 * wrong, not what; the response itself does (an item out of order, a chunk twice, a torn write). The load
 * generator's workers offer every wrong response of the measured window (a body that is not the verified page, a
 * status other than 2xx, bytes that are no HTTP/1.1 response, one that timed out; over HTTP/2 also a stream the
 * server reset) and the first {@link #KEPT} are kept, as received;
 * bench writes them beside the histograms ({@link #write}) and names them in the row's note. One set of rules for
 * both protocols: HTTP/1.1's {@link LoadWorker} offers its parser's bytes, HTTP/2's {@link H2Connection} a copy its
 * {@link H2Slot} makes.
 *
 * <p>Shared by the workers of one run; only a wrong response touches it, so it costs nothing while the responses
 * are right.
 */
public final class WrongResponses {

    /** How many wrong responses of a point are kept. */
    public static final int KEPT = 3;
    /** Responses of a page larger than this are not kept (each connection would hold one): none here comes near. */
    static final long LARGEST_PAGE = 1 << 20;
    /** The results folder's sub-folder of kept responses. */
    public static final String FOLDER = "wrong";

    /**
     * One kept response: why it is wrong ("wrong body", "status 503", "malformed: ...", "no end after 10 s": what
     * had arrived when it timed out, "reset by the server (RST_STREAM ...) after N body bytes"), its bytes as
     * received and whether those are all of it (false: cut at the keep limit). Over HTTP/1.1 ({@code bodyFrom} -1)
     * the bytes are the status line, headers and body with its chunk framing, the body decoded from them; over
     * HTTP/2, whose header block is HPACK-compressed binary, its header fields one a line as {@code name: value}
     * (pseudo-headers first: {@code :status: 500}), a blank line, and the DATA frames' payloads one after another
     * from {@code bodyFrom} on.
     */
    public record Kept(String why, byte[] response, boolean whole, int bodyFrom) {

        /** The response's body: decoded from its HTTP/1.1 framing, or the bytes after an HTTP/2 header block. */
        public byte[] body() {
            return bodyFrom < 0 ? ResponseParser.decode(response)
                    : java.util.Arrays.copyOfRange(response, bodyFrom, response.length);
        }
    }

    private final AtomicInteger offered = new AtomicInteger();
    private final List<Kept> kept = new ArrayList<>();

    /** The most bytes of one response a connection keeps for a page of {@code bodyLength} bytes; 0: none. */
    static int keepLimit(long bodyLength) {
        return bodyLength > LARGEST_PAGE ? 0 : (int) (2 * bodyLength + 16 * 1024);
    }

    /** Keeps the response {@code parser} has just parsed (or failed to) when fewer than {@link #KEPT} are. */
    void offer(String why, ResponseParser parser) {
        offer(why, w -> new Kept(w, parser.kept(), parser.keptWhole(), -1));
    }

    /**
     * Keeps a response when fewer than {@link #KEPT} are: {@code copy} makes the kept copy from the why (only then,
     * so that a flood of wrong responses copies three), for a client that holds its response otherwise than in a
     * {@link ResponseParser} (HTTP/2's {@link H2Slot}).
     */
    void offer(String why, java.util.function.Function<String, Kept> copy) {
        if (offered.getAndIncrement() < KEPT) {
            // A malformed response's message quotes the server's bytes: a line of the note, not a page of it.
            Kept k = copy.apply(why.length() > 120 ? why.substring(0, 120) + "..." : why);
            synchronized (kept) {
                kept.add(k);
            }
        }
    }

    /** The kept responses in the order they were offered. */
    List<Kept> kept() {
        synchronized (kept) {
            return List.copyOf(kept);
        }
    }

    /**
     * Writes each kept response to {@code out/wrong/NAME-K.http} as received, its body to {@code NAME-K.html} (the
     * chunk framing or the HTTP/2 header fields removed), and the verified page to {@code NAME.expected.html} to
     * compare them with; returns what the row's note says about them, or "" when none was kept.
     */
    public static String write(List<Kept> kept, Path out, String name, byte[] expected) throws IOException {
        if (kept.isEmpty()) {
            return "";
        }
        Path dir = Files.createDirectories(out.resolve(FOLDER));
        base.AtomicFile.write(dir.resolve(name + ".expected.html"), o -> o.write(expected));
        StringBuilder note = new StringBuilder("kept in " + FOLDER + "/: ");
        for (int i = 0; i < kept.size(); i++) {
            Kept k = kept.get(i);
            String file = name + "-" + (i + 1);
            base.AtomicFile.write(dir.resolve(file + ".http"), o -> o.write(k.response()));
            byte[] body = k.body();
            base.AtomicFile.write(dir.resolve(file + ".html"), o -> o.write(body));
            note.append(i == 0 ? "" : ", ").append(file).append(".http (").append(k.why());
            if (k.why().equals("wrong body")) {
                note.append(": ").append(difference(expected, body));
            }
            note.append(k.whole() ? "" : "; its first " + k.response().length + " bytes").append(')');
        }
        return note.toString();
    }

    /** Where {@code got} first differs from {@code want}, in a few words. */
    static String difference(byte[] want, byte[] got) {
        int i = java.util.Arrays.mismatch(want, got);
        return got.length + " bytes instead of " + want.length + ", first difference at byte " + i;
    }
}
