package stress;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * One request's stream on an {@link H2Client} connection: its headers, then its DATA frames counted and checksummed
 * (CRC32C, as bench's parser does over HTTP/1.1), until its end; or, if asked, reset by this client after its first
 * DATA frame.
 */
final class H2Stream extends ChannelInboundHandlerAdapter {

    /**
     * How one stream ended: its status (0: none), the body's length and CRC32C so far, a failure (null: it ended
     * normally, or this client reset it as asked), the times of its headers and end (ns after the request), and
     * whether this client reset it after its first DATA frame.
     */
    record Got(int status, long bodyBytes, long bodyCrc, String failure, long ttfbNanos, long ttlbNanos,
               boolean reset) {

        /** A whole page, 200, equal to the one of {@code length} bytes with CRC32C {@code crc}. */
        boolean page(long length, long crc) {
            return failure == null && !reset && status == 200 && bodyBytes == length && bodyCrc == crc;
        }

        /** What was wrong with it, for a page of {@code length} bytes with CRC32C {@code crc}. */
        String problem(long length, long crc) {
            return failure != null ? failure : reset ? "reset" : status != 200 ? "status " + status
                    : bodyBytes != length || bodyCrc != crc ? "a body other than the page over HTTP/1.1"
                    : "the whole page in its first DATA frame";
        }
    }

    /** Streams sent and not yet ended, over every connection that shares it, and their peak. */
    static final class Gauge {
        private final AtomicInteger open = new AtomicInteger();
        private final AtomicInteger peak = new AtomicInteger();

        void up() {
            peak.accumulateAndGet(open.incrementAndGet(), Math::max);
        }

        void down() {
            open.decrementAndGet();
        }

        int peak() {
            return peak.get();
        }
    }

    private final long start = System.nanoTime();
    private final CompletableFuture<Got> result;
    private final boolean resetAfterFirstData;
    private final Gauge gauge;
    private final CRC32C crc = new CRC32C();
    private long bytes;
    private int status;
    private long headersAt = -1;
    private boolean counted;
    private boolean ended;

    H2Stream(CompletableFuture<Got> result, boolean resetAfterFirstData, Gauge gauge) {
        this.result = result;
        this.resetAfterFirstData = resetAfterFirstData;
        this.gauge = gauge;
    }

    // Synchronized (cheap, uncontended): the write listeners that call sent() and fail() are not the reads.
    synchronized void sent() {
        if (!ended && gauge != null) {
            counted = true;
            gauge.up();
        }
    }

    synchronized void fail(String why) {
        end(why, false);
    }

    private synchronized void end(String failure, boolean reset) {
        if (ended) {
            return;
        }
        ended = true;
        if (counted) {
            gauge.down();
        }
        result.complete(new Got(status, bytes, crc.getValue(), failure, headersAt,
                System.nanoTime() - start, reset));
    }

    @Override
    public synchronized void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            boolean last = false;
            if (msg instanceof Http2HeadersFrame frame) {
                if (headersAt < 0) {
                    headersAt = System.nanoTime() - start;
                    CharSequence code = frame.headers().status();
                    status = code == null ? 0 : Integer.parseInt(code.toString());
                }
                last = frame.isEndStream();
            } else if (msg instanceof Http2DataFrame frame) {
                int n = frame.content().readableBytes();
                if (n > 0) {
                    byte[] data = new byte[n];
                    frame.content().getBytes(frame.content().readerIndex(), data);
                    crc.update(data);
                    bytes += n;
                    if (resetAfterFirstData && !frame.isEndStream()) {
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
