package site;

import base.Durations;
import model.Engine;
import model.Mode;
import model.Page;
import model.Streaming;

import java.time.Duration;

/**
 * {@code serve --demo}: a page a person can watch, the same page rendered progressively and buffered side by side,
 * both real. The one server process serves its own mode as always, and also answers each page under
 * {@link #BUFFERED} ({@code /buffered/presentations}, {@code /buffered/stocks}) rendered by the same engine, from
 * the same data source at the same delay, in the buffered mode (the whole page to memory, then sent with
 * Content-Length, as a {@code --mode=buffered} server sends it). {@link #PATH} shows the two in two iframes that
 * start together.
 */
public final class Demo {

    /** The side-by-side page. */
    public static final String PATH = "/demo";
    /** Where each page is answered rendered in the buffered way (a prefix of its route). */
    public static final String BUFFERED = "/buffered";
    /** serve's delay with --demo when --delay is not given: a few hundred milliseconds, so a person sees it. */
    public static final String DEFAULT_DELAY_TEXT = "300ms";

    private Demo() {
    }

    /** The demo page for a site serving {@code engine} in {@code mode} on {@code server} at {@code delay} per item. */
    static String page(String server, Engine engine, Mode mode, Duration delay) {
        Streaming streaming = mode.streaming(engine);
        String caveat = streaming.afterData()
                ? " (This engine in this mode also holds the page until its data has ended, so both sides arrive"
                + " together: try another --mode.)"
                : streaming.lookahead() > 0 ? " (This engine reads " + streaming.describe().replace(" late", "")
                + " ahead, so each item shows on the left when the next one arrives.)" : "";
        StringBuilder pages = new StringBuilder();
        StringBuilder selectors = new StringBuilder();
        for (Page<?> p : Page.values()) {
            pages.append("<button type=\"button\" class=\"btn btn-outline-primary btn-sm\" data-page=\"")
                    .append(p.id()).append("\">").append(p.title()).append(" (").append(p.items().size())
                    .append(" items)</button> ");
            selectors.append(selectors.isEmpty() ? "" : ",").append('"').append(p.id()).append("\":\"")
                    .append(p.itemSelector()).append('"');
        }
        return """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>PssrBench demo</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <link rel="icon" href="/images/favicon.ico">
                <link rel="stylesheet" href="/webjars/bootstrap/5.3.0/css/bootstrap.min.css">
                <style>
                body{height:100vh;display:flex;flex-direction:column}
                .panes{flex:1;display:flex;gap:.75rem;min-height:0;padding:0 .75rem .75rem}
                .pane{flex:1;display:flex;flex-direction:column;min-width:0}
                /* each page at three quarters of its size: more of it, and all of the stocks table, in half a screen */
                .frame{flex:1;position:relative;overflow:hidden;border:2px solid #adb5bd;border-radius:.375rem;
                background:#fff}
                .frame iframe{position:absolute;top:0;left:0;width:133.34%%;height:133.34%%;border:0;transform:scale(.75);
                transform-origin:0 0}
                .pane h2{font-size:1.1rem;margin:.25rem 0}
                .status{font-variant-numeric:tabular-nums}
                </style></head><body>
                <div class="px-3 pt-2"><p class="mb-2"><b>Same page, same server (%s), engine (%s) and data, %s per
                item: on the left it is streamed as each item arrives (mode %s); on the right it is rendered whole and
                sent after the last item (buffered, classic server-side rendering).</b>%s</p>
                <p class="mb-2">%s<button type="button" class="btn btn-primary btn-sm" id="replay">Replay</button></p>
                </div>
                <div class="panes">
                <div class="pane" data-prefix=""><h2>progressive <span class="badge text-bg-success">%s</span>
                <span class="status text-body-secondary"></span></h2>
                <div class="frame"><iframe title="progressive"></iframe></div></div>
                <div class="pane" data-prefix="%s"><h2>buffered <span class="badge text-bg-secondary">buffered</span>
                <span class="status text-body-secondary"></span></h2>
                <div class="frame"><iframe title="buffered"></iframe></div></div>
                </div>
                <script>
                (function () {
                  "use strict";
                  var selectors = {%s}, current = "%s", run = 0;
                  function seconds(ms) { return (ms / 1000).toFixed(2) + " s"; }
                  function show(page) {
                    current = page;
                    var token = "?run=" + (++run), start = performance.now();
                    document.querySelectorAll(".pane").forEach(function (pane) {
                      var frame = pane.querySelector("iframe"), status = pane.querySelector(".status");
                      var first = null, done = null, mine = run;
                      frame.onload = function () { if (mine === run) { done = performance.now() - start; } };
                      frame.src = pane.dataset.prefix + "/" + page + token;
                      (function tick() {
                        if (mine !== run) { return; }
                        var now = performance.now() - start, doc = null;
                        try { doc = frame.contentDocument; } catch (e) { doc = null; }
                        if (first === null && doc && doc.URL.endsWith(token) && doc.querySelector(selectors[page])) {
                          first = now;
                        }
                        status.textContent = "first item " + (first === null ? "\\u2026" : seconds(first))
                            + " \\u00b7 " + (done === null ? "loading " + seconds(now) : "complete " + seconds(done));
                        if (done === null) { requestAnimationFrame(tick); }
                      })();
                    });
                  }
                  document.querySelectorAll("[data-page]").forEach(function (b) {
                    b.addEventListener("click", function () { show(b.dataset.page); });
                  });
                  document.getElementById("replay").addEventListener("click", function () { show(current); });
                  show(current);
                }());
                </script>
                </body></html>
                """.formatted(server, engine.id(), Durations.format(delay), mode.id(), caveat, pages, mode.id(), BUFFERED,
                selectors, Page.values()[0].id());
    }
}
