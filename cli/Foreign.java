package cli;

import base.Durations;
import base.Failure;
import base.UsageException;
import model.Page;
import site.ServerInfo;
import verify.ForeignCheck;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A foreign app at {@code --target}: a server that is not a PssrBench serve (no PssrBench /info.json), named by
 * {@code --label}, its pages at {@code --path}s (default /PAGE, relative to the URL), measured at the {@code --delay}
 * it runs with (which PssrBench cannot read from it, so it must be given). The flags combine in one way: --label,
 * --path and --target-pid only with --target; --path and --target-pid only with --label; with --label, --delay is
 * required and --server, --engine, --mode and --all are refused; a PssrBench serve is refused a --label. Each
 * refusal is one sentence, exit 2. The URL goes through {@link TargetUrl}'s guards first, as every --target.
 *
 * @param url   the checked URL (its host the resolved address)
 * @param uris  where each page is served
 * @param pid   the app's process on this machine, or -1
 * @param note  what is measured, for the console and provenance.json
 */
public record Foreign(URI url, String label, Map<Page<?>, URI> uris, Duration delay, long pid, String note) {

    private static final Pattern LABEL = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    /**
     * The foreign app the flags name: {@code target}, {@code label} and {@code targetPid} null when not given,
     * {@code combinationNamed} whether --server, --engine, --mode or --all is; {@code delay}: the command's --delay.
     */
    static Foreign resolve(String target, boolean allowRemote, String label, List<String> pathFlags, Long targetPid,
                           boolean combinationNamed, Duration delay, boolean delayGiven) {
        if (target == null) {
            throw new UsageException("--label, --path and --target-pid describe a foreign app at --target: give"
                    + " --target=URL too.");
        }
        if (label == null) {
            throw new UsageException("--path and --target-pid go with --label=NAME, which measures the server at"
                    + " --target as a foreign app.");
        }
        label(label);
        if (combinationNamed) {
            throw new UsageException("a foreign app at --target is named by --label: leave out --server, --engine,"
                    + " --mode and --all.");
        }
        if (!delayGiven) {
            throw new UsageException("a foreign app needs --delay, the per-item delay it runs with (PssrBench cannot"
                    + " read it from the app).");
        }
        Foreign app = route(target, allowRemote, label, paths(pathFlags), targetPid, delay, true);
        app.refuseServe();
        return app;
    }

    /** Refuses a label that is not a name for files and rows, or that a PssrBench engine's rows have. */
    static void label(String label) {
        if (!LABEL.matcher(label).matches()) {
            throw new UsageException("--label takes lower-case letters, digits, '.', '_' and '-' (at most 64,"
                    + " starting with a letter or digit), not '" + label + "'.");
        }
        if (Registry.ENGINES.stream().anyMatch(e -> e.id().equals(label))) {
            throw new UsageException("--label=" + label + " is a PssrBench engine's id, which its rows would be"
                    + " mistaken for: name the app otherwise.");
        }
    }

    /**
     * One route of a foreign app, checked without asking it anything: its label, its PID, its URL through
     * {@link TargetUrl}'s guards; its pages at {@code paths} (absolute on the host, checked), a page without one at
     * /PAGE under the URL when {@code byDefault} (--target), else not served (a routes file names each).
     */
    static Foreign route(String target, boolean allowRemote, String label, Map<Page<?>, String> paths,
                         Long targetPid, Duration delay, boolean byDefault) {
        label(label);
        long pid = targetPid == null ? -1 : targetPid;
        if (targetPid != null && (pid <= 0 || ProcessHandle.of(pid).isEmpty())) {
            throw new UsageException("--target-pid=" + targetPid + " names no running process on this machine.");
        }
        TargetUrl checked = TargetUrl.check(target, allowRemote);
        if (pid > 0 && !checked.local()) {
            throw new UsageException("--target-pid names a process on this machine, and the app at " + checked.given()
                    + " runs on another one: leave it out.");
        }
        URI url = checked.url();
        Map<Page<?>, URI> uris = new LinkedHashMap<>();
        for (Page<?> page : Page.values()) {
            String path = paths.get(page);
            if (path != null || byDefault) {
                uris.put(page, path == null ? url.resolve(page.id()) : url.resolve(path(path)));
            }
        }
        String where = checked.local() ? "" : " (on another machine: " + checked.measured() + ")";
        String note = "foreign app " + label + " at " + url + where + ", pages " + String.join(", ", uris.entrySet()
                .stream().map(e -> e.getKey().id() + "=" + e.getValue().getRawPath()).toList()) + ", with "
                + Durations.format(delay) + " per item (--delay: as given, not read from the app)"
                + (pid > 0 ? ", pid " + pid : "");
        return new Foreign(url, label, uris, delay, pid, note);
    }

    /** The one request: a PssrBench serve at the URL is refused (exit 2), nothing answering is one sentence (exit 1). */
    void refuseServe() {
        ServerInfo info = Target.info(url);
        if (info != null) {
            throw new UsageException("the server at " + url + " is a PssrBench serve (it runs "
                    + info.combinationIds() + "): leave out --label, --path and --target-pid; its combination and"
                    + " delay come from its " + ServerInfo.PATH + ".");
        }
    }

    /** --path's PAGE=PATH pairs, each page at most once, each path absolute on the target's host. */
    private static Map<Page<?>, String> paths(List<String> given) {
        Map<Page<?>, String> paths = new LinkedHashMap<>();
        for (String pair : given) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--path takes PAGE=PATH, e.g. stocks=/stocks/jstachio/virtualSync, not '"
                        + pair + "'.");
            }
            Page<?> page = Page.byId(pair.substring(0, eq));
            String path = path(pair.substring(eq + 1));
            if (paths.put(page, path) != null) {
                throw new UsageException("--path names page " + page.id() + " twice; give one path per page.");
            }
        }
        return paths;
    }

    /** {@code path} if it is absolute on the target's host, else refused in one sentence. */
    static String path(String path) {
        boolean valid = path.startsWith("/") && !path.startsWith("//");
        try {
            URI.create(path);
        } catch (IllegalArgumentException e) {
            valid = false;
        }
        if (!valid) {
            throw new UsageException("--path's PATH is an absolute path such as /stocks/jstachio/virtualSync,"
                    + " not '" + path + "'.");
        }
        return path;
    }

    /** {@link ForeignCheck} of {@code pages}, each page once. */
    List<ForeignCheck.PageResult> check(List<Page<?>> pages) {
        List<ForeignCheck.PageResult> results = new ArrayList<>();
        for (Page<?> page : pages) {
            results.add(ForeignCheck.check(uris.get(page), page, delay));
        }
        return results;
    }

    /**
     * The guard before anything is measured: every page must pass {@link ForeignCheck}, else one sentence (exit 1,
     * as a server that does not answer): a figure of another page, an error page or an endless body is no figure.
     */
    List<ForeignCheck.PageResult> guard(List<Page<?>> pages) {
        List<ForeignCheck.PageResult> results = check(pages);
        List<String> problems = ForeignCheck.problems(results);
        if (!problems.isEmpty()) {
            throw new Failure("the foreign app " + label + " at " + url + " is not measured: " + problems.get(0)
                    + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : "") + ".");
        }
        return results;
    }

    /** What bench measures: the pages that passed {@link #guard}, with their bodies and first items' ends. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    bench.ForeignApp app(List<Page> pages) {
        Map<Page<?>, byte[]> bodies = new LinkedHashMap<>();
        Map<Page<?>, Integer> ends = new LinkedHashMap<>();
        for (ForeignCheck.PageResult r : guard((List<Page<?>>) (List) pages.stream().distinct().toList())) {
            bodies.put(r.page(), r.body());
            ends.put(r.page(), r.firstItemEnd());
        }
        return new bench.ForeignApp(label, uris, bodies, ends, pid);
    }

    /** verify of the foreign app: a line per page, as measured; 0 when every page passed, else 1. */
    int verify(PrintWriter out) {
        out.println("verify: " + note);
        if (delay.compareTo(verify.Verifier.MIN_DELAY) < 0) {
            out.println("verify: " + Durations.format(delay) + " per item, less than the "
                    + Durations.format(verify.Verifier.MIN_DELAY) + " at which streaming can be told from noise:"
                    + " progressive arrival is not told, everything else is checked.");
        }
        int failed = 0;
        for (ForeignCheck.PageResult r : check(List.copyOf(uris.keySet()))) {   // a route of a file: its own pages
            if (r.ok()) {
                out.printf(Locale.ROOT, "%-13s %s: status 200, equals the reference page under the published"
                        + " normalisation (not byte-identical), %d bytes, ttfb %.1fms, %s | OK%n", r.page().id(),
                        r.uri().getRawPath(), r.body().length, r.ttfbMs(), r.arrival());
            } else {
                failed++;
                out.printf(Locale.ROOT, "%-13s %s | FAIL%n    %s%n", r.page().id(), r.uri().getRawPath(), r.problem());
            }
        }
        out.println(failed == 0 ? "verify: foreign app " + label + " passed" : "verify: foreign app " + label
                + " FAILED on " + failed + " of " + uris.size() + " pages");
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /** What provenance.json records of the app. */
    Map<String, Object> provenance() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", label);
        m.put("target", url.toString());
        Map<String, String> paths = new LinkedHashMap<>();
        uris.forEach((page, uri) -> paths.put(page.id(), uri.getRawPath()
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())));
        m.put("paths", paths);
        m.put("delay", Durations.format(delay));
        m.put("pid", pid > 0 ? pid : null);
        m.put("equality", "the reference page under the published normalisation, not byte-identical");
        return m;
    }
}
