package cli;

import http.Protocol;
import model.Engine;
import model.Mode;
import site.Delivery;
import site.Server;

import java.util.ArrayList;
import java.util.List;

/**
 * The matrix's tables (docs/matrix.md; the first also in the README), generated from the registry
 * ({@code list --format=markdown}); a test keeps them equal.
 */
public final class Matrix {

    private Matrix() {
    }

    public static String markdown() {
        List<Mode> modes = Registry.MODES;
        StringBuilder md = new StringBuilder();
        // Every server runs every mode, so the engine and the mode decide both whether a combination exists and
        // how its items arrive.
        header(md, modes, "engine");
        for (Engine e : Registry.ENGINES) {
            List<String> cells = new ArrayList<>(List.of(e.id()));
            modes.forEach(m -> cells.add(m.supports(e) ? m.streaming(e).describe() : "—"));
            row(md, cells);
        }
        md.append('\n');
        header(md, modes, "server", "what it is");
        for (Server s : Registry.SERVERS) {
            List<String> cells = new ArrayList<>(List.of(s.id(), Versions.fill(s.description())));
            modes.forEach(m -> cells.add(Delivery.describe(s, m)));
            row(md, cells);
        }
        md.append('\n');
        md.append(protocols());
        md.append('\n');
        header(md, List.of(), "server", "HTTP/1.0 clients (ApacheBench)");
        for (Server s : Registry.SERVERS) {
            row(md, List.of(s.id(), s.servesHttp10()
                    ? "served: no chunked coding, the body ends when the connection closes; still sent as items arrive"
                    : "refused: 505 HTTP Version Not Supported, then the connection closes"));
        }
        md.append('\n');
        header(md, List.of(), "engine", "what it is", "streams over a blocking Iterable");
        for (Engine e : Registry.ENGINES) {
            row(md, List.of(e.baseline() ? e.id() + " (baseline)" : e.id(), Versions.fill(e.description()),
                    e.streaming().describe()));
        }
        return md.toString();
    }

    /**
     * Which server speaks which protocol ({@code serve --protocol}, {@code verify --protocol}): a column per
     * protocol, from each server's {@link Server#protocols()}; also in docs/http2.md.
     */
    public static String protocols() {
        StringBuilder md = new StringBuilder();
        List<String> names = new ArrayList<>(List.of("server"));
        Protocol.all().forEach(p -> names.add(p.id()));
        row(md, names);
        row(md, names.stream().map(n -> "---").toList());
        for (Server s : Registry.SERVERS) {
            List<String> cells = new ArrayList<>(List.of(s.id()));
            Protocol.all().forEach(p -> cells.add(s.protocols().contains(p) ? "yes" : "—"));
            row(md, cells);
        }
        return md.toString();
    }

    private static void header(StringBuilder md, List<Mode> modes, String... leading) {
        List<String> names = new ArrayList<>(List.of(leading));
        modes.forEach(m -> names.add(m.id()));
        row(md, names);
        row(md, names.stream().map(n -> "---").toList());
    }

    private static void row(StringBuilder md, List<String> cells) {
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
