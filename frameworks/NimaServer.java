package frameworks;

import core.Approach;
import core.ChunkSink;
import core.Page;
import core.Pools;
import core.PortInUseException;
import core.Render;
import core.Render.RenderFailedException;
import core.ServeConfig;
import core.Server;
import core.Site;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Helidon 4 WebServer ("Níma"): blocking I/O on one virtual thread per connection, no event loop.
 */
public final class NimaServer implements Server {

    @Override
    public String id() {
        return "nima";
    }

    @Override
    public String description() {
        return "Helidon 4.5 WebServer (Níma): a virtual thread per connection, blocking I/O";
    }

    @Override
    public Set<Approach> approaches() {
        return EnumSet.allOf(Approach.class);
    }

    @Override
    public String approachMeaning(Approach approach) {
        return switch (approach) {
            case VIRTUAL -> "the engine renders on the connection's own virtual thread and writes to the socket";
            case BLOCKING -> "the connection's virtual thread hands the render to the platform pool, whose thread"
                    + " renders and writes; the virtual thread parks until it ends";
            case REACTIVE -> "the engine renders on RxJava's threads as items arrive, into a queue; the connection's"
                    + " virtual thread (Níma has no async response API) parks on it and writes each chunk";
        };
    }

    @Override
    public Running start(ServeConfig config, Site site) {
        ExecutorService pool = config.approach() == Approach.BLOCKING
                ? Pools.platform(config.threads(), "nima-render") : null;
        WebServer server = WebServer.builder()
                .host(config.host())
                .port(config.port())
                .shutdownHook(false)   // PssrBench drains and stops servers itself
                // Departs from Helidon's default (false): with Nagle on, every chunked page gains a ~40 ms
                // delayed-ACK stall.
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .routing(routing -> routing.any((req, res) -> site.handle(req.prologue().method().text(),
                        req.path().path(), new Responder(site, res, pool))))
                .build()
                .start();
        if (!server.isRunning()) {   // Helidon's start() does not throw when it cannot bind
            if (pool != null) {
                pool.shutdownNow();
            }
            throw new PortInUseException(config.host(), config.port(), null);
        }
        return new Running() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.stop();
                if (pool != null) {
                    pool.shutdownNow();
                }
            }
        };
    }

    private record Responder(Site site, ServerResponse res, ExecutorService pool) implements Site.Responder<Void> {

        private static final Object END = new Object();

        @Override
        public Void fixed(int status, String contentType, byte[] body, String allow) {
            res.status(status).header("Content-Type", contentType);
            if (allow != null) {
                res.header("Allow", allow);
            }
            res.send(body);
            return null;
        }

        @Override
        public Void page(Page page, boolean head) {
            res.header("Content-Type", Site.HTML);
            if (head) {
                res.send();
                return null;
            }
            OutputStream out = res.outputStream();
            ChunkSink socket = bytes -> {
                out.write(bytes);
                out.flush();   // one flush = one HTTP chunk, written now (Helidon holds the first chunk until then)
            };
            try {
                switch (site.config().approach()) {
                    case VIRTUAL -> site.render(page, socket).blocking();
                    case BLOCKING -> awaitPool(site.render(page, socket));
                    case REACTIVE -> drainQueue(page, socket);
                }
                out.close();   // the last chunk
            } catch (RenderFailedException e) {
                // Never end the response as if complete: close the connection with the chunked body unfinished.
                throw new CloseConnectionException(e.getMessage(), e);
            } catch (IOException e) {
                throw new CloseConnectionException("client went away", e);
            }
            return null;
        }

        private void awaitPool(Render render) {
            Future<?> done = pool.submit(render::blocking);
            try {
                done.get();
            } catch (ExecutionException e) {
                throw (RenderFailedException) e.getCause();
            } catch (InterruptedException e) {
                render.cancel();
                Thread.currentThread().interrupt();
                throw new CloseConnectionException("interrupted", e);
            }
        }

        private void drainQueue(Page page, ChunkSink socket) {
            LinkedBlockingQueue<Object> chunks = new LinkedBlockingQueue<>();
            Render render = site.render(page, chunks::add);
            render.reactive().whenComplete((v, failure) -> chunks.add(failure == null ? END : failure));
            try {
                for (Object next = chunks.take(); next != END; next = chunks.take()) {
                    if (next instanceof RenderFailedException failure) {
                        throw failure;
                    }
                    try {
                        socket.chunk((byte[]) next);
                    } catch (IOException | RuntimeException clientGone) {
                        render.cancel();
                        throw clientGone instanceof RuntimeException r ? r : new CloseConnectionException(
                                "client went away", clientGone);
                    }
                }
            } catch (InterruptedException e) {
                render.cancel();
                Thread.currentThread().interrupt();
                throw new CloseConnectionException("interrupted", e);
            }
        }
    }
}
