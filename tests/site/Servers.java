package site;

import java.net.URI;
import java.time.Duration;

/** Starts a combination in the test JVM on an ephemeral loopback port. */
public final class Servers {

    private Servers() {
    }

    public record Started(Site site, Server.Running running) implements AutoCloseable {
        public int port() {
            return running.port();
        }

        public URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port() + path);
        }

        @Override
        public void close() {
            running.close();
            site.close();
        }
    }

    public static Started start(ServeConfig config) {
        Site site = config.site();
        return new Started(site, config.server().start(config.listen(), site));
    }

    public static Started start(Combination c, Duration delay) {
        return start(ServeConfig.of(c, delay));
    }
}
