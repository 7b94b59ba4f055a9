package browser;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * browser --lighthouse killed with SIGKILL leaves no child. Not tagged parallel: beside the other integration tests
 * (CI, 2026-11-28) its Chromium and Lighthouse added to a load under which OrphansIT's Ctrl-C in the first second
 * found a JVM not yet listening for it.
 */
class LighthouseOrphansIT {

    /**
     * Issue 32 item 4: a browser JVM killed with SIGKILL while Lighthouse loads a page leaves neither Lighthouse's
     * Node nor the Chromium it started (before the watchdog both ran on until Lighthouse finished on its own). The
     * page takes 10 s (1 s per item), so that a Lighthouse left alone is still loading it when the test looks, 5 s
     * after the kill: with 15 s and 150 ms items, the test passed without the watchdog, Lighthouse having finished.
     */
    @Test
    void aKilledBrowserLeavesNeitherLighthouseNorItsChromium(@TempDir Path out) throws Exception {
        Assumptions.assumeTrue(Chromium.installed() && Files.isRegularFile(Lighthouse.DEFAULT_HOME.resolve(
                "node_modules/lighthouse/cli/index.js")), "no Chromium or no Lighthouse in " + Lighthouse.DEFAULT_HOME);
        Process browser = new ProcessBuilder(BrowserIT.java("browser", "--lighthouse", "--server=jdk",
                "--engine=jstachio", "--mode=virtual", "--page=presentations", "--runs=1", "--delay=1s",
                "--out=" + out))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<ProcessHandle> lighthouse = List.of();
        try {
            // Lighthouse's Node, once it has started its Chromium: the two this JVM's end must end
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(90);
            while (lighthouse.isEmpty()) {
                assertTrue(browser.isAlive() && System.nanoTime() < deadline, "Lighthouse's Chromium within 90 s");
                Thread.sleep(50);
                lighthouse = browser.descendants().filter(h -> h.info().command().orElse("").endsWith("/node")
                        && h.children().anyMatch(c -> c.info().command().orElse("").contains("chrom")))
                        .findFirst().map(node -> java.util.stream.Stream.concat(java.util.stream.Stream.of(node),
                                node.descendants()).toList()).orElse(List.of());
            }
            browser.destroyForcibly().waitFor();   // SIGKILL
            long gone = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
            while (lighthouse.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < gone) {
                Thread.sleep(50);
            }
            assertEquals(List.of(), lighthouse.stream().filter(ProcessHandle::isAlive)
                    .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList(),
                    "left 5 s after their parent was killed with SIGKILL");
        } finally {   // a failure leaves no orphan either
            List<ProcessHandle> left = new java.util.ArrayList<>(browser.descendants().toList());
            left.addAll(lighthouse);
            browser.destroyForcibly();
            left.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
