package servers;

import model.ChunkSink;
import model.Page;
import model.Render;
import model.Render.RenderFailedException;
import site.Site;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One request's answers on {@link VertxServer}, on the handler the plan chose ({@code threading}). Vert.x's response
 * may be written from any thread (it hands the writes to the connection's event loop), which is what lets a render
 * on another thread write its chunks.
 */
record VertxResponder(Site site, HttpServerRequest req, ThreadingModel threading) implements Site.Responder<Void> {

    private HttpServerResponse res() {
        return req.response();
    }

    /**
     * HTTP/2 (h2c or h2): connection-specific headers such as {@code Connection} are forbidden there (RFC 9113
     * section 8.2.2), and a connection carries other streams, so a page is cut by resetting its stream alone.
     */
    private boolean http2() {
        return req.version() == HttpVersion.HTTP_2;
    }

    private boolean http10() {
        return req.version() == HttpVersion.HTTP_1_0;
    }

    /**
     * {@code close} among the request's Connection tokens: Vert.x closes after the response only when the
     * header is exactly {@code close} (measured: {@code keep-alive, close} kept the connection open).
     */
    private boolean askedToClose() {
        for (String value : req.headers().getAll("Connection")) {
            for (String token : value.split(",")) {
                if (token.trim().equalsIgnoreCase("close")) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public Void fixed(Site.Reply reply) {
        send(reply);
        return null;
    }

    /** Sends {@code reply}; completes once its last byte is written (or failed). */
    private Future<Void> send(Site.Reply reply) {
        HttpServerResponse res = res().setStatusCode(reply.status()).putHeader("Content-Type", reply.contentType());
        reply.headers().forEach(res::putHeader);
        boolean close = reply.close() || askedToClose();
        if (close && !http2()) {
            res.putHeader("Connection", "close");   // Vert.x leaves the header alone, but does not close itself
        }
        // The length, also for HEAD: Vert.x sets none on a HEAD response, and sends no body.
        res.putHeader("Content-Length", String.valueOf(reply.body().length));
        Future<Void> ended = reply.head() ? res.end() : res.end(Buffer.buffer(reply.body()));
        if (close) {
            ended.onComplete(done -> req.connection().close());
        }
        return ended;
    }

    @Override
    public Void fixedLater(CompletableFuture<Site.Reply> reply) {
        if (threading != ThreadingModel.EVENT_LOOP) {
            return Site.Responder.super.fixedLater(reply);
        }
        // The event loop must not wait: the reply is sent when the render (on a virtual thread) completes.
        Runnable written = site.hold();
        reply.whenComplete((r, failure) -> send(r).onComplete(done -> written.run()));
        return null;
    }

    @Override
    public Void page(Page page) {
        // setChunked: not for 1.0; over HTTP/2 it has no effect, and each write becomes DATA frames, flushed.
        HttpServerResponse res = res().putHeader("Content-Type", Site.HTML).setChunked(true);
        if (http10()) {
            // An HTTP/1.0 body without length ends when the connection closes. Vert.x says keep-alive to a
            // client that asked for it (when it writes the headers, hence this hook) and would keep it open.
            res.headersEndHandler(v -> res.putHeader("Connection", "close"));
        } else if (askedToClose() && !http2()) {
            res.putHeader("Connection", "close");
        }
        switch (threading) {
            case EVENT_LOOP -> fromRenderThreads(page, res);
            default -> blockingHere(page, res);   // the request's virtual thread, or a worker
        }
        return null;
    }

    /** The last chunk; then, for HTTP/1.0, the close that ends the body (or that the client asked for). */
    private Future<Void> end(HttpServerResponse res) {
        Future<Void> ended = res.end();
        if (http10() || askedToClose()) {
            ended.onComplete(done -> req.connection().close());
        }
        return ended;
    }

    /**
     * Never end a failed page as if complete: close the connection with the chunked body unfinished (Vert.x
     * writes the chunks already queued first).
     */
    private void abort() {
        if (http2()) {
            res().reset();   // RST_STREAM: the other streams of the connection go on
            return;
        }
        req.connection().close();
    }

    /**
     * The event loop's way: the render writes each chunk from its own threads (RxJava's, or a virtual thread's
     * for a whole page), and the last chunk follows when it ends. Those threads must not block, so nothing
     * waits on a full write queue here: Vert.x queues the writes, and a page is a few KiB, far below the
     * queue's high-water mark (64 KiB).
     */
    private void fromRenderThreads(Page page, HttpServerResponse res) {
        Runnable written = site.hold();   // until the last chunk is written, not only until the render ended
        Render render = site.render(page, bytes -> {
            if (res.closed()) {
                throw new IOException("client went away");
            }
            res.write(Buffer.buffer(bytes));
        });
        res.closeHandler(v -> render.cancel());
        site.startLater(render).done().whenComplete((v, failure) -> {
            if (failure == null) {
                end(res).onComplete(done -> written.run());
            } else {
                abort();
                written.run();
            }
        });
    }

    /**
     * The request's virtual thread's way, and a worker thread's: it renders the page itself
     * ({@link Site#streamHere}) and writes each chunk, blocking while Vert.x's write queue is full. (Not
     * Future.await, which is for Vert.x's own virtual-thread verticles: on other threads it throws.)
     */
    private void blockingHere(Page page, HttpServerResponse res) {
        ChunkSink socket = bytes -> {
            if (res.closed()) {
                throw new IOException("client went away");
            }
            Future<Void> written = res.write(Buffer.buffer(bytes));
            if (res.writeQueueFull()) {
                join(written);
            }
        };
        try {
            site.streamHere(page, socket);
        } catch (RenderFailedException e) {
            abort();
            return;
        }
        try {
            join(end(res));   // returns once the last chunk is written: a drain waits for it
        } catch (IOException e) {
            // the client went away at the very end
        }
    }

    private static void join(Future<Void> write) throws IOException {
        try {
            write.toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw new IOException("client went away", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
