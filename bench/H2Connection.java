package bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/2 connection of {@link H2Load} and its stream slots ({@link H2Slot}), all on one event loop: it keeps {@code streams}
 * requests in flight (closed loop) or sends each slot's requests on the slot's schedule (open loop), times each
 * stream's DATA frames as their bytes are read, and records each finished stream in its loop's
 * {@link H2Job.Tally}, as {@link LoadWorker} records an HTTP/1.1 response, the first wrong ones kept
 * ({@link WrongResponses}). A connection that closes counts its streams in flight as i/o errors and is opened again.
 * A GOAWAY is HTTP/2's {@code Connection: close} (RFC 9113, 6.8), not an error in itself: the streams it names as
 * processed finish on the old connection, those above its last stream id (never processed) are sent again, and when
 * none is left in flight the client closes the old connection and opens a new one.
 */
final class H2Connection extends Http2FrameAdapter {

    /** HTTP/2's initial window (RFC 9113, 6.9.2): what a window is until a SETTINGS or WINDOW_UPDATE changes it. */
    static final int DEFAULT_WINDOW = 65_535;
    /**
     * The windows the client opens, deliberately Chromium's (6 MB per stream in its SETTINGS, the connection's raised
     * to 15 MB by a WINDOW_UPDATE), as verify's client opens them: pages measured as a browser receives them, not held
     * back by HTTP/2's initial 65,535 bytes when many pages share a connection.
     */
    static final int STREAM_WINDOW = 6 * 1024 * 1024;
    static final int CONNECTION_WINDOW = 15 * 1024 * 1024;

    /** The SETTINGS the client sends: Chromium's stream window, no push. */
    static Http2Settings settings() {
        return Http2Settings.defaultSettings().initialWindowSize(STREAM_WINDOW).pushEnabled(false);
    }

    /** How long after a failed connect the next attempt starts: a refusing server does not spin the loop. */
    private static final long RECONNECT_MILLIS = 10;
    private static final long SWEEP_MILLIS = 100;

    private final H2Job.Shared shared;
    private final H2Job plan;
    private final EventLoop loop;
    private final H2Job.Tally tally;
    private final H2Slot[] slots;
    private final Http2Headers request;
    private final String host;
    private final int port;
    private final long timeoutNanos;
    private Channel channel;
    private ChannelHandlerContext ctx;   // the HTTP/2 handler's, once the server's SETTINGS arrived
    private Http2ConnectionHandler handler;
    private Http2Connection.PropertyKey slotKey;
    private boolean ready;   // the server's first SETTINGS arrived: requests may go
    private boolean closed;   // the run is over
    private boolean goingAway;   // the server sent GOAWAY on this connection: no new stream starts on it
    /** When the bytes being decoded now were read from the socket: every frame in them arrived then. */
    private long readNanos;
    /** Whether a read is being handled: the HTTP/2 handler flushes what was written at its end. */
    private boolean inRead;

    /** {@code index}: this connection's place among all, which spreads its slots' schedules over the period. */
    H2Connection(H2Job.Shared shared, EventLoop loop, H2Job.Tally tally, int index, long start) {
        this.shared = shared;
        this.plan = shared.plan();
        this.loop = loop;
        this.tally = tally;
        URI uri = plan.uri();
        this.host = uri.getHost();
        this.port = uri.getPort() >= 0 ? uri.getPort() : plan.tls() ? 443 : 80;
        this.timeoutNanos = plan.timeout().toNanos();
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        this.request = new DefaultHttp2Headers().method("GET").scheme(plan.scheme()).path(path)
                .authority(uri.getRawAuthority());
        this.slots = new H2Slot[plan.streams()];
        double period = plan.openLoop() ? plan.slots() * 1e9 / plan.rate() : 0;
        for (int k = 0; k < slots.length; k++) {
            // Every slot of every connection spread evenly over one period, as wrk2 spreads its connections.
            long offset = plan.openLoop() ? (long) (period * (index * (long) slots.length + k) / plan.slots()) : 0;
            slots[k] = new H2Slot(start + offset, period, plan.firstItemEnd(),
                    WrongResponses.keepLimit(plan.bodyLength()));
        }
    }

    void start() {
        loop.execute(() -> {
            connect();
            loop.scheduleAtFixedRate(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        });
    }

    /** Ends the connection for good (from any thread); done when the returned future is. */
    io.netty.util.concurrent.Future<?> stop() {
        return loop.submit(() -> {
            closed = true;
            if (channel != null) {
                channel.close();
            }
        });
    }

    private void connect() {
        if (closed) {
            return;
        }
        ready = false;
        goingAway = false;
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, plan.timeout().toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new ReadStamp());   // first: the time the bytes came off the socket
                        if (shared.tls() == null) {
                            ch.pipeline().addLast(http2());
                            return;
                        }
                        SslHandler ssl = shared.tls().newHandler(ch.alloc(), host, port);
                        ch.pipeline().addLast(ssl);
                        ssl.handshakeFuture().addListener(done -> {
                            String chosen = ssl.applicationProtocol();
                            if (!done.isSuccess()) {
                                // None has succeeded yet: the certificate or TLS itself is wrong, not the load.
                                // (Not connected at all, or closed by the run's end: said elsewhere, or nothing.)
                                if (!closed && ch.isActive()) {
                                    if (!shared.handshaken().get()) {
                                        Throwable why = done.cause();
                                        shared.fail("the TLS handshake with " + plan.uri() + " failed: "
                                                + (why.getMessage() == null ? why : why.getMessage()) + ".");
                                    }
                                    countIfMeasuring();
                                }
                                ch.close();
                            } else if (!ApplicationProtocolNames.HTTP_2.equals(chosen)) {
                                shared.fail("ALPN at " + plan.uri() + " chose " + (chosen == null ? "no protocol"
                                        : chosen) + ", not h2: the server does not offer HTTP/2 over TLS there.");
                                ch.close();
                            } else {
                                shared.handshaken().set(true);
                                // Added to an active channel, the handler writes its preface at once; flushed
                                // here, as a server may wait for it before it sends its SETTINGS.
                                ch.pipeline().addLast(http2());
                                ch.flush();
                            }
                        });
                    }
                });
        var connecting = bootstrap.connect(host, port);
        Channel ch = connecting.channel();
        channel = ch;
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                countIfMeasuring();
                ch.close();   // closed already as a rule; this makes sure lost() hears of it
            }
        });
        ch.closeFuture().addListener(done -> lost(ch, connecting.isSuccess()));
    }

    /**
     * A new HTTP/2 handler for a connection, this its frame listener, its slots found by a property of the stream. A
     * slot's next request starts when its stream has closed, not at its END_STREAM (the codec closes the stream only
     * after the listener returns): so never more than {@code streams} streams are open, which is what the server's
     * SETTINGS_MAX_CONCURRENT_STREAMS is checked against.
     */
    private Http2ConnectionHandler http2() {
        handler = new Http2ConnectionHandlerBuilder().server(false).frameListener(this)
                .initialSettings(settings()).gracefulShutdownTimeoutMillis(0).build();
        Http2Connection.PropertyKey key = handler.connection().newKey();
        slotKey = key;
        handler.connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                H2Slot s = stream.getProperty(key);   // this connection's key, even when another has replaced it
                if (s == null || s.streamId != stream.id()) {
                    return;
                }
                if (s.inFlight) {   // closed without its end: a stream error the codec found and answered
                    failed(s, "malformed: a stream error the client's HTTP/2 codec answered with RST_STREAM");
                }
                next(s, System.nanoTime());
                if (!inRead && ready && channel.isActive()) {   // closed by a reset's write, not in a read
                    handler.flush(ctx);
                }
                closeIfDrained();
            }
        });
        return handler;
    }

    /** A connection that could not be made, counted as an error when it happens in the measured window. */
    private void countIfMeasuring() {
        long now = System.nanoTime();
        if (now >= shared.window().measureFrom && now < shared.window().end) {
            tally.ioErrors++;
        }
    }

    /** The connection closed: its streams in flight failed; unless the run is over, a new one is opened. */
    private void lost(Channel ch, boolean wasConnected) {
        if (ch != channel) {
            return;
        }
        ready = false;
        long now = System.nanoTime();
        for (H2Slot s : slots) {
            if (s.inFlight) {
                failed(s);
            }
        }
        if (closed) {
            return;
        }
        if (shared.failure().get() != null) {
            return;
        }
        if (wasConnected && now < shared.window().end) {
            connect();
        } else {
            loop.schedule(this::connect, RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        if (ready || closed) {   // a later SETTINGS changes nothing this client relies on
            return;
        }
        Long most = settings.maxConcurrentStreams();
        if (most != null && most < slots.length) {
            shared.fail("the server at " + plan.uri() + " allows " + most + " concurrent streams per connection"
                    + " (its SETTINGS_MAX_CONCURRENT_STREAMS), fewer than --streams=" + slots.length + ".");
            ctx.close();
            return;
        }
        this.ctx = ctx;
        // HTTP/2 has no setting for the connection's window: a WINDOW_UPDATE on stream 0 raises it.
        handler.decoder().flowController().incrementWindowSize(handler.connection().connectionStream(),
                CONNECTION_WINDOW - DEFAULT_WINDOW);
        ready = true;
        long now = System.nanoTime();
        for (H2Slot s : slots) {
            next(s, now);
        }
        handler.flush(ctx);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, 0, (short) 16, false, padding, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        H2Slot s = slot(streamId);
        if (s == null) {
            return;
        }
        CharSequence status = headers.status();
        if (s.status < 0 && status != null && status.length() == 3 && status.charAt(0) != '1') {
            s.status = (status.charAt(0) - '0') * 100 + (status.charAt(1) - '0') * 10 + (status.charAt(2) - '0');
            s.headers = headers;   // the final response's, for a kept copy (not a 1xx's, not the trailers)
        }
        if (endOfStream) {
            end(s, readNanos);
        }
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int bytes = data.readableBytes();
        H2Slot s = slot(streamId);
        if (s != null) {
            s.data(data, readNanos);
            if (endOfStream) {
                end(s, readNanos);
            }
        }
        return bytes + padding;   // consumed at once: the codec returns the window as it fills
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        H2Slot s = slot(streamId);
        if (s != null) {   // the server gave the request up: an error; the slot goes on once the stream closed
            Http2Error code = Http2Error.valueOf(errorCode);
            failed(s, "reset by the server (RST_STREAM " + (code == null ? "error " + errorCode : code.name())
                    + ") after " + s.bodyBytes + " body bytes");
        }
    }

    /**
     * The server is closing the connection (RFC 9113, 6.8): no new stream starts on it; those up to
     * {@code lastStreamId} may still complete and are left to; those above were never processed and are sent again
     * (on the next connection, at the same intended time in the open loop: the wait is in their latency), not
     * errors. With an error code the server reports a connection error: one i/o error in the measured window.
     * Called before the codec closes the streams above {@code lastStreamId} (onStreamClosed then finds them done).
     */
    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        if (!goingAway) {   // a graceful shutdown sends two GOAWAYs (the first with the highest id): one close
            goingAway = true;
            tally.goAways++;
            if (errorCode != Http2Error.NO_ERROR.code()) {
                countIfMeasuring();
            }
        }
        for (H2Slot s : slots) {
            if (s.inFlight && s.streamId > lastStreamId) {
                s.inFlight = false;   // its schedule not advanced: this request is sent again
            }
        }
        closeIfDrained();
    }

    /** After a GOAWAY, once no stream of this connection is in flight: closed, and lost() opens the next. */
    private void closeIfDrained() {
        if (!goingAway || !channel.isActive()) {
            return;
        }
        for (H2Slot s : slots) {
            if (s.inFlight) {
                return;
            }
        }
        channel.close();
    }

    /** The slot whose request is this stream, or null (a stream already given up, or not this client's). */
    private H2Slot slot(int streamId) {
        Http2Stream stream = handler.connection().stream(streamId);
        H2Slot s = stream == null ? null : stream.getProperty(slotKey);
        return s != null && s.inFlight && s.streamId == streamId ? s : null;
    }

    /** Sends the slot's request: its next intended time in the open loop, now in the closed loop. */
    private void send(H2Slot s, long now) {
        s.begin(plan.openLoop() ? s.nextIntended : now);
        int id = handler.connection().local().incrementAndGetNextStreamId();
        s.streamId = id;
        // A stream that cannot start (the server said GOAWAY) fails the write: the connection closes and opens again.
        handler.encoder().writeHeaders(ctx, id, request, 0, true, ctx.newPromise())
                .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        Http2Stream stream = handler.connection().stream(id);
        if (stream != null) {
            stream.setProperty(slotKey, s);
        }
    }

    /** The slot's next request: at once in the closed loop; in the open loop when due, else at its intended time. */
    private void next(H2Slot s, long now) {
        if (!ready || closed || goingAway || s.inFlight || !channel.isActive()) {
            return;
        }
        if (!plan.openLoop() || s.nextIntended <= now) {
            send(s, now);
        } else {
            loop.schedule(() -> {
                if (ready && !closed && !goingAway && !s.inFlight) {
                    send(s, System.nanoTime());
                    handler.flush(ctx);
                }
            }, s.nextIntended - now, TimeUnit.NANOSECONDS);
        }
    }

    /** The stream ended: counted and recorded as {@link LoadWorker} records a response (the next: onStreamClosed). */
    private void end(H2Slot s, long now) {
        s.inFlight = false;
        LoadWorker.Window window = shared.window();
        window.completed.increment();
        boolean measured = s.intended >= window.measureFrom && now <= window.end;
        s.advanceSchedule();
        if (measured) {
            tally.requests++;
            if (s.status / 100 != 2) {
                tally.non2xx++;
                window.wrong.offer("status " + s.status, s::kept);
            } else if (s.bodyBytes != plan.bodyLength() || s.crc.getValue() != plan.bodyCrc()) {
                tally.wrongBodies++;
                window.wrong.offer("wrong body", s::kept);
            } else {
                tally.frames += s.frames;
                tally.ttfb.recordValue(micros(s.firstByteNanos - s.intended));
                tally.firstItem.recordValue(micros(s.markNanos - s.intended));
                tally.ttlb.recordValue(micros(now - s.intended));
            }
        }
    }

    /**
     * A stream that failed (its connection closed, a stream error the codec answered): an i/o error in the measured
     * window, unless the run is over and closed it ({@link #stop}: what was in flight then was not measured, nothing
     * failed).
     */
    private void failed(H2Slot s) {
        failed(s, null);
    }

    /** As {@link #failed(H2Slot)}, and the response so far kept as wrong when {@code why} is not null. */
    private void failed(H2Slot s, String why) {
        s.inFlight = false;
        LoadWorker.Window window = shared.window();
        if (!closed && s.intended >= window.measureFrom && s.intended < window.end) {
            tally.ioErrors++;
            if (why != null) {
                window.wrong.offer(why, s::kept);
            }
        }
        s.advanceSchedule();
    }

    /** Every 100 ms: a stream past the timeout is counted, reset (CANCEL, as a browser gives one up) and replaced. */
    private void sweep() {
        if (!ready || closed) {
            return;
        }
        long now = System.nanoTime();
        boolean reset = false;
        for (H2Slot s : slots) {
            if (s.inFlight && now - s.intended > timeoutNanos) {
                if (s.intended >= shared.window().measureFrom) {
                    tally.timeouts++;
                    shared.window().wrong.offer("no end after " + plan.timeout().toSeconds() + " s", s::kept);
                }
                s.inFlight = false;
                s.advanceSchedule();
                // The slot's next request follows when the stream has closed (onStreamClosed).
                handler.resetStream(ctx, s.streamId, Http2Error.CANCEL.code(), ctx.newPromise());
                reset = true;
            }
        }
        if (reset) {
            handler.flush(ctx);
        }
    }

    private static long micros(long nanos) {
        return Math.min(LoadWorker.HIGHEST_MICROS, Math.max(0, nanos / 1000));
    }

    /** Stamps each read with its time, before TLS and the HTTP/2 codec take its bytes apart. */
    private final class ReadStamp extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            readNanos = System.nanoTime();
            inRead = true;
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            try {
                ctx.fireChannelReadComplete();   // the HTTP/2 handler flushes the requests written meanwhile
            } finally {
                inRead = false;
            }
        }
    }
}
