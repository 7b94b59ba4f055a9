package bench;

import cli.Registry;
import http.Protocol;
import load.LoadGenerator;
import load.WrongResponses;
import model.Page;
import site.Combination;
import tables.Row;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP/2 client's failure paths against a real HTTP/2 server in the test (Netty's server codec, h2c by prior
 * knowledge on loopback) that answers frame by frame as a wrong server would: a 500, a wrong body, a stream reset
 * mid-body, a GOAWAY, a connection cut, fewer concurrent streams than asked. Each counts what it should and keeps
 * the wrong responses as HTTP/1.1's generator keeps them ({@link WrongResponses}).
 */
class H2ConnectionTest {

    private static final Duration WARMUP = Duration.ofMillis(200);
    private static final Duration WINDOW = Duration.ofMillis(600);
    private static final String HTML = "text/html; charset=utf-8";
    private static final byte[] PAGE = page();
    private static final int FIRST_ITEM_END = new String(PAGE, StandardCharsets.UTF_8).indexOf("</li>") + 5;
    /** The header block of the test server's 200, as the client keeps it. */
    private static final String HEAD_200 = ":status: 200\r\ncontent-type: " + HTML + "\r\n\r\n";

    private static byte[] page() {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<ul>\n");
        for (int i = 0; i < 100; i++) {
            b.append("<li>item ").append(i).append("</li>\n");
        }
        return b.append("</ul>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code page} in three parts, a DATA frame each (the middle one twice: {@code twice}). */
    private static byte[][] thirds(byte[] page, boolean twice) {
        byte[] a = Arrays.copyOfRange(page, 0, page.length / 3);
        byte[] b = Arrays.copyOfRange(page, page.length / 3, 2 * page.length / 3);
        byte[] c = Arrays.copyOfRange(page, 2 * page.length / 3, page.length);
        return twice ? new byte[][] {a, b, b, c} : new byte[][] {a, b, c};
    }

    private static byte[] concat(byte[][] parts) {
        byte[] all = new byte[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    private static LoadGenerator.Plan plan(H2Server server, int connections, int streams) {
        CRC32C crc = new CRC32C();
        crc.update(PAGE);
        return new LoadGenerator.Plan(server.base().resolve("page"), connections, 1, 0, WARMUP, WINDOW, PAGE.length,
                crc.getValue(), FIRST_ITEM_END, Duration.ofSeconds(5), null, Protocol.H2C, streams, null);
    }

    private static String counts(LoadGenerator.Result r) {
        return r.requests() + " requests, non-2xx " + r.non2xx() + ", wrong body " + r.wrongBodies() + ", i/o "
                + r.ioErrors() + ", timeouts " + r.timeouts() + ", GOAWAYs " + r.serverCloses();
    }

    @Test
    void aServerAnswering500IsCountedNon2xxAndItsResponseKept() throws Exception {
        byte[] boom = "boom\n".getBytes(StandardCharsets.US_ASCII);
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(), st -> {
            if (st.n % 3 == 0) {
                st.headers(500, "text/plain", false).data(boom, true);
            } else {
                st.page(thirds(PAGE, false));
            }
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 4));
            assertTrue(r.non2xx() > 0 && r.requests() > r.non2xx(), counts(r));
            assertEquals(0, r.wrongBodies() + r.ioErrors() + r.timeouts(), counts(r));
            assertEquals(Math.min(WrongResponses.KEPT, r.non2xx()), r.kept().size(), counts(r));
            WrongResponses.Kept k = r.kept().get(0);
            assertEquals("status 500", k.why());
            assertEquals(":status: 500\r\ncontent-type: text/plain\r\n\r\nboom\n",
                    new String(k.response(), StandardCharsets.ISO_8859_1), "pseudo-headers as lines, then the body");
            assertArrayEquals(boom, k.body());
            assertTrue(k.whole());
        }
    }

    /** As {@link WrongResponsesTest} over HTTP/1.1: the point's files in wrong/ and its note, over h2c. */
    @Test
    void aWrongBodyIsKeptWithItsBytesInWrongBesideTheVerifiedPage(@TempDir Path out) throws Exception {
        Combination c = Registry.combinations().get(0);
        byte[] page = c.engine().render(Page.STOCKS).getBytes(StandardCharsets.UTF_8);
        byte[] wrongBody = concat(thirds(page, true));
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(),
                st -> st.page(thirds(page, st.n % 3 == 0)))) {
            PointMeasurement m = new PointMeasurement(WARMUP, null, WINDOW, 1, false, out);
            Point p = new Point(c, Page.STOCKS, 2, 0, Protocol.H2C, 4);
            String name = p.name() + "-rep1";
            Row row = m.measure(server.base(), null, p, page, Double.NaN, () -> false, name);

            assertFalse(row.valid(), "wrong bodies are errors");
            assertTrue(server.streams.get() > 3 * WrongResponses.KEPT, "streams: " + server.streams.get());
            Path wrong = out.resolve("wrong");
            byte[] head = HEAD_200.getBytes(StandardCharsets.ISO_8859_1);
            for (int k = 1; k <= WrongResponses.KEPT; k++) {
                assertArrayEquals(concat(new byte[][] {head, wrongBody}),
                        Files.readAllBytes(wrong.resolve(name + "-" + k + ".http")), "kept " + k);
                assertArrayEquals(wrongBody, Files.readAllBytes(wrong.resolve(name + "-" + k + ".html")),
                        "kept " + k + "'s body");
            }
            assertFalse(Files.exists(wrong.resolve(name + "-" + (WrongResponses.KEPT + 1) + ".http")));
            assertArrayEquals(page, Files.readAllBytes(wrong.resolve(name + ".expected.html")));
            int differs = Arrays.mismatch(page, wrongBody);
            assertTrue(row.note().contains("kept in wrong/: " + name + "-1.http (wrong body: " + wrongBody.length
                    + " bytes instead of " + page.length + ", first difference at byte " + differs + ")"), row.note());
        }
    }

    @Test
    void aStreamResetMidBodyIsAnIoErrorKeptWithWhatArrivedAndTheOtherStreamsGoOn() throws Exception {
        byte[] first = thirds(PAGE, false)[0];
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(), st -> {
            if (st.n % 3 == 0) {
                st.headers(200, HTML, false).data(first, false).reset(Http2Error.INTERNAL_ERROR);
            } else {
                st.page(thirds(PAGE, false));
            }
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 4));
            assertTrue(r.ioErrors() > 0, counts(r));
            // The other streams of the connection completed, right, around the resets.
            assertTrue(r.requests() > r.ioErrors() && r.ttlb().getTotalCount() == r.requests(), counts(r));
            assertEquals(0, r.non2xx() + r.wrongBodies() + r.timeouts(), counts(r));
            assertEquals(Math.min(WrongResponses.KEPT, r.ioErrors()), r.kept().size(), counts(r));
            WrongResponses.Kept k = r.kept().get(0);
            assertEquals("reset by the server (RST_STREAM INTERNAL_ERROR) after " + first.length + " body bytes",
                    k.why());
            assertArrayEquals(concat(new byte[][] {HEAD_200.getBytes(StandardCharsets.ISO_8859_1), first}),
                    k.response());
            assertArrayEquals(first, k.body());
        }
    }

    /**
     * Frames that break HTTP/2's rules (more DATA than the content-length said): the client's codec resets the
     * stream; an i/o error, kept with its header fields, as HTTP/1.1's generator keeps a malformed response.
     */
    @Test
    void aStreamTheClientsCodecResetsAsMalformedIsAnIoErrorAndKept() throws Exception {
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(), st -> {
            if (st.n % 3 == 0) {
                st.headers(200, "text/plain", false, "content-length", "10").data(PAGE, true);
            } else {
                st.page(thirds(PAGE, false));
            }
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 4));
            assertTrue(r.ioErrors() > 0 && r.requests() > 0, counts(r));
            assertEquals(0, r.non2xx() + r.wrongBodies() + r.timeouts(), counts(r));
            assertEquals(Math.min(WrongResponses.KEPT, r.ioErrors()), r.kept().size(), counts(r));
            WrongResponses.Kept k = r.kept().get(0);
            assertTrue(k.why().startsWith("malformed: "), k.why());
            // The DATA frame that broke the rule is not delivered: nothing of the body arrived.
            assertEquals(":status: 200\r\ncontent-type: text/plain\r\ncontent-length: 10\r\n\r\n",
                    new String(k.response(), StandardCharsets.ISO_8859_1));
        }
    }

    /**
     * A GOAWAY is HTTP/2's Connection: close. The server sends it on a connection's sixth stream, naming that stream
     * the last it processes, while it answers each stream 20 ms late: the streams up to it finish on the old
     * connection, those after it (the client had four in flight) are sent again on a new one, and nothing is an
     * error. (Closing at the GOAWAY counted every stream in flight as an i/o error.)
     */
    @Test
    void aGoAwayLetsItsStreamsFinishSendsTheOthersAgainAndIsNoError() throws Exception {
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(), st -> {
            if (st.k == 6) {
                st.goAway();
            }
            st.later(() -> st.page(thirds(PAGE, false)));
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 4));
            assertEquals(0, r.errors(), counts(r));
            assertTrue(r.serverCloses() > 0 && server.connections.get() > 1, counts(r) + ", connections "
                    + server.connections.get());
            assertTrue(r.requests() > 6, counts(r));
            assertTrue(r.kept().isEmpty());
        }
    }

    /** A connection cut without GOAWAY: its streams in flight are i/o errors, a new connection goes on. */
    @Test
    void aConnectionCutMidLoadCountsItsStreamsInFlightAndIsOpenedAgain() throws Exception {
        try (H2Server server = new H2Server(Http2Settings.defaultSettings(), st -> {
            if (st.k == 6) {
                st.cut();
            } else {
                st.later(() -> st.page(thirds(PAGE, false)));
            }
        })) {
            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 4));
            assertTrue(r.ioErrors() > 0 && r.requests() > 0, counts(r));
            assertEquals(0, r.non2xx() + r.wrongBodies() + r.timeouts() + r.serverCloses(), counts(r));
            assertTrue(server.connections.get() > 2, "opened again after each cut: " + server.connections.get());
            // As over HTTP/1.1, a lost connection is counted, not kept (nor taken for a stream error of the codec).
            assertEquals(java.util.List.of(), r.kept());
        }
    }

    /**
     * SETTINGS_MAX_CONCURRENT_STREAMS below --streams fails the point in one sentence (rather than measuring
     * refused streams); at --streams equal to it the client never opens one more, so nothing is refused.
     */
    @Test
    void fewerConcurrentStreamsThanAskedFailThePointAndAsManyAsAllowedRunClean() throws Exception {
        try (H2Server server = new H2Server(Http2Settings.defaultSettings().maxConcurrentStreams(2),
                st -> st.page(thirds(PAGE, false)))) {
            IOException e = assertThrows(IOException.class, () -> LoadGenerator.run(plan(server, 1, 4)));
            assertEquals("the server at " + server.base().resolve("page") + " allows 2 concurrent streams per"
                    + " connection (its SETTINGS_MAX_CONCURRENT_STREAMS), fewer than --streams=4.", e.getMessage());

            LoadGenerator.Result r = LoadGenerator.run(plan(server, 1, 2));
            assertEquals(0, r.errors(), counts(r));
            assertTrue(r.requests() > 0, counts(r));
        }
    }

    /**
     * A small HTTP/2 server (h2c by prior knowledge, loopback, port 0) on Netty's server codec that answers every
     * stream with {@code answer}, frame by frame.
     */
    private static final class H2Server implements AutoCloseable {
        /** The handler ahead of HTTP/2's in each pipeline: closing from it cuts the connection without a GOAWAY. */
        private static final String RAW = "raw";

        final AtomicInteger streams = new AtomicInteger();
        final AtomicInteger connections = new AtomicInteger();
        private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        private final Channel channel;

        H2Server(Http2Settings settings, java.util.function.Consumer<Stream> answer) throws InterruptedException {
            channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            connections.incrementAndGet();
                            Listener listener = new Listener(answer);
                            listener.handler = new Http2ConnectionHandlerBuilder().server(true)
                                    .frameListener(listener).initialSettings(settings).build();
                            ch.pipeline().addLast(RAW, new ChannelInboundHandlerAdapter());
                            ch.pipeline().addLast(listener.handler);
                        }
                    }).bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        }

        URI base() {
            return URI.create("http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort() + "/");
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }

        private final class Listener extends Http2FrameAdapter {
            private final java.util.function.Consumer<Stream> answer;
            Http2ConnectionHandler handler;
            private int onConnection;

            Listener(java.util.function.Consumer<Stream> answer) {
                this.answer = answer;
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                answer.accept(new Stream(streams.incrementAndGet(), ++onConnection, streamId, ctx, handler));
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                      int streamDependency, short weight, boolean exclusive, int padding,
                                      boolean endOfStream) {
                onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }
        }
    }

    /**
     * One stream the server received ({@code n}: its number among all, {@code k}: on its connection, from 1) and
     * what the server can send on it, each frame flushed at once (so a DATA frame goes out before a reset).
     */
    private record Stream(int n, int k, int id, ChannelHandlerContext ctx, Http2ConnectionHandler handler) {
        /** HEADERS with {@code status}, {@code type} and {@code more} header fields (name, value, ...). */
        Stream headers(int status, String type, boolean end, String... more) {
            Http2Headers headers = new DefaultHttp2Headers().status(String.valueOf(status)).set("content-type", type);
            for (int i = 0; i < more.length; i += 2) {
                headers.set(more[i], more[i + 1]);
            }
            handler.encoder().writeHeaders(ctx, id, headers, 0, end, ctx.newPromise());
            handler.flush(ctx);
            return this;
        }

        Stream data(byte[] bytes, boolean end) {
            handler.encoder().writeData(ctx, id, Unpooled.wrappedBuffer(bytes), 0, end, ctx.newPromise());
            handler.flush(ctx);
            return this;
        }

        /** A 200 with {@code parts} as its DATA frames. */
        void page(byte[][] parts) {
            headers(200, HTML, false);
            for (int i = 0; i < parts.length; i++) {
                data(parts[i], i == parts.length - 1);
            }
        }

        void reset(Http2Error error) {
            handler.resetStream(ctx, id, error.code(), ctx.newPromise());
            handler.flush(ctx);
        }

        /** GOAWAY naming this stream the last the server processes. */
        void goAway() {
            handler.goAway(ctx, id, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise());
            handler.flush(ctx);
        }

        /** The TCP connection closed under HTTP/2, no GOAWAY. */
        void cut() {
            ctx.pipeline().context(H2Server.RAW).close();
        }

        /** {@code then} 20 ms from now (streams in flight meanwhile), unless the connection is gone. */
        void later(Runnable then) {
            ctx.executor().schedule(() -> {
                if (ctx.channel().isActive()) {
                    then.run();
                }
            }, 20, TimeUnit.MILLISECONDS);
        }
    }
}
