package cli;

import base.UsageException;
import site.Combination;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench --preset=ID}: a named sweep, as the bench flags it sets. A preset is data, one entry here: its flags
 * are bench's own, so that it means exactly what they mean, is recorded as they are (provenance.json's flags) and
 * is written back by BenchArgs like any sweep; the flags given beside it replace the preset's of the same name.
 * Which flags may be given beside one is one list for all presets ({@link #COMBINES}).
 */
final class Presets {

    /** A preset: its id, what it reproduces (help and docs), and the bench flags it sets, in order. */
    record Preset(String id, String about, Map<String, String> flags) {
    }

    /**
     * The published study (Pereira and Carvalho 2025, section 5.1: docs/study.md): its approaches on every server
     * (netty for WebFlux, javalin for MVC, vertx for Quarkus, nima and jdk beside them), its pages, user counts,
     * data source and server JVM flags. The engines x modes cross product is what the registry makes of it: the 8
     * blocking engines of its Blocking and Virtual series in the blocking and virtual modes, HtmlFlow's suspendable
     * (HtmlFlow-Susp), Thymeleaf's and HtmlFlow's reactive (Thymeleaf-Rx, HtmlFlow-Rx); the rest cannot run and is
     * listed when the run begins. The Blocking approach's pool at two sizes: 4, the bound of the study's dispatcher
     * on its 4 hardware threads (where its Blocking series stopped scaling, at 4 users), and 200, serve's default and
     * Tomcat's, the unbounded-in-practice platform pools of its MVC and Quarkus apps.
     */
    static final Preset STUDY = new Preset("study", "the published study's approaches, pages, user counts, data source"
            + " and server JVM flags on every server", flags(
            "--server", "nima,javalin,netty,vertx,jdk",
            "--engine", "kotlinx,rocker,jstachio,pebble,freemarker,trimou,htmlflow,thymeleaf",
            "--mode", "virtual,blocking,suspendable,reactive",
            "--page", "presentations,stocks",
            "--connections", "1,2,4,8,16,32,64,128",
            "--threads", "4,200",
            "--source-scheduler", "io",
            "--delay", "1ms",
            "--server-jvm", "-Xms512m -Xmx16g -XX:+UseG1GC"));

    /** Every preset: the only list. */
    static final List<Preset> ALL = List.of(STUDY);

    /**
     * The flags that may be given beside a preset: those a preset sets (the given value replaces the preset's), and
     * those of how the run measures, not what. The others (--all, a --target and a foreign app's flags, --rate, the
     * Hyperfoil driver and its export) would make it another sweep than the preset's: refused.
     */
    static final List<String> COMBINES = List.of("--server", "--engine", "--mode", "--page", "--connections",
            "--threads", "--source-scheduler", "--delay", "--server-jvm", "--protocol", "--streams", "--repeat",
            "--precision", "--repeat-max", "--settle", "--windows", "--seed", "--warmup", "--warmup-max",
            "--duration", "--load-threads", "--server-cpus", "--client-cpus", "--out", "--resume", "--jfr",
            "--no-baseline", "--no-aot-cache", "--estimate-only");

    private Presets() {
    }

    private static Map<String, String> flags(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The preset {@code id}, or a one-sentence refusal naming the presets. */
    static Preset byId(String id) {
        return ALL.stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow(() -> new UsageException(
                "--preset takes " + String.join(", ", ALL.stream().map(Preset::id).toList()) + ", not '" + id + "'."));
    }

    /**
     * bench's arguments with {@code preset} expanded: its flags that {@code given} (the flags given, by name, each
     * with its values as written) does not name, then the given ones. A given flag outside {@link #COMBINES} is
     * refused in one sentence.
     */
    static List<String> expand(Preset preset, Map<String, List<String>> given) {
        for (String flag : given.keySet()) {
            if (!flag.equals("--preset") && !COMBINES.contains(flag)) {
                throw new UsageException("--preset=" + preset.id() + " combines only with " + String.join(", ",
                        COMBINES) + ", not with " + flag + ".");
            }
        }
        List<String> args = new ArrayList<>();
        preset.flags().forEach((flag, value) -> {
            if (!given.containsKey(flag)) {
                args.add(flag + "=" + value);
            }
        });
        given.forEach((flag, values) -> values.forEach(v -> args.add(v == null ? flag : flag + "=" + v)));
        return args;
    }

    /**
     * What the selection's cross product of {@code servers}, {@code engines} and {@code modes} names and the
     * registry cannot run, grouped by the servers it is the same for: one line per group ("on nima, jdk: kotlinx
     * reactive, …"), none when everything named runs.
     */
    static List<String> leftOut(List<String> servers, List<String> engines, List<String> modes) {
        Set<String> valid = new java.util.HashSet<>(Registry.select(servers, engines, modes).stream()
                .map(Combination::toString).toList());
        Map<List<String>, List<String>> serversByMissing = new LinkedHashMap<>();
        for (String s : servers) {
            List<String> missing = new ArrayList<>();
            for (String e : engines) {
                for (String m : modes) {
                    if (!valid.contains(s + " " + e + " " + m)) {
                        missing.add(e + " " + m);
                    }
                }
            }
            if (!missing.isEmpty()) {
                serversByMissing.computeIfAbsent(missing, k -> new ArrayList<>()).add(s);
            }
        }
        List<String> lines = new ArrayList<>();
        serversByMissing.forEach((missing, on) -> lines.add("on " + String.join(", ", on) + ": "
                + String.join(", ", missing)));
        return lines;
    }
}
