package core;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The HTTP a server speaks on its port ({@code serve --protocol}). Each value names the most a client can get there;
 * HTTP/1.1 is always offered beside HTTP/2, as a real deployment offers it to clients without HTTP/2.
 *
 * <p>HTTPS/1.1 alone is a value of its own ({@code h1s}) rather than a {@code --tls} switch beside {@code --protocol}:
 * one flag, one value in {@link ServeConfig} and in /info.json, no pair of flags to reconcile ({@code --tls} with
 * {@code h2c} would be a contradiction to refuse), and it names what a browser measures over TLS without HTTP/2.
 */
public enum Protocol {
    /** HTTP/1.1 in clear text: every server. */
    H1("h1", false, false, "HTTP/1.1"),
    /** HTTP/1.1 over TLS (ALPN offers http/1.1 alone). */
    H1S("h1s", true, false, "HTTP/1.1 over TLS"),
    /** HTTP/2 in clear text, by prior knowledge and by the HTTP/1.1 Upgrade; HTTP/1.1 on the same port. */
    H2C("h2c", false, true, "HTTP/2 in clear text (prior knowledge and Upgrade) beside HTTP/1.1"),
    /** HTTP/2 over TLS, chosen by ALPN; HTTP/1.1 over the same TLS port for a client that does not offer h2. */
    H2("h2", true, true, "HTTP/2 over TLS (ALPN) beside HTTP/1.1 over TLS");

    public static final String DEFAULT_TEXT = "h1";

    private final String id;
    private final boolean tls;
    private final boolean http2;
    private final String description;

    Protocol(String id, boolean tls, boolean http2, String description) {
        this.id = id;
        this.tls = tls;
        this.http2 = http2;
        this.description = description;
    }

    /** The flag value, the /info.json value, the CSV value. */
    public String id() {
        return id;
    }

    /** Whether the port speaks TLS (a certificate is needed: {@link Tls}). */
    public boolean tls() {
        return tls;
    }

    /** Whether HTTP/2 is offered (and HTTP/1.1 beside it). */
    public boolean http2() {
        return http2;
    }

    public String description() {
        return description;
    }

    /** {@code http} or {@code https}. */
    public String scheme() {
        return tls ? "https" : "http";
    }

    /** The value of {@code id}, or a usage error naming the valid ones. */
    public static Protocol byId(String id) {
        for (Protocol p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new UsageException("--protocol must be one of " + ids(List.of(values())) + ", not " + id + ".");
    }

    /** {@code h1, h1s, h2c, h2}: for messages and tables. */
    public static String ids(List<Protocol> protocols) {
        return protocols.stream().map(Protocol::id).collect(Collectors.joining(", "));
    }

    /** Every value, in order: what a server with HTTP/2 and TLS support declares. */
    public static List<Protocol> all() {
        return Arrays.asList(values());
    }
}
