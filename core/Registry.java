package core;

import engines.HtmlFlowEngine;
import engines.JStachioEngine;
import engines.PebbleEngine;
import engines.RawEngine;
import frameworks.JavalinServer;
import frameworks.NettyServer;
import frameworks.NimaServer;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The only list of servers and engines. Help, {@code list}, {@code verify}, the tests, the scripts and the README
 * matrix all derive from it: adding a plug-in is one file plus one line here.
 */
public final class Registry {

    /** In the order they are listed; the first of each is the default. */
    public static final List<Server> SERVERS = List.of(
            new NimaServer(),
            new JavalinServer(),
            new NettyServer());

    public static final List<Engine> ENGINES = List.of(
            new JStachioEngine(),
            new HtmlFlowEngine(),
            new PebbleEngine(),
            new RawEngine());   // the baseline: listed last, so the default engine is a template engine

    private Registry() {
    }

    public static Server server(String id) {
        return SERVERS.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "unknown server '" + id + "'; valid servers: " + serverIds() + "."));
    }

    public static Engine engine(String id) {
        return ENGINES.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "unknown engine '" + id + "'; valid engines: " + engineIds() + "."));
    }

    public static String serverIds() {
        return SERVERS.stream().map(Server::id).collect(Collectors.joining(", "));
    }

    public static String engineIds() {
        return ENGINES.stream().map(Engine::id).collect(Collectors.joining(", "));
    }

    /** The approaches valid for this server and engine together. */
    public static Set<Approach> approaches(Server server, Engine engine) {
        Set<Approach> both = EnumSet.noneOf(Approach.class);
        both.addAll(server.approaches());
        both.retainAll(engine.approaches());
        return both;
    }

    /** Refuses an invalid combination in one sentence that names the valid choices. */
    public static void validate(Server server, Engine engine, Approach approach) {
        Set<Approach> valid = approaches(server, engine);
        if (!valid.contains(approach)) {
            throw new UsageException("mode " + approach.id() + " is not available with server " + server.id()
                    + " and engine " + engine.id() + "; valid modes for them: " + Approach.ids(valid) + ".");
        }
    }

    /** Every valid combination, servers outermost, in registry order. */
    public static List<Combination> combinations() {
        List<Combination> all = new ArrayList<>();
        for (Server s : SERVERS) {
            for (Engine e : ENGINES) {
                for (Approach a : approaches(s, e)) {
                    all.add(new Combination(s, e, a));
                }
            }
        }
        return List.copyOf(all);
    }

    /**
     * The valid combinations matching the given ids; an empty list means "any". Unknown ids and a selection that
     * matches nothing are usage errors.
     */
    public static List<Combination> select(List<String> servers, List<String> engines, List<String> modes) {
        servers.forEach(Registry::server);
        engines.forEach(Registry::engine);
        modes.forEach(Approach::byId);
        List<Combination> chosen = combinations().stream()
                .filter(c -> servers.isEmpty() || servers.contains(c.server().id()))
                .filter(c -> engines.isEmpty() || engines.contains(c.engine().id()))
                .filter(c -> modes.isEmpty() || modes.contains(c.approach().id()))
                .toList();
        if (chosen.isEmpty()) {
            throw new UsageException("no valid combination matches that selection; run 'list' to see them.");
        }
        return chosen;
    }
}
