package stress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frames each HTTP/2 attack writes, read back with Netty's own HTTP/2 frame reader and HPACK decoder (a real
 * decoder, not the attacker's code): each batch is the frames its sentence says, on the streams it says, and the
 * header blocks decode to what the attack means them to (the bomb to some 48 MB of fields).
 */
class H2AttacksTest {

    private static final H2Attacks.Target TARGET = new H2Attacks.Target(false, "127.0.0.1:8080",
            H2Malformed.DEFAULT_MAX_FRAME);

    /** One line per frame Netty read: its type, stream and what it carried. */
    private static List<String> read(byte[] bytes, long maxHeaderList, boolean validate) throws Http2Exception {
        DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader(new DefaultHttp2HeadersDecoder(validate,
                maxHeaderList));
        List<String> frames = new ArrayList<>();
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        Http2FrameAdapter listener = new Http2FrameAdapter() {
            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int stream, Http2Headers headers, int padding,
                                      boolean end) {
                frames.add("HEADERS " + stream + " end=" + end + " " + summary(headers));
            }

            @Override
            public int onDataRead(ChannelHandlerContext ctx, int stream, ByteBuf data, int padding, boolean end) {
                frames.add("DATA " + stream + " " + data.readableBytes() + " end=" + end);
                return data.readableBytes() + padding;
            }

            @Override
            public void onRstStreamRead(ChannelHandlerContext ctx, int stream, long error) {
                frames.add("RST_STREAM " + stream + " " + error);
            }

            @Override
            public void onPingRead(ChannelHandlerContext ctx, long data) {
                frames.add("PING");
            }

            @Override
            public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
                frames.add("SETTINGS " + settings);
            }

            @Override
            public void onWindowUpdateRead(ChannelHandlerContext ctx, int stream, int increment) {
                frames.add("WINDOW_UPDATE " + stream + " " + increment);
            }

            @Override
            public void onPriorityRead(ChannelHandlerContext ctx, int stream, int dependency, short weight,
                                       boolean exclusive) {
                frames.add("PRIORITY " + stream + " on " + dependency + " exclusive=" + exclusive);
            }
        };
        // the reader allocates the header block it gathers from the channel's allocator: a channel of no network
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        try {
            while (in.isReadable()) {
                reader.readFrame(channel.pipeline().firstContext(), in, listener);
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        return frames;
    }

    /** A request's pseudo-headers and how many other fields it has, and their bytes. */
    private static String summary(Http2Headers h) {
        long fields = 0;
        long bytes = 0;
        for (Map.Entry<CharSequence, CharSequence> e : h) {
            if (e.getKey().isEmpty() || e.getKey().charAt(0) != ':') {
                fields++;
                bytes += e.getKey().length() + e.getValue().length();
            }
        }
        return h.method() + " " + h.scheme() + " " + h.path() + " " + h.authority() + " +" + fields + " fields "
                + bytes + " B";
    }

    private static H2Attacks.Target target() {
        return new H2Attacks.Target(TARGET.tls, TARGET.authority, TARGET.maxFrame);
    }

    @Test
    void rapidResetOpensStreamsAndCancelsEachAtOnce() throws Http2Exception {
        H2Attacks.Target t = target();
        List<String> first = read(H2Attacks.RAPID_RESET.frames().next(t), 8192, true);
        assertEquals(H2Attacks.BATCH, first.size());
        assertEquals("HEADERS 1 end=true GET http /stocks 127.0.0.1:8080 +0 fields 0 B", first.get(0));
        assertEquals("RST_STREAM 1 8", first.get(1));
        assertEquals("RST_STREAM 127 8", first.get(first.size() - 1));
        assertEquals("HEADERS 129 end=true GET http /stocks 127.0.0.1:8080 +0 fields 0 B",
                read(H2Attacks.RAPID_RESET.frames().next(t), 8192, true).get(0));
    }

    @Test
    void theContinuationFloodIsOneHeaderBlockThatNeverEnds() throws Http2Exception {
        H2Attacks.Target t = target();
        byte[] bytes = H2Attacks.CONTINUATION_FLOOD.frames().next(t);
        for (int i = 0; i < 3; i++) {
            byte[] more = H2Attacks.CONTINUATION_FLOOD.frames().next(t);
            assertEquals(1, H2Attacks.count(more));
            bytes = H2Attacks.concat(bytes, more);
        }
        // Netty holds the block until END_HEADERS, which the attack never sends: ended here, it decodes whole
        byte[] ended = H2Attacks.concat(bytes, H2Malformed.frame(H2Attacks.CONTINUATION, H2Malformed.END_HEADERS, 1,
                new byte[0]));
        List<String> frames = read(ended, 1 << 30, true);
        assertEquals(1, frames.size());
        int perFrame = H2Malformed.DEFAULT_MAX_FRAME / 126;
        assertEquals("HEADERS 1 end=true GET http /stocks 127.0.0.1:8080 +" + 3 * perFrame + " fields "
                + 3 * perFrame * 123 + " B", frames.get(0));
        // at Netty's default limit the block is refused while it grows, as a server should
        Http2Exception e = assertThrows(Http2Exception.class, () -> read(ended, 8192, true));
        assertTrue(e.getMessage().contains("Header size exceeded"), e.getMessage());
    }

    @Test
    void theHpackBombDecodesToTensOfMegabytes() throws Http2Exception {
        byte[] bytes = H2Attacks.HPACK_BOMB.frames().next(target());
        assertEquals(9 + H2Malformed.DEFAULT_MAX_FRAME, bytes.length);
        String headers = read(bytes, 0xFFFF_FFFFL, true).get(0);
        long fields = Long.parseLong(headers.replaceAll(".* \\+(\\d+) fields .*", "$1"));
        long decoded = Long.parseLong(headers.replaceAll(".* fields (\\d+) B", "$1"));
        assertTrue(fields > 12_000, headers);
        assertTrue(decoded > 40_000_000L, decoded + " bytes decoded from " + bytes.length);
        assertThrows(Http2Exception.class, () -> read(bytes, 8192, true), "refused at Netty's default limit");
    }

    @Test
    void theFloodsOfControlFramesAreWhatTheySay() throws Http2Exception {
        List<String> pings = read(H2Attacks.PING_FLOOD.frames().next(target()), 8192, true);
        assertEquals(java.util.Collections.nCopies(H2Attacks.BATCH, "PING"), pings);
        List<String> settings = read(H2Attacks.SETTINGS_FLOOD.frames().next(target()), 8192, true);
        assertEquals(java.util.Collections.nCopies(H2Attacks.BATCH, "SETTINGS {ENABLE_PUSH=0}"), settings);
        List<String> resets = read(H2Attacks.RESET_FLOOD.frames().next(target()), 8192, true);
        assertEquals(H2Attacks.BATCH / 2, resets.size());
        assertEquals("HEADERS 3 end=true GET http null 127.0.0.1:8080 +0 fields 0 B", resets.get(1), "no :path");
    }

    @Test
    void emptyFramesFollowAnOpenStream() throws Http2Exception {
        H2Attacks.Target t = target();
        assertEquals(List.of("HEADERS 1 end=false GET http /stocks 127.0.0.1:8080 +0 fields 0 B"),
                read(H2Attacks.EMPTY_FRAMES.frames().next(t), 8192, true));
        assertEquals(java.util.Collections.nCopies(H2Attacks.BATCH, "DATA 1 0 end=false"),
                read(H2Attacks.EMPTY_FRAMES.frames().next(t), 8192, true));
    }

    @Test
    void zeroLengthHeadersAreFieldsWithNoNameAndNoValue() throws Http2Exception {
        String headers = read(H2Attacks.ZERO_LENGTH_HEADERS.frames().next(target()), 1 << 30, false).get(0);
        int expected = (H2Malformed.DEFAULT_MAX_FRAME - H2Attacks.request(TARGET, "/stocks").length) / 3;
        assertEquals("HEADERS 1 end=true GET http /stocks 127.0.0.1:8080 +" + expected + " fields 0 B", headers);
        assertThrows(Http2Exception.class, () -> read(H2Attacks.ZERO_LENGTH_HEADERS.frames().next(target()), 1 << 30,
                true), "an empty name is not a valid field");
    }

    @Test
    void theWindowAttacksSetTheirWindowsAndOpenTheirStreams() throws Http2Exception {
        assertEquals(List.of("SETTINGS {INITIAL_WINDOW_SIZE=1}"), read(H2Malformed.frame(H2Malformed.SETTINGS, 0, 0,
                H2Attacks.settings(H2Attacks.DATA_DRIBBLE.settings())), 8192, true));
        H2Attacks.Target t = target();
        for (int i = 0; i < H2Attacks.WINDOW_STREAMS; i++) {
            assertEquals(1, read(H2Attacks.DATA_DRIBBLE.frames().next(t), 8192, true).size());
        }
        assertEquals(0, H2Attacks.DATA_DRIBBLE.frames().next(t).length, "no more than " + H2Attacks.WINDOW_STREAMS);
        byte[] answer = H2Attacks.DATA_DRIBBLE.reply().to(new H2Malformed.Frame(H2Malformed.DATA, 0, 7, new byte[1]));
        assertEquals(List.of("WINDOW_UPDATE 7 1", "WINDOW_UPDATE 0 1"), read(answer, 8192, true));

        assertEquals(List.of("SETTINGS {INITIAL_WINDOW_SIZE=2147483647}"), read(H2Malformed.frame(
                H2Malformed.SETTINGS, 0, 0, H2Attacks.settings(H2Attacks.INTERNAL_BUFFERING.settings())), 8192, true));
        assertEquals(List.of("WINDOW_UPDATE 0 " + (Integer.MAX_VALUE - 65_535),
                "HEADERS 1 end=true GET http /stocks 127.0.0.1:8080 +0 fields 0 B"),
                read(H2Attacks.INTERNAL_BUFFERING.frames().next(target()), 8192, true));
    }

    @Test
    void theResourceLoopMovesStreamsUnderEachOther() throws Http2Exception {
        H2Attacks.Target t = target();
        assertEquals(20, read(H2Attacks.RESOURCE_LOOP.frames().next(t), 8192, true).size());
        List<String> moves = read(H2Attacks.RESOURCE_LOOP.frames().next(t), 8192, true);
        assertEquals(H2Attacks.BATCH, moves.size());
        assertEquals(List.of("PRIORITY 1 on 3 exclusive=true", "PRIORITY 3 on 5 exclusive=true"), moves.subList(0, 2));
        assertEquals("PRIORITY 39 on 1 exclusive=true", moves.get(19));
    }

    @Test
    void overTlsTheRequestsSayHttps() throws Http2Exception {
        H2Attacks.Target t = new H2Attacks.Target(true, "127.0.0.1:8443", H2Malformed.DEFAULT_MAX_FRAME);
        assertTrue(read(H2Attacks.RAPID_RESET.frames().next(t), 8192, true).get(0).contains("GET https /stocks"));
    }
}
