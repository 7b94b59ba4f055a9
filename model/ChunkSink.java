package model;

import java.io.IOException;

/**
 * Where a server puts one chunk of a page: a write plus a flush on a blocking stream, or one element of a reactive
 * stream. Throws (any exception) when the client has gone; the render then stops.
 */
@FunctionalInterface
public interface ChunkSink {
    void chunk(byte[] bytes) throws IOException;
}
