package cli;

import base.UsageException;
import engines.FreeMarkerEngine;
import engines.HtmlFlowEngine;
import engines.JStachioEngine;
import engines.JteEngine;
import engines.KotlinxEngine;
import engines.MustacheJavaEngine;
import engines.PebbleEngine;
import engines.QuteEngine;
import engines.RawEngine;
import engines.RockerEngine;
import engines.ThymeleafEngine;
import engines.TrimouEngine;
import engines.VelocityEngine;
import model.Engine;
import model.Mode;
import modes.BlockingMode;
import modes.BufferedMode;
import modes.FragmentsMode;
import modes.ReactiveMode;
import modes.SuspendableMode;
import modes.VirtualMode;
import servers.JavalinServer;
import servers.JdkServer;
import servers.NettyServer;
import servers.NimaServer;
import servers.VertxServer;
import site.Combination;
import site.Server;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
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
            new NettyServer(),
            new VertxServer(),
            new JdkServer());   // the baseline, listed last

    private static final Engine JSTACHIO = new JStachioEngine();

    public static final List<Engine> ENGINES = List.of(
            JSTACHIO,
            new HtmlFlowEngine(),
            new PebbleEngine(),
            new FreeMarkerEngine(),
            new TrimouEngine(),
            new MustacheJavaEngine(),
            new ThymeleafEngine(),
            new VelocityEngine(),
            new JteEngine(),
            new RockerEngine(),
            new QuteEngine(),
            new KotlinxEngine(),
            new RawEngine(JSTACHIO));   // the baseline, replaying JStachio's bytes; listed last, so the default
                                        // engine is a template engine

    public static final List<Mode> MODES = List.of(
            new VirtualMode(),
            new BlockingMode(),
            new ReactiveMode(),
            new SuspendableMode(),
            new FragmentsMode(),
            new BufferedMode());

    private Registry() {
    }

    /** The baseline engine's id (the server's ceiling, drawn apart in reports). */
    public static String baselineId() {
        return ENGINES.stream().filter(Engine::baseline).map(Engine::id).findFirst().orElseThrow();
    }

    /** The mode of classic server-side rendering, the baseline progressive modes are compared with. */
    public static Mode buffered() {
        return MODES.stream().filter(Mode::wholePage).findFirst().orElseThrow();
    }

    public static Server server(String id) {
        return SERVERS.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "unknown server '" + id + "'; valid servers: " + serverIds() + "."));
    }

    public static Engine engine(String id) {
        return ENGINES.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "unknown engine '" + id + "'; valid engines: " + engineIds() + "."));
    }

    public static Mode mode(String id) {
        return MODES.stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "unknown mode '" + id + "'; valid modes: " + modeIds() + "."));
    }

    public static String modeIds() {
        return ids(MODES);
    }

    /** Mode ids in registry order. */
    public static String ids(List<Mode> modes) {
        return modes.stream().map(Mode::id).collect(Collectors.joining(", "));
    }

    public static String serverIds() {
        return SERVERS.stream().map(Server::id).collect(Collectors.joining(", "));
    }

    public static String engineIds() {
        return ENGINES.stream().map(Engine::id).collect(Collectors.joining(", "));
    }

    /** The modes this engine supports, in registry order: every server runs every mode. */
    public static List<Mode> modes(Engine engine) {
        return MODES.stream().filter(m -> m.supports(engine)).toList();
    }

    /** Refuses an invalid combination in one sentence that names the valid choices. */
    public static void validate(Server server, Engine engine, Mode mode) {
        if (!mode.supports(engine)) {
            throw new UsageException("mode " + mode.id() + " is not available with server " + server.id()
                    + " and engine " + engine.id() + "; valid modes for them: " + ids(modes(engine)) + ".");
        }
    }

    /**
     * The combinations of {@code selected} whose server speaks {@code p}. One whose server does not is refused in
     * {@link Server#speaks}'s sentence when {@code each} (the user named that server), and the first when none
     * speaks it; else it is left out (verify over h2c checks every server that offers it).
     */
    static List<Combination> speaking(List<Combination> selected, http.Protocol p, boolean each) {
        List<Combination> kept = selected.stream().filter(c -> c.server().protocols().contains(p)).toList();
        if (each || kept.isEmpty()) {
            selected.forEach(c -> c.server().speaks(p, SERVERS));
        }
        return kept;
    }

    /** Every valid combination, servers outermost, in registry order. */
    public static List<Combination> combinations() {
        return combinations(s -> true, e -> true, m -> true);
    }

    /**
     * The valid combinations of the servers, engines and modes that pass the filters, servers outermost, in registry
     * order. Engines are filtered before their modes are asked for: asking compiles an engine's templates (jte and
     * Rocker run javac), which a command about one engine should not pay for the other twelve.
     */
    private static List<Combination> combinations(Predicate<Server> server, Predicate<Engine> engine,
                                                  Predicate<Mode> mode) {
        List<Combination> all = new ArrayList<>();
        for (Server s : SERVERS.stream().filter(server).toList()) {
            for (Engine e : ENGINES.stream().filter(engine).toList()) {
                modes(e).stream().filter(mode).forEach(m -> all.add(new Combination(s, e, m)));
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
        modes.forEach(Registry::mode);
        List<Combination> chosen = combinations(s -> servers.isEmpty() || servers.contains(s.id()),
                e -> engines.isEmpty() || engines.contains(e.id()), m -> modes.isEmpty() || modes.contains(m.id()));
        if (chosen.isEmpty()) {
            throw new UsageException("no valid combination matches that selection; run 'list' to see them.");
        }
        return chosen;
    }
}
