package servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A slowloris client: it sends a GET's head in steps, each step's bytes one at a time with a pause between them, and
 * measures when the server closes the connection, counted from when the connection was ready for the request (the
 * connect, or the end of a first response on the same connection).
 *
 * @param name      what it does, for the assertion messages
 * @param firstPage a complete GET of / (read to its last byte) before the trickled head, on the same connection
 * @param pause     how long it waits, once ready, before its first byte
 * @param steps     the head, in steps sent one after the other
 */
record Trickle(String name, boolean firstPage, Duration pause, List<Step> steps) {

    /** {@code text} sent a byte at a time, {@code gap} apart (all at once when the gap is zero). */
    record Step(String text, Duration gap) {
    }

    /**
     * How it ended: closed by the server {@code closedAfter} after the connection was ready (null: still open at the
     * deadline), having sent {@code sent} of the head's {@code total} bytes.
     */
    record Result(Trickle trickle, Duration closedAfter, int sent, int total) {
    }

    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Runs the client; gives up {@code deadline} after the connection was ready. */
    Result run(int port, Duration deadline) throws IOException, InterruptedException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            if (firstPage) {
                socket.setSoTimeout(5000);
                out.write(GET);
                readResponse(in);
            }
            long ready = System.nanoTime();
            int total = steps.stream().mapToInt(s -> s.text().length()).sum();
            AtomicInteger sent = new AtomicInteger();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(pause);
                    for (Step step : steps) {
                        byte[] bytes = step.text().getBytes(StandardCharsets.US_ASCII);
                        if (step.gap().isZero()) {
                            out.write(bytes);
                            sent.addAndGet(bytes.length);
                            continue;
                        }
                        for (byte b : bytes) {
                            out.write(b);
                            sent.incrementAndGet();
                            Thread.sleep(step.gap());
                        }
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server (a write may fail before the read sees it), or stopped by the reader
                }
            });
            try {
                long deadlineNanos = ready + deadline.toNanos();
                while (true) {
                    long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        return new Result(this, null, sent.get(), total);
                    }
                    socket.setSoTimeout((int) left);
                    int read;
                    try {
                        read = in.read();
                    } catch (SocketTimeoutException e) {
                        continue;
                    } catch (IOException e) {
                        read = -1;   // a reset: closed too
                    }
                    if (read < 0) {
                        return new Result(this, Duration.ofNanos(System.nanoTime() - ready), sent.get(), total);
                    }
                    // a 408 or the like before the close is fine: the close is what counts
                }
            } finally {
                writer.interrupt();
                writer.join();
            }
        }
    }

    /** Reads one response with a Content-Length to its last byte. */
    private static void readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the first response's headers ended");
            }
            head.write(b);
        }
        long length = -1;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).strip());
            }
        }
        if (length < 0) {
            throw new IOException("the first response has no Content-Length: " + head);
        }
        in.skipNBytes(length);   // EOFException if the body is cut short
    }
}
