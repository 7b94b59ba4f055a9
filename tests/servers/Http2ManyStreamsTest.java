package servers;

import cli.Registry;
import http.Protocol;
import model.Page;
import site.Combination;
import site.ServeConfig;
import site.Server;
import site.Servers;
import verify.Fetcher;
import verify.Fetchers;
import verify.Reference;
import verify.TimedFetch;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Many streams on one clear-text HTTP/2 connection by prior knowledge, as a browser's requests of a page share one
 * connection (docs/http2.md, "Many streams on one h2c connection"): 100 concurrent requests of the Stocks page, all
 * sent before the first answer, must each get the whole page, on every server that speaks h2c, in the buffered mode
 * (a page in one write) and the virtual mode (a write per item), through Netty's HTTP/2 client (verify's h2c
 * client, one connection). Not through curl: Debian's curl 7.88.1 cannot reuse a prior-knowledge connection for a
 * second transfer ("Error in the HTTP2 framing layer" against every server; curl/curl#10634, fixed in curl 8.0).
 */
class Http2ManyStreamsTest {

    private static final Duration DELAY = Duration.ofMillis(25);
    private static final int STREAMS = 100;

    private static List<Combination> cases() {
        List<Combination> cases = new ArrayList<>();
        for (Server s : Registry.SERVERS) {
            if (s.protocols().contains(Protocol.H2C)) {
                for (String mode : List.of("buffered", "virtual")) {
                    cases.add(new Combination(s, Registry.engine("htmlflow"), Registry.mode(mode)));
                }
            }
        }
        return cases;
    }

    @Test
    void aHundredConcurrentStreamsOnOnePriorKnowledgeConnectionGetAHundredWholePages() throws Exception {
        for (Combination c : cases()) {
            try (Servers.Started s = Servers.start(ServeConfig.of(c, DELAY).withProtocol(Protocol.H2C))) {
                URI stocks = URI.create("http://127.0.0.1:" + s.port() + Page.STOCKS.path());
                byte[] want = Reference.renderAll(List.of(c.engine())).get(Page.STOCKS).get(c.engine());
                assertEquals(List.of(), netty(stocks, want), c + " through Netty's HTTP/2 client");
            }
        }
    }

    /** What went wrong with the 100 pages fetched at once through one H2cFetcher (one connection); empty if none. */
    private static List<String> netty(URI uri, byte[] want) throws InterruptedException {
        List<String> wrong = new ArrayList<>();
        try (Fetcher client = Fetchers.of(Protocol.H2C, null)) {
            List<CompletableFuture<TimedFetch>> pages = new ArrayList<>();
            for (int i = 0; i < STREAMS; i++) {
                pages.add(client.get(uri));
            }
            for (int i = 0; i < STREAMS; i++) {
                try {
                    TimedFetch f = pages.get(i).get(60, TimeUnit.SECONDS);
                    if (f.status() != 200 || !Arrays.equals(want, f.body())) {
                        wrong.add("request " + i + ": " + f.status() + " with " + f.body().length + " bytes");
                    }
                } catch (ExecutionException e) {
                    wrong.add("request " + i + ": " + TimedFetch.why(e.getCause()));
                } catch (java.util.concurrent.TimeoutException e) {
                    wrong.add("request " + i + ": no answer within 60 s");
                }
            }
        }
        return summary(wrong);
    }

    /** At most the first three problems and how many there were: a hundred lines would hide the pattern. */
    private static List<String> summary(List<String> wrong) {
        if (wrong.size() <= 3) {
            return wrong;
        }
        List<String> first = new ArrayList<>(wrong.subList(0, 3));
        first.add("... " + wrong.size() + " problems in all");
        return first;
    }
}
