package browser;

/**
 * The scripts {@link Chromium} runs in a page: one injected before the page's first byte that notes what the page's
 * own APIs do not (when the item elements entered the DOM, every largest-contentful-paint candidate), and one run
 * after the load event that reads it all, with the navigation's timing and the protocol the page came over.
 */
final class PageScripts {

    private PageScripts() {
    }

    /**
     * Runs in the page before any of its own content: notes when the first and the last item element are in the DOM
     * (a MutationObserver on the document, called as the parser inserts nodes) and every largest-contentful-paint
     * candidate, all on the page's clock ({@code performance.now()}, 0 at the navigation's start).
     */
    static final String OBSERVER = """
            (function () {
              "use strict";
              var r = window.__pssrbench = {first: null, last: null, count: 0, lcp: null};
              try {
                new PerformanceObserver(function (list) {
                  list.getEntries().forEach(function (e) { r.lcp = e.startTime; });
                }).observe({type: "largest-contentful-paint", buffered: true});
              } catch (e) { r.lcpError = String(e); }
              function check() {
                var n = document.querySelectorAll($SELECTOR).length;
                if (n > r.count) {
                  var t = performance.now();
                  r.count = n;
                  if (r.first === null) { r.first = t; }
                  if (r.last === null && n >= $ITEMS) { r.last = t; }
                }
              }
              new MutationObserver(check).observe(document, {childList: true, subtree: true});
            }());
            """;

    /**
     * Reads the measurements after the load event, once the paints are reported: a page that arrives whole is
     * parsed, loaded and only then painted, and the browser reports a paint a frame or more after it happened. So it
     * waits until the first contentful paint is there and no new largest-contentful-paint candidate has come for
     * {@code QUIET} ms (at most {@code LIMIT} ms after the load event; what is still missing then is reported as
     * missing). {@code next_hop} is the protocol the page came over as the browser names it (the ALPN id: "h2",
     * "http/1.1"), which {@link Chromium#load} checks.
     */
    static final String READ = """
            var done = arguments[arguments.length - 1], QUIET = 250, LIMIT = 5000;
            var started = performance.now(), lcp = null, lcpSince = started;
            function read() {
              var nav = performance.getEntriesByType("navigation")[0] || {};
              var fcp = performance.getEntriesByName("first-contentful-paint")[0];
              var r = window.__pssrbench || {};
              var now = performance.now();
              if (r.lcp !== lcp) { lcp = r.lcp; lcpSince = now; }
              if ((!fcp || lcp === null || now - lcpSince < QUIET) && now - started < LIMIT) {
                setTimeout(read, 25);
                return;
              }
              var unstyled = [];
              document.querySelectorAll("link[rel=stylesheet]").forEach(function (l) {
                var ok = false;
                try { ok = !!(l.sheet && l.sheet.cssRules.length > 0); } catch (e) { ok = false; }
                if (!ok) { unstyled.push(l.href); }
              });
              done({ttfb: nav.responseStart, fcp: fcp ? fcp.startTime : null, lcp: r.lcp, first_item: r.first,
                last_item: r.last, dcl: nav.domContentLoadedEventStart, load: nav.loadEventStart,
                status: nav.responseStatus, next_hop: nav.nextHopProtocol, items: r.count, unstyled: unstyled});
            }
            read();
            """;
}
