package site;

import base.UsageException;
import cli.Registry;
import model.Page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * serve --demo: both halves of the side-by-side page are real. The server answers its own mode as always, and each
 * page under /buffered/ rendered by the same engine in the buffered mode: the same bytes, whole, with
 * Content-Length, after the last item; on every server, whatever thread its handler runs on.
 */
class DemoTest {

    private static final Duration DELAY = Duration.ofMillis(15);

    private static ServeConfig config(String server, String mode) {
        return ServeConfig.of(new Combination(Registry.server(server), Registry.engine("jstachio"),
                Registry.mode(mode)), DELAY);
    }

    private static Servers.Started demo(ServeConfig config) {
        Site site = config.site(Registry.buffered());
        return new Servers.Started(site, config.server().start(config.listen(), site));
    }

    /** The index page links /info.json, and says how to get the demo when it is not served. */
    @Test
    void theIndexPageLinksInfoJsonAndNamesTheDemo() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Servers.Started plain = Servers.start(config("nima", "virtual")); Servers.Started demo =
                demo(config("nima", "virtual"))) {
            Document index = Jsoup.parse(client.send(HttpRequest.newBuilder(plain.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(1, index.select("a[href=" + ServerInfo.PATH + "]").size(), index.html());
            assertTrue(index.text().contains("is served with serve --demo"), index.text());
            Document withDemo = Jsoup.parse(client.send(HttpRequest.newBuilder(demo.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(1, withDemo.select("a[href=" + ServerInfo.PATH + "]").size(), withDemo.html());
            assertEquals(1, withDemo.select("a[href=" + Demo.PATH + "]").size(), withDemo.html());
        } finally {
            client.shutdownNow();
        }
    }

    @Test
    void theDemoServesTheBufferedVariantOfEveryPageBesideItsOwnMode() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        // a handler on a virtual thread, on a platform pool that waits, and on an event loop that answers later
        for (ServeConfig config : List.of(config("nima", "virtual"), config("javalin", "fragments"),
                config("netty", "virtual"))) {
            String who = config.combination().toString();
            try (Servers.Started s = demo(config)) {
                for (Page<?> page : Page.values()) {
                    byte[] expected = config.engine().render(page).getBytes(StandardCharsets.UTF_8);
                    long start = System.nanoTime();
                    HttpResponse<byte[]> buffered = client.send(HttpRequest.newBuilder(
                            s.uri(Demo.BUFFERED + page.path())).build(), HttpResponse.BodyHandlers.ofByteArray());
                    double millis = (System.nanoTime() - start) / 1e6;
                    assertEquals(200, buffered.statusCode(), who);
                    assertEquals(Site.HTML.replace(" ", ""), buffered.headers().firstValue("content-type").orElse("")
                            .replace(" ", ""), who);
                    assertEquals(String.valueOf(expected.length),
                            buffered.headers().firstValue("content-length").orElse("chunked"), who
                                    + ": sent whole, with its length");
                    assertArrayEquals(expected, buffered.body(), who + " " + page);
                    assertTrue(millis >= page.items().size() * DELAY.toMillis(), who + ": after the last item, "
                            + millis + " ms");

                    HttpResponse<byte[]> own = client.send(HttpRequest.newBuilder(s.uri(page.path())).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    assertTrue(own.headers().firstValue("content-length").isEmpty(), who + ": its own mode streams");
                    assertArrayEquals(expected, own.body(), who + " " + page);
                }

                HttpResponse<String> html = client.send(HttpRequest.newBuilder(s.uri(Demo.PATH)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, html.statusCode(), who);
                Document doc = Jsoup.parse(html.body());
                assertEquals(2, doc.select("iframe").size(), "two halves: " + html.body());
                assertEquals(List.of("", Demo.BUFFERED), doc.select(".pane").eachAttr("data-prefix"));
                assertTrue(doc.text().contains("streamed as each item arrives (mode " + config.mode().id() + ")")
                        && doc.text().contains("sent after the last item"), "one line says what they see");
                assertEquals(1, doc.select("link[href=/webjars/bootstrap/5.3.0/css/bootstrap.min.css]").size());
                assertTrue(Jsoup.parse(client.send(HttpRequest.newBuilder(s.uri("/")).build(),
                        HttpResponse.BodyHandlers.ofString()).body()).select("a[href=" + Demo.PATH + "]").size() == 1,
                        "the index page links the demo");

                JsonNode info = new ObjectMapper().readTree(client.send(HttpRequest.newBuilder(
                        s.uri(ServerInfo.PATH)).build(), HttpResponse.BodyHandlers.ofString()).body());
                assertEquals(Demo.BUFFERED + "/stocks", info.path("buffered_pages").path(1).path("path").asText(),
                        info.toString());
                assertEquals(404, client.send(HttpRequest.newBuilder(s.uri(Demo.BUFFERED + "/nothing")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode(), who);
            }
        }
        client.shutdownNow();
    }

    @Test
    void withoutDemoThereIsNoDemoNorBufferedVariant() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Servers.Started s = Servers.start(config("nima", "virtual"))) {
            for (String path : List.of(Demo.PATH, Demo.BUFFERED + "/stocks")) {
                assertEquals(404, client.send(HttpRequest.newBuilder(s.uri(path)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode(), path);
            }
            JsonNode info = new ObjectMapper().readTree(client.send(HttpRequest.newBuilder(s.uri(ServerInfo.PATH))
                    .build(), HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(0, info.path("buffered_pages").size(), info.toString());
        }
        client.shutdownNow();
    }

    @Test
    void aDemoOfTheBufferedModeIsRefused() {
        UsageException e = assertThrows(UsageException.class, () -> config("nima", "buffered")
                .site(Registry.buffered()));
        assertTrue(e.getMessage().startsWith("--demo shows a progressive mode beside the buffered one"),
                e.getMessage());
    }
}
