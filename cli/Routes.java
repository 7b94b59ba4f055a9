package cli;

import base.UsageException;
import model.Page;
import tables.CsvFile;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench --targets=FILE} (and {@code verify --targets=FILE}): a routes file, every route in it a foreign app
 * ({@link Foreign}) measured in one sweep (or checked in one command). The file is CSV with a header line: {@code label} and {@code url} (the app's base URL, through the same
 * guards as --target) in every line, one column per page id ({@code presentations}, {@code stocks}: the route's path
 * for that page, absolute on the app's host) and {@code pid} (the app's process on this machine, or empty), each
 * optional; the columns in any order. Every route runs at the command's --delay. Everything in the file is checked
 * before any request, each refusal one sentence naming the file and the line (exit 2): an unknown column, a label
 * that is not a name or is another line's, a URL that is not allowed, a page that --page asks for and the route has
 * no path for, a PID that is not a running process. Only then is each app asked once whether it is a PssrBench serve.
 */
final class Routes {

    static final String LABEL = "label";
    static final String URL = "url";
    static final String PID = "pid";

    private Routes() {
    }

    /** The columns a routes file may have, in the order the refusals name them. */
    static List<String> columns() {
        List<String> columns = new ArrayList<>(List.of(LABEL, URL));
        Arrays.stream(Page.values()).map(Page::id).forEach(columns::add);
        columns.add(PID);
        return columns;
    }

    /**
     * The routes of {@code file}, checked against the flags first ({@code selection}: none of its own flags for a
     * target; {@code delay}: --delay, which is required) and then each line, before the apps are asked anything.
     */
    @SuppressWarnings("rawtypes")
    static List<Foreign> resolve(Path file, Selection selection, List<Page> pages, Duration delay,
                                 boolean delayGiven) {
        if (selection.target != null) {
            throw new UsageException("--targets names each route's URL in its file: leave out --target.");
        }
        if (selection.describesForeign()) {
            throw new UsageException("--targets gives each route's label, paths and PID in its file: leave out"
                    + " --label, --path and --target-pid.");
        }
        if (selection.all || !selection.servers.isEmpty() || !selection.engines.isEmpty()
                || !selection.modes.isEmpty()) {
            throw new UsageException("--targets measures foreign apps, each named by its label: leave out --server,"
                    + " --engine, --mode and --all.");
        }
        if (selection.trust != null) {
            throw new UsageException("--trust is for a PssrBench serve at --target: the routes of --targets are"
                    + " measured over clear-text HTTP/1.1.");
        }
        if (!delayGiven) {
            throw new UsageException("--targets needs --delay, the per-item delay its apps run with (PssrBench cannot"
                    + " read it from them).");
        }
        List<Foreign> routes = read(file, pages, selection.allowRemote, delay);
        Set<URI> asked = new HashSet<>();
        for (Foreign route : routes) {
            if (asked.add(route.url())) {   // the routes of one app share its URL: asked once
                route.refuseServe();
            }
        }
        return routes;
    }

    /** The file's routes, each line checked, without a request: what {@link #resolve} then asks the apps. */
    @SuppressWarnings("rawtypes")
    static List<Foreign> read(Path file, List<Page> pages, boolean allowRemote, Duration delay) {
        CsvFile csv;
        try {
            if (!Files.isRegularFile(file)) {
                throw new UsageException("--targets names a routes file, and " + file + " is not a readable file.");
            }
            csv = CsvFile.read(file);
        } catch (IOException e) {
            throw new UsageException("--targets=" + file + " is not a routes file: " + e.getMessage() + ".");
        }
        List<String> allowed = columns();
        String columns = "label, url, " + String.join(", ", allowed.subList(2, allowed.size()))
                + " (label and url in every file, the others optional)";
        Set<String> seen = new HashSet<>();
        for (String column : csv.header()) {
            if (!allowed.contains(column)) {
                throw new UsageException(file + ", line 1: unknown column " + CsvFile.shown(column) + "; a routes"
                        + " file's columns are " + columns + ".");
            }
            if (!seen.add(column)) {
                throw new UsageException(file + ", line 1: column " + column + " twice; a routes file's columns are "
                        + columns + ", each once.");
            }
        }
        if (!seen.contains(LABEL) || !seen.contains(URL)) {
            throw new UsageException(file + ", line 1: no " + (seen.contains(LABEL) ? URL : LABEL) + " column; a"
                    + " routes file's header names its columns, " + columns + ".");
        }
        if (csv.lines().isEmpty()) {
            throw new UsageException(file + " holds no route: give one line per route after its header.");
        }
        List<Foreign> routes = new ArrayList<>();
        Map<String, Integer> labels = new LinkedHashMap<>();
        for (CsvFile.Line line : csv.lines()) {
            String at = file + ", line " + line.number() + ": ";
            try {
                routes.add(route(line.cells(), at, pages, allowRemote, delay, labels, line.number()));
            } catch (UsageException e) {
                throw e.getMessage().startsWith(at) ? e : new UsageException(at + e.getMessage());
            }
        }
        return routes;
    }

    /** One line's route; {@code labels}: the lines' labels so far, by label, each line's number. */
    @SuppressWarnings("rawtypes")
    private static Foreign route(Map<String, String> cells, String at, List<Page> pages, boolean allowRemote,
                                 Duration delay, Map<String, Integer> labels, int number) {
        String label = cells.get(LABEL).strip();
        Foreign.label(label);
        Integer before = labels.putIfAbsent(label, number);
        if (before != null) {
            throw new UsageException(at + "label " + label + " is line " + before + "'s already; each route needs a"
                    + " label of its own, its rows' name.");
        }
        String url = cells.get(URL).strip();
        if (url.regionMatches(true, 0, "https:", 0, 6)) {
            throw new UsageException(at + "bench measures over clear-text HTTP/1.1, its load generator has no TLS"
                    + " yet: give an http:// url.");
        }
        Map<Page<?>, String> paths = new LinkedHashMap<>();
        for (Page<?> page : Page.values()) {
            String path = cells.getOrDefault(page.id(), "").strip();
            if (!path.isEmpty()) {
                paths.put(page, path);
            }
        }
        for (Page page : pages) {
            if (!paths.containsKey(page)) {
                throw new UsageException(at + "route " + label + " has no path for page " + page.id() + ", which"
                        + " --page asks for: give it in the " + page.id() + " column, or leave the page out of"
                        + " --page.");
            }
        }
        String pid = cells.getOrDefault(PID, "").strip();
        if (!pid.isEmpty() && !pid.matches("[0-9]{1,18}")) {
            throw new UsageException(at + "pid takes the app's process id on this machine (a whole number) or"
                    + " nothing, not " + CsvFile.shown(pid) + ".");
        }
        return Foreign.route(url, allowRemote, label, paths, pid.isEmpty() ? null : Long.valueOf(pid), delay, false);
    }
}
