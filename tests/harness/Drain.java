package harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * A child process's output read to its end on a thread of its own, for the tests that run the jar.
 *
 * <p>Not {@code CompletableFuture.supplyAsync(...)}: its common pool has one thread on 2 cores, shared by every
 * test class of the JVM, so in the parallel integration run a read blocked for minutes in one class held the reads
 * of the others. JarIT's {@code list}, done in 1 s, waited 149 s for its output to be read (CI, 2026-11-28); a child
 * writing more than a pipe holds would have hung.
 */
public final class Drain {

    private Drain() {
    }

    /** Everything {@code in} gives until its end, as UTF-8; fails with the read's exception. */
    public static CompletableFuture<String> of(InputStream in) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("drain").start(() -> {
            try (in) {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        });
        return text;
    }
}
