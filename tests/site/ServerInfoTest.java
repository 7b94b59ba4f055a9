package site;

import base.Durations;
import base.Version;
import cli.Registry;
import model.Page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** serve tells a client how it runs, machine-readably, at /info.json (verify and bench --target read it). */
class ServerInfoTest {

    @Test
    void everyServerAnswersInfoJsonWithItsConfiguration() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (Server server : Registry.SERVERS) {
            Combination c = Registry.combinations().stream().filter(x -> x.server() == server).findFirst()
                    .orElseThrow();
            try (Servers.Started s = Servers.start(c, Durations.parse("1.5ms"))) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(s.uri("/info.json")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), server.id());
                assertEquals("application/json", r.headers().firstValue("content-type").orElse(""), server.id());
                JsonNode info = new ObjectMapper().readTree(r.body());
                assertEquals(Version.VERSION, info.path("pssrbench").asText(), r.body());
                assertEquals(c.server().id(), info.path("server").asText(), r.body());
                assertEquals(c.engine().id(), info.path("engine").asText(), r.body());
                assertEquals(c.mode().id(), info.path("mode").asText(), r.body());
                assertEquals("1500us", info.path("delay").asText(), r.body());
                assertEquals(1_500_000L, info.path("delay_ns").asLong(), r.body());
                assertEquals(Page.values().length, info.path("pages").size(), r.body());
                for (int i = 0; i < Page.values().length; i++) {
                    Page page = Page.values()[i];
                    JsonNode p = info.path("pages").path(i);
                    assertEquals(page.id(), p.path("id").asText(), r.body());
                    assertEquals(page.path(), p.path("path").asText(), r.body());
                    assertEquals(page.items().size(), p.path("items").asInt(), r.body());
                }
                HttpResponse<String> head = client.send(HttpRequest.newBuilder(s.uri("/info.json"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, head.statusCode(), server.id());
                assertEquals("", head.body(), server.id());
                HttpResponse<String> post = client.send(HttpRequest.newBuilder(s.uri("/info.json"))
                        .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(405, post.statusCode(), server.id());
            }
        }
        client.shutdownNow();
    }
}
