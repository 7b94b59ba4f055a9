/*
 * PssrBench's script for the Stocks page (/stocks), which loads /js/util.js in its head as the published
 * benchmark's app did. It must stay small and must not change the page's content: the browser measurements time
 * when each row appears, so it only records, for a reader's console, when the document was parsed to its end.
 */
(function () {
    "use strict";
    document.addEventListener("DOMContentLoaded", function () {
        var rows = document.querySelectorAll("tbody tr").length;
        if (window.console && window.performance) {
            console.log("pssrbench: " + rows + " rows parsed after " + Math.round(performance.now()) + " ms");
        }
    });
}());
