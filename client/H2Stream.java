package client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * One request's stream on an {@link H2Client} connection, timed: its status and when its first HEADERS arrived, each
 * DATA frame as it is read, its end, or how it failed (reset by the server, closed before its end); or, if the
 * {@link Listener} asks, reset by this client (RST_STREAM, CANCEL). Times are nanoseconds after {@code start}.
 */
public final class H2Stream extends ChannelInboundHandlerAdapter {

    /** What a caller does with a stream's frames; called on the connection's event loop, one stream at a time. */
    public interface Listener {
        /** The request's HEADERS were written (the stream is open). */
        default void sent() {
        }

        /** A HEADERS frame (the response's, a 1xx's, the trailers), read at {@code nanos}. */
        default void headers(Http2Headers headers, long nanos) {
        }

        /**
         * A DATA frame's payload, not empty, read at {@code nanos} ({@code last}: it ends the stream); the payload is
         * the codec's, to be read without moving its reader index. True: this client resets the stream now.
         */
        boolean data(ByteBuf payload, long nanos, boolean last);

        /**
         * The stream ended at {@code nanos}: normally ({@code failure} null), reset by this client as asked
         * ({@code reset}), or failed, said in {@code failure}. Called once.
         */
        void end(H2Stream stream, String failure, boolean reset, long nanos);
    }

    private final long start;
    private final Listener listener;
    private int status;
    private long headersNanos = -1;
    private long bodyBytes;
    private boolean ended;

    /** {@code start}: the origin of the stream's times (System.nanoTime()). */
    public H2Stream(long start, Listener listener) {
        this.start = start;
        this.listener = listener;
    }

    /** The response's status (0: none yet). */
    public int status() {
        return status;
    }

    /** When the response's first HEADERS arrived, or -1. */
    public long headersNanos() {
        return headersNanos;
    }

    /** The body's bytes so far. */
    public long bodyBytes() {
        return bodyBytes;
    }

    // Synchronized (cheap, uncontended): the write listeners that call sent() and fail() are not the reads.
    synchronized void sent() {
        if (!ended) {
            listener.sent();
        }
    }

    /** Ends the stream as failed, said in {@code why} (the request could not be sent). */
    public synchronized void fail(String why) {
        end(why, false);
    }

    private synchronized void end(String failure, boolean reset) {
        if (ended) {
            return;
        }
        ended = true;
        listener.end(this, failure, reset, System.nanoTime() - start);
    }

    @Override
    public synchronized void channelRead(ChannelHandlerContext ctx, Object msg) {
        long now = System.nanoTime() - start;
        try {
            boolean last = false;
            if (msg instanceof Http2HeadersFrame frame) {
                if (headersNanos < 0) {
                    headersNanos = now;
                    CharSequence code = frame.headers().status();
                    status = code == null ? 0 : Integer.parseInt(code.toString());
                }
                listener.headers(frame.headers(), now);
                last = frame.isEndStream();
            } else if (msg instanceof Http2DataFrame frame) {
                ByteBuf payload = frame.content();
                if (payload.isReadable()) {
                    bodyBytes += payload.readableBytes();
                    if (listener.data(payload, now, frame.isEndStream())) {
                        // RST_STREAM(CANCEL) now, as a browser sends when the user leaves the page; the close
                        // after it sends nothing more (the stream is already reset)
                        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL));
                        end(null, true);
                        ctx.close();
                        return;
                    }
                }
                last = frame.isEndStream();
            }
            if (last) {
                end(null, false);
                ctx.close();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        // The multiplexer hands a stream its RST_STREAM as an event, not as a read (it is not flow-controlled).
        if (event instanceof Http2ResetFrame reset) {
            end("stream reset by the server (error code " + reset.errorCode() + ")", false);
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        end("the HTTP/2 stream closed before its end", false);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        end(cause.getClass().getSimpleName() + ": " + cause.getMessage(), false);
        ctx.close();
    }
}
