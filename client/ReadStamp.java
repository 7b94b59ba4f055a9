package client;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Stamps each read of a connection with its time, first in the pipeline, before TLS and the HTTP/2 codec take its
 * bytes apart: every frame decoded from those bytes arrived then ({@link #nanos}), which is when a frame listener
 * times a stream's first byte, each DATA frame and its end. Also says whether a read is being handled
 * ({@link #reading}): the HTTP/2 handler flushes what was written at its end. Sharable by the connections a client
 * opens one after another on one event loop (the one loop touches it), so that a connection's replacement reads the
 * same stamp.
 */
@ChannelHandler.Sharable
public final class ReadStamp extends ChannelInboundHandlerAdapter {

    private long nanos;
    private boolean reading;

    /** When the bytes being decoded now were read from the socket (System.nanoTime()). */
    public long nanos() {
        return nanos;
    }

    /** Whether a read is being handled now. */
    public boolean reading() {
        return reading;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        nanos = System.nanoTime();
        reading = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        try {
            ctx.fireChannelReadComplete();   // the HTTP/2 handler flushes the requests written meanwhile
        } finally {
            reading = false;
        }
    }
}
