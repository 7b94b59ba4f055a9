package verify;

import com.sun.net.httpserver.HttpServer;
import model.Page;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A foreign app for the tests, on the JDK's HttpServer: the published reference pages laid out otherwise than
 * PssrBench's (other line breaks and indentation between tags, some tag names in upper case: equal under the
 * published normalisation, not byte-identical), at the study's kind of paths ({@link #PATHS}), sent progressively
 * (the head, then an item every {@code delay}), or one of the targets the guard must refuse.
 */
public final class ForeignServer implements AutoCloseable {

    /** What the server does wrong, if anything. */
    public enum Variant { GOOD, WHOLE, WRONG_PAGE, ERROR, ENDLESS }

    /** Where the pages are served, as the study's WebFlux app serves them. */
    public static final String PRESENTATIONS = "/presentations/jstachio/virtualSync";
    public static final String STOCKS = "/stocks/jstachio/virtualSync";
    private static final Pattern ITEM = Pattern.compile("(?i)<div class=\"card |<tr class=\"");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private volatile boolean closed;

    public ForeignServer(Variant variant, Duration delay) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        byte[] presentations = relaid(Page.PRESENTATIONS);
        byte[] stocks = relaid(Page.STOCKS);
        server.createContext(PRESENTATIONS, e -> serve(e, variant == Variant.WRONG_PAGE ? stocks : presentations,
                variant, delay));
        server.createContext(STOCKS, e -> serve(e, variant == Variant.WRONG_PAGE ? presentations : stocks, variant,
                delay));
        // The stylesheet the pages link, as the study's apps serve it from the webjar (a browser waits for it).
        server.createContext("/webjars/", e -> {
            try (e; InputStream in = ForeignServer.class.getResourceAsStream("/META-INF/resources"
                    + e.getRequestURI().getPath())) {
                if (in == null) {
                    e.sendResponseHeaders(404, -1);
                    return;
                }
                byte[] css = in.readAllBytes();
                e.getResponseHeaders().set("Content-Type", "text/css; charset=utf-8");
                e.sendResponseHeaders(200, css.length);
                e.getResponseBody().write(css);
            }
        });
        server.start();
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    /** The reference page with other whitespace between tags and upper-case cells. */
    public static byte[] relaid(Page<?> page) {
        String resource = "/data/expected/" + page.id() + ".html";
        try (InputStream in = ForeignServer.class.getResourceAsStream(resource)) {
            String html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return html.replaceAll(">\\s+<", ">\r\n <").replace("<td>", "<TD>").replace("</td>", "</TD>")
                    .getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page cut before each item's markup: the pieces a progressive app sends one delay apart. */
    static List<byte[]> pieces(byte[] page) {
        String html = new String(page, StandardCharsets.UTF_8);
        List<byte[]> pieces = new ArrayList<>();
        Matcher m = ITEM.matcher(html);
        int from = 0;
        while (m.find()) {
            pieces.add(html.substring(from, m.start()).getBytes(StandardCharsets.UTF_8));
            from = m.start();
        }
        pieces.add(html.substring(from).getBytes(StandardCharsets.UTF_8));
        return pieces;
    }

    private void serve(com.sun.net.httpserver.HttpExchange e, byte[] page, Variant variant, Duration delay)
            throws IOException {
        try (e; OutputStream out = e.getResponseBody()) {
            e.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            switch (variant) {
                case ERROR -> {
                    byte[] error = "<html><body><h1>500 Internal Server Error</h1></body></html>"
                            .getBytes(StandardCharsets.UTF_8);
                    e.sendResponseHeaders(500, error.length);
                    out.write(error);
                }
                case WHOLE -> {
                    pause(delay.multipliedBy(pieces(page).size() - 1));
                    e.sendResponseHeaders(200, page.length);
                    out.write(page);
                }
                case ENDLESS -> {
                    e.sendResponseHeaders(200, 0);   // chunked, never ended
                    out.write(pieces(page).get(0));
                    // Without a delay, in large pieces: a body that grows fast.
                    byte[] more = "<p>more</p>\n".repeat(delay.isZero() ? 1000 : 1).getBytes(StandardCharsets.UTF_8);
                    while (!closed) {
                        out.write(more);
                        out.flush();
                        pause(delay);
                    }
                }
                default -> {
                    e.sendResponseHeaders(200, 0);   // chunked: each piece flushed as it is "rendered"
                    List<byte[]> pieces = pieces(page);
                    for (int i = 0; i < pieces.size(); i++) {
                        if (i > 0) {
                            pause(delay);
                        }
                        out.write(pieces.get(i));
                        out.flush();
                    }
                }
            }
        } catch (IOException gone) {
            // the client went away (an endless body cut off): nothing to answer
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        threads.shutdownNow();
    }
}
