package site;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The static files the pages link (stylesheets, scripts, the icon), so that a browser shows them as the published
 * apps did: Bootstrap from its webjar under {@code /webjars/}, and this project's own files from {@code assets/}
 * under {@code /css/}, {@code /js/} and {@code /images/}. They are small complete responses with a length and a
 * cache lifetime: never streamed, and not what bench measures.
 */
final class Assets {

    /** A servable file. */
    record Asset(String contentType, byte[] body, String cacheControl) {
    }

    /** URL prefix → class-path folder, and how long a browser may keep what is under it. */
    private record Root(String prefix, String resources, String cacheControl) {
    }

    private static final Root[] ROOTS = {
        // Versioned paths (the version is in the URL), so they never change: cache for a year.
        new Root("/webjars/", "META-INF/resources/webjars/", "public, max-age=31536000, immutable"),
        // This project's files keep their names across releases: a day, then the browser asks again.
        new Root("/css/", "assets/css/", "public, max-age=86400"),
        new Root("/js/", "assets/js/", "public, max-age=86400"),
        new Root("/images/", "assets/images/", "public, max-age=86400"),
    };

    /** The types served; a file of any other type is not served at all. */
    private static final Map<String, String> TYPES = Map.of(
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",   // RFC 9239
            "map", "application/json; charset=utf-8",
            "ico", "image/x-icon",
            "png", "image/png",
            "svg", "image/svg+xml");

    /** Found files only (computeIfAbsent stores nothing for null): a cache of misses would grow with every path. */
    private final Map<String, Asset> found = new ConcurrentHashMap<>();

    private Assets() {
    }

    static Assets load() {
        return new Assets();
    }

    /** The asset at {@code path}, or null when there is none (a page, the index, or a 404). */
    Asset find(String path) {
        return found.computeIfAbsent(path, Assets::read);
    }

    private static Asset read(String path) {
        for (Root root : ROOTS) {
            if (!path.startsWith(root.prefix())) {
                continue;
            }
            String rest = path.substring(root.prefix().length());
            // Only plain relative names below the root: no way up, no absolute or empty segments.
            if (rest.isEmpty() || rest.contains("..") || rest.contains("//") || rest.contains("\\")
                    || rest.startsWith("/")) {
                return null;
            }
            int dot = rest.lastIndexOf('.');
            String type = dot < 0 ? null : TYPES.get(rest.substring(dot + 1).toLowerCase(Locale.ROOT));
            if (type == null) {
                return null;
            }
            try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(root.resources() + rest)) {
                return in == null ? null : new Asset(type, in.readAllBytes(), root.cacheControl());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return null;
    }
}
