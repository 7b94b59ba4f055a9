package model;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The flush policy of PssrBench, shared by every engine and server: the engines' many small writes (70 to 450 per
 * page) are buffered here, and {@link #flush()} turns what has accumulated into exactly one chunk for the server.
 * Flushes happen only where the renderer is about to wait for data ({@link ProgressiveItems#hasNext()}, after an
 * item in the reactive mode, or where a suspendable template suspends: modes/SuspendableMode.java) and at the
 * end of the page, so a page is one head chunk, one chunk per item and a tail, whatever the server.
 *
 * <p>Not thread-safe: one render writes and flushes from one thread at a time (the reactive mode hands over between
 * threads through RxJava's serialised callbacks, which give the needed happens-before; the suspendable mode
 * writes and flushes in its coroutine only).
 */
public final class ChunkWriter extends Writer {

    private final StringBuilder buffer = new StringBuilder(2048);
    private final ChunkSink sink;
    private int chunks;
    private boolean held;

    public ChunkWriter(ChunkSink sink) {
        this.sink = sink;
    }

    @Override
    public void write(int c) {
        buffer.append((char) c);
    }

    @Override
    public void write(char[] chars, int off, int len) {
        buffer.append(chars, off, len);
    }

    @Override
    public void write(String s, int off, int len) {
        buffer.append(s, off, off + len);
    }

    @Override
    public Writer append(CharSequence s) {
        buffer.append(s);
        return this;
    }

    @Override
    public Writer append(CharSequence s, int start, int end) {
        buffer.append(s, start, end);
        return this;
    }

    @Override
    public Writer append(char c) {
        buffer.append(c);
        return this;
    }

    /** Until {@link #release()}, flushes send nothing: the page is kept whole in memory (the buffered mode). */
    public void hold() {
        held = true;
    }

    /** Ends {@link #hold()} and sends everything written so far as one chunk. */
    public void release() throws IOException {
        held = false;
        flush();
    }

    /** Sends what was written since the last flush as one chunk; does nothing when nothing was written. */
    @Override
    public void flush() throws IOException {
        if (held || buffer.isEmpty()) {
            return;
        }
        byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
        buffer.setLength(0);
        chunks++;
        sink.chunk(bytes);
    }

    /** Chunks sent so far. */
    public int chunks() {
        return chunks;
    }

    /** Does not flush: the end of a page is flushed explicitly, so an aborted render never sends its remains. */
    @Override
    public void close() {
    }
}
