package load;

import client.H2Dial;
import client.ReadStamp;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
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

import java.util.concurrent.TimeUnit;

/**
 * One HTTP/2 connection of {@link H2Load} and its stream slots ({@link H2Slot}), all on one event loop, made as every
 * HTTP/2 connection is ({@link H2Dial}): it keeps {@code streams} requests in flight (closed loop) or sends each
 * slot's requests on the slot's schedule (open loop), times each stream's DATA frames as their bytes are read
 * ({@link ReadStamp}), and records each finished stream in its loop's {@link Tally}, as {@link LoadWorker} records an
 * HTTP/1.1 response, the first wrong ones kept ({@link WrongResponses}). A connection that closes counts its streams
 * in flight as i/o errors and is opened again. A GOAWAY is HTTP/2's {@code Connection: close} (RFC 9113, 6.8), not an
 * error in itself: the streams it names as processed finish on the old connection, those above its last stream id
 * (never processed) are sent again, and when none is left in flight the client closes the old connection and opens a
 * new one.
 */
final class H2Connection extends Http2FrameAdapter implements H2Dial.Ready {

    /** How long after a failed connect the next attempt starts: a refusing server does not spin the loop. */
    private static final long RECONNECT_MILLIS = 10;
    private static final long SWEEP_MILLIS = 100;

    private final H2Job.Shared shared;
    private final H2Job plan;
    private final EventLoop loop;
    private final Tally tally;
    private final H2Slot[] slots;
    private final Http2Headers request;
    private Channel channel;
    private ChannelHandlerContext ctx;   // the HTTP/2 handler's, once the server's SETTINGS arrived
    private Http2ConnectionHandler handler;
    private Http2Connection.PropertyKey slotKey;
    private boolean ready;   // the server's first SETTINGS arrived: requests may go
    private boolean closed;   // the run is over
    private boolean goingAway;   // the server sent GOAWAY on this connection: no new stream starts on it
    /** When the bytes being decoded now were read from the socket, and whether a read is being handled. */
    private final ReadStamp stamp = new ReadStamp();

    /** {@code index}: this connection's place among all, which spreads its slots' schedules over the period. */
    H2Connection(H2Job.Shared shared, EventLoop loop, Tally tally, int index, long start) {
        this.shared = shared;
        this.plan = shared.plan();
        this.loop = loop;
        this.tally = tally;
        this.request = plan.request();
        this.slots = H2Slot.of(plan, index, start);
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
        var connecting = H2Dial.connect(loop, plan.uri().getHost(), plan.port(), (int) Math.min(Integer.MAX_VALUE,
                plan.timeout().toMillis()), shared.tls(), plan.uri().toString(), stamp, this);
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

    @Override
    public void http2(Channel ch) {
        shared.handshaken().set(true);
        ch.pipeline().addLast(newHandler());
    }

    @Override
    public void refused(Channel ch, String sentence, boolean handshake) {
        if (!handshake) {
            shared.fail(sentence);
        } else if (!closed && ch.isActive()) {
            // None has succeeded yet: the certificate or TLS itself is wrong, not the load. (Not connected at all,
            // or closed by the run's end: said elsewhere, or nothing.)
            if (!shared.handshaken().get()) {
                shared.fail(sentence);
            }
            countIfMeasuring();
        }
    }

    /**
     * A new HTTP/2 handler for a connection, this its frame listener, its slots found by a property of the stream. A
     * slot's next request starts when its stream has closed, not at its END_STREAM (the codec closes the stream only
     * after the listener returns): so never more than {@code streams} streams are open, which is what the server's
     * SETTINGS_MAX_CONCURRENT_STREAMS is checked against. Chromium's windows ({@link H2Dial#chromium}), as verify's
     * client opens them: pages measured as a browser receives them; no push.
     */
    private Http2ConnectionHandler newHandler() {
        handler = new Http2ConnectionHandlerBuilder().server(false).frameListener(this)
                .initialSettings(H2Dial.chromium().pushEnabled(false)).gracefulShutdownTimeoutMillis(0).build();
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
                    s.failed("malformed: a stream error the client's HTTP/2 codec answered with RST_STREAM", closed,
                            tally, shared.window());
                }
                next(s, System.nanoTime());
                if (!stamp.reading() && ready && channel.isActive()) {   // closed by a reset's write, not in a read
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
                s.failed(null, closed, tally, shared.window());
            }
        }
        if (closed || shared.failure().get() != null) {
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
                H2Dial.CONNECTION_WINDOW - H2Dial.DEFAULT_WINDOW);
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
            s.end(stamp.nanos(), tally, plan, shared.window());
        }
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int bytes = data.readableBytes();
        H2Slot s = slot(streamId);
        if (s != null) {
            s.data(data, stamp.nanos());
            if (endOfStream) {
                s.end(stamp.nanos(), tally, plan, shared.window());
            }
        }
        return bytes + padding;   // consumed at once: the codec returns the window as it fills
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        H2Slot s = slot(streamId);
        if (s != null) {   // the server gave the request up: an error; the slot goes on once the stream closed
            Http2Error code = Http2Error.valueOf(errorCode);
            s.failed("reset by the server (RST_STREAM " + (code == null ? "error " + errorCode : code.name())
                    + ") after " + s.bodyBytes + " body bytes", closed, tally, shared.window());
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
            tally.serverCloses++;
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

    /** Every 100 ms: a stream past the timeout is counted, reset (CANCEL, as a browser gives one up) and replaced. */
    private void sweep() {
        if (!ready || closed) {
            return;
        }
        long now = System.nanoTime();
        boolean reset = false;
        for (H2Slot s : slots) {
            if (s.timedOut(now, tally, plan, shared.window())) {
                // The slot's next request follows when the stream has closed (onStreamClosed).
                handler.resetStream(ctx, s.streamId, Http2Error.CANCEL.code(), ctx.newPromise());
                reset = true;
            }
        }
        if (reset) {
            handler.flush(ctx);
        }
    }
}
