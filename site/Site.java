package site;

import base.Durations;
import model.ChunkSink;
import model.Mode;
import model.Page;
import model.Render;
import model.Serving;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Logger;

/**
 * What every server serves, decided once here so that all servers behave the same: the routes, the status codes,
 * the headers, the index page, and the graceful drain on shutdown. Servers translate a request into
 * {@link #handle} and implement a {@link Responder} for their own response API.
 */
public final class Site implements AutoCloseable {

    public static final String HTML = "text/html; charset=utf-8";
    public static final String TEXT = "text/plain; charset=utf-8";
    public static final String ALLOW = "GET, HEAD";

    private static final Logger LOG = Logger.getLogger("pssrbench");

    private final Settings config;
    /** The plan of the site's own mode. */
    private final Serving serving;
    /** Null, or the buffered mode, with which the site also serves the demo ({@code serve --demo}). */
    private final Mode demoBuffered;
    private final byte[] index;
    /** The demo page, or null when the site serves no demo. */
    private final byte[] demo;
    /** The plan of the demo's buffered pages on this server's handler, or null without the demo. */
    private final Serving demoServing;
    private final Requests requests = new Requests();
    private final Renders renders;
    private final Assets assets = Assets.load();
    /** What each page's GET body is, byte for byte: HEAD gives its length. */
    private final Map<Page<?>, byte[]> pageBytes = new java.util.LinkedHashMap<>();
    private volatile boolean draining;

    /**
     * What a site needs to know, the part of {@link ServeConfig} it reads ({@link ServeConfig#site}, its only maker):
     * what its renders read ({@link Render.Feed}: the engine, the data source's delay and a fault to inject), the
     * mode and the plan it serves a page by ({@link Serving}: the mode's render runs where it says), the render
     * pool's size, the grace period it announces while draining, and what {@link ServerInfo#PATH} says.
     * {@code demoBuffered}: null, or the buffered mode, with which the site also serves {@link Demo}'s page and each
     * page rendered by the same engine in that mode under {@link Demo#BUFFERED} ({@code serve --demo}).
     */
    public record Settings(Render.Feed feed, Mode mode, Serving serving, int threads, Duration grace,
                           ServerInfo info, Mode demoBuffered) {
    }

    public Site(Settings config) {
        this.config = config;
        this.serving = config.serving();
        this.demoBuffered = config.demoBuffered();
        this.index = indexPage().getBytes(StandardCharsets.UTF_8);
        this.demo = demoBuffered == null ? null
                : Demo.page(config.info().server(), config.feed().engine(), config.mode(), config.feed().delay())
                .getBytes(StandardCharsets.UTF_8);
        this.demoServing = demoBuffered == null ? null : Serving.on(serving.handler(), demoBuffered);
        this.renders = new Renders(config.feed(), config.threads(), requests);
        for (Page<?> page : Page.values()) {
            pageBytes.put(page, config.feed().engine().render(page).getBytes(StandardCharsets.UTF_8));
        }
    }

    public Settings settings() {
        return config;
    }

    /**
     * A complete response that is not a streamed page: its status, type and body, extra headers, and whether the
     * connection must close after it. For HEAD the server sends the headers a GET would get (Content-Length of
     * {@code body} included) and no body.
     */
    public record Reply(int status, String contentType, byte[] body, boolean head, Map<String, String> headers,
                        boolean close) {
    }

    /** A server's way of answering; {@code R} is whatever its handler returns (nothing, or a Publisher). */
    public interface Responder<R> {
        /** Sends {@code reply} with {@code Content-Length}; closes the connection after it when it says so. */
        R fixed(Reply reply);

        /** 200 with {@link #HTML}, the page streamed from {@link #render} (GET only: HEAD is a {@link Reply}). */
        R page(Page page);

        /**
         * A reply that exists once {@code reply} completes (it never fails): a page rendered whole to memory, sent
         * with {@code Content-Length} ({@link Serving#wholePage()}). The default waits on the calling thread, for
         * servers whose handler thread waits for its page anyway; a server that answers later (an event loop) sends
         * it when it completes instead.
         */
        default R fixedLater(java.util.concurrent.CompletableFuture<Reply> reply) {
            return fixed(reply.join());
        }
    }

    /**
     * One request. {@code path} is without the query. Counted from here until its reply is sent, or until its
     * page's render ends, whichever is later, and never twice (see {@link #drain}).
     */
    public <R> R handle(String method, String path, Responder<R> responder) {
        try (Requests.Request request = requests.begin()) {
            return route(method, path, responder);
        }
    }

    private <R> R route(String method, String path, Responder<R> responder) {
        boolean head = method.equals("HEAD");
        boolean get = head || method.equals("GET");
        if (path.equals(ServerInfo.PATH)) {   // how this server runs, for a client that did not start it
            return get ? responder.fixed(ok(ServerInfo.JSON, info(), head, Map.of())) : notAllowed(method, responder);
        }
        if (path.equals("/")) {
            return get ? responder.fixed(ok(HTML, index, head, Map.of())) : notAllowed(method, responder);
        }
        Page<?> page = pageAt(path);   // the pages first: they are the measured path
        Mode mode = config.mode();
        Serving plan = serving;
        if (page == null && demo != null) {
            if (path.equals(Demo.PATH)) {
                return get ? responder.fixed(ok(HTML, demo, head, Map.of())) : notAllowed(method, responder);
            }
            if (path.startsWith(Demo.BUFFERED + "/")) {
                page = pageAt(path.substring(Demo.BUFFERED.length()));
                mode = demoBuffered;
                plan = demoServing;
            }
        }
        if (page == null) {
            Assets.Asset asset = assets.find(path);
            if (asset != null) {
                return get ? responder.fixed(ok(asset.contentType(), asset.body(), head,
                        Map.of("Cache-Control", asset.cacheControl()))) : notAllowed(method, responder);
            }
            return responder.fixed(new Reply(404, TEXT, bytes("404 Not Found: " + path + "\n"), head, Map.of(),
                    false));
        }
        if (!get) {
            return notAllowed(method, responder);
        }
        if (draining) {
            // Connection: close and Retry-After, so that keep-alive clients stop sending here instead of
            // retrying into more 503s and then losing a request to the close at the end of the grace period.
            return responder.fixed(new Reply(503, TEXT, bytes("503 Service Unavailable: shutting down\n"), head,
                    Map.of("Retry-After", String.valueOf(Math.max(1, config.grace().toSeconds()))), true));
        }
        if (head) {   // the headers a GET would get: its exact length, since every render is byte-identical
            return responder.fixed(ok(HTML, pageBytes.get(page), true, Map.of()));
        }
        if (plan.wholePage()) {
            return responder.fixedLater(whole(page, plan, mode));
        }
        return responder.page(page);
    }

    /** The page whose route is {@code path}, or null. */
    private Page<?> pageAt(String path) {
        for (Page<?> p : pageBytes.keySet()) {
            if (p.path().equals(path)) {
                return p;
            }
        }
        return null;
    }

    /**
     * The page rendered whole to memory, as a reply with its length: the render's only chunk (the mode holds every
     * flush until the end). Nothing has been sent when a render fails, so, unlike a streamed page, the client gets
     * a real status: 500, and the connection closes.
     */
    private java.util.concurrent.CompletableFuture<Reply> whole(Page<?> page, Serving plan, Mode mode) {
        java.util.concurrent.atomic.AtomicReference<byte[]> body = new java.util.concurrent.atomic.AtomicReference<>();
        Render render = renders.start(render(page, bytes -> {
            if (!body.compareAndSet(null, bytes)) {
                throw new IllegalStateException("a buffered page came in more than one piece");
            }
        }), plan, mode, false);
        return render.done().handle((v, failure) -> failure == null
                ? ok(HTML, body.get(), false, Map.of())
                : new Reply(500, TEXT, bytes("500 Internal Server Error: the page could not be rendered\n"), false,
                        Map.of(), true));
    }

    private static Reply ok(String contentType, byte[] body, boolean head, Map<String, String> headers) {
        return new Reply(200, contentType, body, head, headers, false);
    }

    private static <R> R notAllowed(String method, Responder<R> responder) {
        return responder.fixed(new Reply(405, TEXT, bytes("405 Method Not Allowed: " + method + "\n"),
                method.equals("HEAD"), Map.of("Allow", ALLOW), false));
    }

    /**
     * A request whose request line the server's library parsed but which is malformed (a method that is not an RFC
     * 9110 token, a request target that is not a URI): 400 and close, for the servers whose library does not answer
     * it itself. The request is not echoed.
     */
    public <R> R malformed(Responder<R> responder) {
        return responder.fixed(new Reply(400, TEXT, bytes("400 Bad Request: a malformed request line\n"), false,
                Map.of(), true));
    }

    /**
     * An HTTP/1.1 request without a Host header: 400, as RFC 9112 section 3.2 requires, for the servers whose
     * library does not check it itself.
     */
    public <R> R missingHost(Responder<R> responder) {
        return responder.fixed(new Reply(400, TEXT, bytes("400 Bad Request: an HTTP/1.1 request needs a Host"
                + " header\n"), false, Map.of(), true));
    }

    /**
     * For a server that writes a response after its handler returned (an event loop, servlet async): keeps the
     * request being handled on this thread counted, for {@link #drain}, until the returned action runs (once the
     * response's last bytes are written, or it failed). Outside a request it does nothing.
     */
    public Runnable hold() {
        return requests.hold();
    }

    /** A new render of {@code page} for one request, writing its chunks to {@code sink}. */
    public Render render(Page<?> page, ChunkSink sink) {
        return renders.render(page, sink);
    }

    /**
     * Streams a page for a server whose handler thread waits for it (Helidon, a servlet without async): returns once
     * the page is complete, every chunk having gone to {@code sink} on this thread or on a thread this one waited
     * for. The plan says where the render runs (here, when this thread is of the kind the mode renders on).
     *
     * @throws RenderFailedException when the data source, the engine or the client failed; already logged, and
     *                               the server must then close the connection without ending the response
     */
    public void streamHere(Page<?> page, ChunkSink sink) {
        renders.streamHere(page, sink, serving, config.mode());
    }

    /**
     * Streams a page for a server that answers later (an event loop, servlet async): starts the render where the
     * plan says (never on this thread) and returns it at once; chunks go to {@code sink} from the render's threads,
     * one at a time, and {@link Render#done()} tells the end. The server cancels the render when the client goes away.
     */
    public Render streamLater(Page<?> page, ChunkSink sink) {
        return startLater(render(page, sink));
    }

    /**
     * {@link #streamLater} in two steps, for a server that creates the render while handling the request (so a
     * drain counts it) and starts it when its response is subscribed to.
     */
    public Render startLater(Render render) {
        return renders.start(render, serving, config.mode(), true);
    }

    /** The render threads stop; call after the server has stopped. */
    @Override
    public void close() {
        renders.close();
    }

    /** Renders not yet finished, failed or cancelled. */
    public int inFlight() {
        return renders.inFlight();
    }

    /**
     * Graceful shutdown, first half: new page requests get 503, and this waits up to {@code grace} for the pages in
     * flight to finish (a request counts once, from the moment it reaches {@link #handle} until its handler has
     * returned and its render has ended). Returns the number still in flight when the grace period ended.
     *
     * <p>Those are cut here, with one warning for them all: each render stops as if its client had gone, so the
     * server aborts the response its own way (no last chunk) and the render logs only at FINE; this then waits up
     * to {@link Requests#CUT_WAIT} for their handlers to return. Left to the server's stop instead, a render whose thread the
     * server interrupts (Helidon after its own grace, the JDK server's executor) would log a failure at WARNING,
     * once per page.
     */
    public int drain(Duration grace) throws InterruptedException {
        draining = true;
        return requests.drain(grace);
    }

    /** The body of {@link ServerInfo#PATH}, built with Jackson from this server's configuration. */
    private byte[] info() {
        return config.info().toJson();   // per request: clients ask once before they start, not under load
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String indexPage() {
        Settings c = config;
        StringBuilder links = new StringBuilder();
        for (Page p : Page.values()) {
            links.append("<li class=\"list-group-item\"><a href=\"").append(p.path()).append("\">").append(p.title())
                    .append("</a> <span class=\"text-body-secondary\">(").append(p.items().size())
                    .append(" items)</span></li>");
        }
        // Styled with the same Bootstrap the presentations page links, so that / shows whether assets are served.
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>PssrBench</title>"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<link rel=\"icon\" href=\"/images/favicon.ico\">"
                + "<link rel=\"stylesheet\" href=\"/webjars/bootstrap/5.3.0/css/bootstrap.min.css\"></head>"
                + "<body><div class=\"container my-4\"><h1>PssrBench</h1><p>server <b>" + c.info().server()
                + "</b>, engine <b>" + c.feed().engine().id() + "</b>, mode <b>" + c.mode().id() + "</b>, "
                + Durations.format(c.feed().delay()) + " per item</p><ul class=\"list-group\">" + links
                + "</ul><p class=\"mt-3\"><a href=\"" + ServerInfo.PATH + "\">" + ServerInfo.PATH + "</a>: how this"
                + " server is configured, as JSON</p>" + (demoBuffered == null ? "<p>The demo, progressive and"
                + " buffered side by side, is served with <code>serve --demo</code>.</p>" : "<p class=\"mt-3\"><a"
                + " class=\"btn btn-primary\" href=\"" + Demo.PATH + "\">The demo: progressive and buffered side by"
                + " side</a></p>")
                + "</div></body></html>\n";
    }
}
