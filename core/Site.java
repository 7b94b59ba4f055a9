package core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * What every server serves, decided once here so that all servers behave the same: the routes, the status codes,
 * the headers, the index page, and the graceful drain on shutdown. Servers translate a request into
 * {@link #handle} and implement a {@link Responder} for their own response API.
 */
public final class Site {

    public static final String HTML = "text/html; charset=utf-8";
    public static final String TEXT = "text/plain; charset=utf-8";
    public static final String ALLOW = "GET, HEAD";

    private static final Logger LOG = Logger.getLogger("pssrbench");

    private final ServeConfig config;
    private final byte[] index;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger handling = new AtomicInteger();
    private volatile boolean draining;

    public Site(ServeConfig config) {
        this.config = config;
        this.index = indexPage(config).getBytes(StandardCharsets.UTF_8);
    }

    public ServeConfig config() {
        return config;
    }

    /** A server's way of answering; {@code R} is whatever its handler returns (nothing, or a Publisher). */
    public interface Responder<R> {
        /** A small complete response. {@code allow} is null except for 405. */
        R fixed(int status, String contentType, byte[] body, String allow);

        /** 200 with {@link #HTML}; for HEAD the headers only, else the page streamed from {@link #render}. */
        R page(Page page, boolean head);
    }

    public <R> R handle(String method, String path, Responder<R> responder) {
        handling.incrementAndGet();   // counted before any render exists, so a drain cannot miss this request
        try {
            return route(method, path, responder);
        } finally {
            handling.decrementAndGet();
        }
    }

    private <R> R route(String method, String path, Responder<R> responder) {
        if (path.equals(ServerInfo.PATH)) {   // how this server runs, for a client that did not start it
            return switch (method) {
                case "GET" -> responder.fixed(200, ServerInfo.JSON, info(), null);
                case "HEAD" -> responder.fixed(200, ServerInfo.JSON, new byte[0], null);
                default -> responder.fixed(405, TEXT, bytes("405 Method Not Allowed: " + method + "\n"), ALLOW);
            };
        }
        Page page = null;
        if (!path.equals("/")) {
            for (Page p : Page.values()) {
                if (p.path().equals(path)) {
                    page = p;
                }
            }
            if (page == null) {
                return responder.fixed(404, TEXT, bytes("404 Not Found: " + path + "\n"), null);
            }
        }
        boolean head = method.equals("HEAD");
        if (!head && !method.equals("GET")) {
            return responder.fixed(405, TEXT, bytes("405 Method Not Allowed: " + method + "\n"), ALLOW);
        }
        if (page == null) {
            return responder.fixed(200, HTML, head ? new byte[0] : index, null);
        }
        if (draining) {
            return responder.fixed(503, TEXT, bytes("503 Service Unavailable: shutting down\n"), null);
        }
        return responder.page(page, head);
    }

    /** A new render of {@code page} for one request, writing its chunks to {@code sink}. */
    public Render render(Page page, ChunkSink sink) {
        return new Render(config, page, sink, inFlight);
    }

    /** Renders not yet finished, failed or cancelled. */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Graceful shutdown, first half: new page requests get 503, and this waits up to {@code grace} for the pages in
     * flight to finish (a request counts from the moment it reaches {@link #handle}; Reactor Netty subscribes to
     * the page on the same thread right after). Returns the number still in flight when the grace period ended.
     */
    public int drain(Duration grace) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + grace.toNanos();
        while (inFlight.get() + handling.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        int left = inFlight.get() + handling.get();
        if (left > 0) {
            LOG.warning(left + " page(s) still in flight after the " + Durations.format(grace)
                    + " grace period; cutting them");
        }
        return left;
    }

    /** The body of {@link ServerInfo#PATH}, built with Jackson from this server's configuration. */
    private byte[] info() {
        return ServerInfo.of(config).toJson();   // per request: clients ask once before they start, not under load
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String indexPage(ServeConfig c) {
        StringBuilder links = new StringBuilder();
        for (Page p : Page.values()) {
            links.append("<li><a href=\"").append(p.path()).append("\">").append(p.title()).append("</a> (")
                    .append(p.items().size()).append(" items)</li>");
        }
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>PssrBench</title></head><body>"
                + "<h1>PssrBench</h1><p>server <b>" + c.server().id() + "</b>, engine <b>" + c.engine().id()
                + "</b>, mode <b>" + c.approach().id() + "</b>, " + Durations.format(c.delay())
                + " per item</p><ul>" + links + "</ul></body></html>\n";
    }
}
