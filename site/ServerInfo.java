package site;

import base.Durations;
import base.Version;
import model.DataSource;
import model.Page;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * How a running {@code serve} is configured, as it answers at {@link #PATH}: a client that did not start the server
 * (verify and bench with --target) reads it instead of guessing. This record is both the writer's and the reader's
 * definition of the JSON, so the two cannot drift apart; unknown keys are ignored, so a newer server can add some.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ServerInfo(String pssrbench, String java, String server, String engine, String mode, String delay,
                         @JsonProperty("delay_ns") long delayNs,
                         @JsonProperty("source_scheduler") String sourceScheduler, int threads, String protocol,
                         List<PageInfo> pages, @JsonProperty("buffered_pages") List<PageInfo> bufferedPages) {

    public static final String PATH = "/info.json";
    public static final String JSON = "application/json";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One page: its route and how many items it streams. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PageInfo(String id, String path, int items) {
    }

    /**
     * What a server of this build running this combination says about itself ({@link ServeConfig#info}, its only
     * caller, which also reads it back: {@link ServeConfig#from}); {@code demo}: the server also answers each page
     * rendered in the buffered way under {@link Demo#BUFFERED} ({@code serve --demo}), listed as
     * {@code buffered_pages}.
     */
    static ServerInfo of(String server, String engine, String mode, Duration delay, DataSource.Timers timers,
                         int threads, String protocol, boolean demo) {
        return new ServerInfo(Version.VERSION, Runtime.version().toString(), server, engine, mode,
                Durations.format(delay), delay.toNanos(), timers.id(), threads, protocol,
                Arrays.stream(Page.values()).map(p -> new PageInfo(p.id(), p.path(), p.items().size())).toList(),
                !demo ? List.of() : Arrays.stream(Page.values())
                        .map(p -> new PageInfo(p.id(), Demo.BUFFERED + p.path(), p.items().size())).toList());
    }

    /** The route of {@code page} rendered in the buffered way, or null when this server does not answer one. */
    public String bufferedPath(String page) {
        return bufferedPages == null ? null : bufferedPages.stream().filter(p -> p.id().equals(page))
                .map(PageInfo::path).findFirst().orElse(null);
    }

    public byte[] toJson() {
        try {
            return MAPPER.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // strings and numbers only: cannot happen
        }
    }

    /** Reads what {@link #toJson()} wrote; IOException if it is not such a document. */
    public static ServerInfo parse(byte[] json) throws IOException {
        ServerInfo info = MAPPER.readValue(json, ServerInfo.class);
        if (info.server == null || info.engine == null || info.mode == null || info.delayNs < 0) {
            throw new IOException("it lacks server, engine, mode or delay_ns");
        }
        return info;
    }

    public Duration delayDuration() {
        return Duration.ofNanos(delayNs);
    }

    /** {@code server engine mode}, as {@code list} prints a combination. */
    public String combinationIds() {
        return server + " " + engine + " " + mode;
    }
}
