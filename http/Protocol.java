package http;

import base.UsageException;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The HTTP a server speaks on its port ({@code serve --protocol}). Each value names the most a client can get there;
 * HTTP/1.1 is always offered beside HTTP/2, as a real deployment offers it to clients without HTTP/2.
 *
 * <p>HTTPS/1.1 alone is a value of its own ({@code h1s}) rather than a {@code --tls} switch beside {@code --protocol}:
 * one flag, one value in {@link site.ServeConfig} and in /info.json, no pair of flags to reconcile ({@code --tls} with
 * {@code h2c} would be a contradiction to refuse), and it names what a browser measures over TLS without HTTP/2.
 *
 * <p>Which client each takes ({@link Client}) and which command may use it ({@link Command}) are data here, the one
 * list the commands check (each refusal one sentence naming the values the command takes): a new protocol is a line
 * here, its client, and the commands that opt in.
 */
public enum Protocol {
    /** HTTP/1.1 in clear text: every server. */
    H1("h1", false, Client.HTTP1, "HTTP/1.1", "HTTP/1.1",
            EnumSet.of(Command.BENCH, Command.VERIFY, Command.STRESS, Command.BROWSER)),
    /** HTTP/1.1 over TLS (ALPN offers http/1.1 alone). */
    H1S("h1s", true, Client.HTTP1, "HTTP/1.1 over TLS", "HTTP/1.1 over TLS",
            EnumSet.of(Command.VERIFY, Command.BROWSER)),
    /** HTTP/2 in clear text, by prior knowledge and by the HTTP/1.1 Upgrade; HTTP/1.1 on the same port. */
    H2C("h2c", false, Client.HTTP2, "HTTP/2 in clear text", "HTTP/2 in clear text (prior knowledge and Upgrade)"
            + " beside HTTP/1.1", EnumSet.of(Command.BENCH, Command.VERIFY, Command.STRESS)),
    /** HTTP/2 over TLS, chosen by ALPN; HTTP/1.1 over the same TLS port for a client that does not offer h2. */
    H2("h2", true, Client.HTTP2, "HTTP/2 over TLS", "HTTP/2 over TLS (ALPN) beside HTTP/1.1 over TLS",
            EnumSet.of(Command.BENCH, Command.VERIFY, Command.STRESS, Command.BROWSER));

    public static final String DEFAULT_TEXT = "h1";

    /**
     * The client a protocol takes: HTTP/1.1's (the load generator's own, the JDK's HttpClient), or the project's
     * HTTP/2 client (client/: Netty's codec, by prior knowledge or over TLS with ALPN).
     */
    public enum Client { HTTP1, HTTP2 }

    /** The commands that talk to a server over a protocol, each with what its refusal says of it. */
    public enum Command {
        BENCH("bench", "its load generator"),
        VERIFY("verify", "its client"),
        STRESS("stress", "its client"),
        BROWSER("browser", "Chromium");

        private final String id;
        private final String speaker;

        Command(String id, String speaker) {
            this.id = id;
            this.speaker = speaker;
        }

        /** The protocols this command may use, in order. */
        public List<Protocol> protocols() {
            return Arrays.stream(Protocol.values()).filter(p -> p.commands.contains(this)).toList();
        }

        /** {@code p} when this command may use it, else a usage error naming those it takes, in one sentence. */
        public Protocol check(Protocol p) {
            if (!p.commands.contains(this)) {
                List<String> ids = protocols().stream().map(Protocol::id).toList();
                String allowed = ids.size() == 1 ? ids.get(0) : String.join(", ", ids.subList(0, ids.size() - 1))
                        + " or " + ids.getLast();
                throw new UsageException("--protocol takes " + allowed + " for " + id + ": " + speaker
                        + " does not speak " + p.name + " (" + p.id + ").");
            }
            return p;
        }
    }

    private final String id;
    private final boolean tls;
    private final Client client;
    private final String name;
    private final String description;
    private final Set<Command> commands;

    Protocol(String id, boolean tls, Client client, String name, String description, Set<Command> commands) {
        this.id = id;
        this.tls = tls;
        this.client = client;
        this.name = name;
        this.description = description;
        this.commands = commands;
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
        return client == Client.HTTP2;
    }

    /** The client that speaks it. */
    public Client client() {
        return client;
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
