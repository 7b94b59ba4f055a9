package bench;

import cli.Registry;
import load.ResponseParser;
import load.WrongResponses;
import model.Page;
import site.Combination;
import tables.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A point whose server sometimes sends a wrong body: bench keeps the first few wrong responses as received in
 * {@code wrong/} beside the histograms, with the page they should have been, and the row's note names them.
 */
class WrongResponsesTest {

    /**
     * A tiny raw HTTP/1.1 server: every request gets {@code page} in three chunks, every third one with its middle
     * chunk sent twice (what a render that wrote an item twice would send).
     */
    private static final class ChunkTwiceServer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger requests = new AtomicInteger();
        final byte[] wrongResponse;
        private final byte[] rightResponse;

        ChunkTwiceServer(byte[] page) throws IOException {
            int a = page.length / 3;
            int b = 2 * page.length / 3;
            byte[] head = Arrays.copyOfRange(page, 0, a);
            byte[] middle = Arrays.copyOfRange(page, a, b);
            byte[] tail = Arrays.copyOfRange(page, b, page.length);
            rightResponse = response(head, middle, tail);
            wrongResponse = response(head, middle, middle, tail);
            socket = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        Thread.ofPlatform().daemon().start(() -> serve(s));
                    } catch (IOException e) {
                        return;   // closed
                    }
                }
            });
        }

        private static byte[] response(byte[]... chunks) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            for (byte[] c : chunks) {
                out.write((Integer.toHexString(c.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(c);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return out.toByteArray();
        }

        private void serve(Socket s) {
            try (s) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                        StandardCharsets.US_ASCII));
                OutputStream out = s.getOutputStream();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.isEmpty()) {
                        out.write(requests.incrementAndGet() % 3 == 0 ? wrongResponse : rightResponse);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // the client closed the connection
            }
        }

        URI base() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void theFirstWrongResponsesOfAPointAreWrittenToWrongAndNamedInItsNote(@TempDir Path out) throws Exception {
        Combination c = Registry.combinations().get(0);
        byte[] page = c.engine().render(Page.STOCKS).getBytes(StandardCharsets.UTF_8);
        try (ChunkTwiceServer server = new ChunkTwiceServer(page)) {
            PointMeasurement m = new PointMeasurement(Duration.ofMillis(100), null, Duration.ofMillis(400), 1, false,
                    out);
            Point p = new Point(c, Page.STOCKS, 2, 0);
            String name = p.name() + "-rep1";
            Row row = m.measure(server.base(), null, p, page, Double.NaN, () -> false, name);

            assertFalse(row.valid(), "wrong bodies are errors");
            assertTrue(server.requests.get() > 3 * WrongResponses.KEPT, "requests: " + server.requests.get());
            Path wrong = out.resolve("wrong");
            for (int k = 1; k <= WrongResponses.KEPT; k++) {
                assertArrayEquals(server.wrongResponse, Files.readAllBytes(wrong.resolve(name + "-" + k + ".http")),
                        "kept " + k + ": the response byte for byte as the server sent it");
                assertArrayEquals(ResponseParser.decode(server.wrongResponse),
                        Files.readAllBytes(wrong.resolve(name + "-" + k + ".html")), "kept " + k + "'s body");
            }
            assertFalse(Files.exists(wrong.resolve(name + "-" + (WrongResponses.KEPT + 1) + ".http")),
                    "only the first " + WrongResponses.KEPT);
            assertArrayEquals(page, Files.readAllBytes(wrong.resolve(name + ".expected.html")));
            byte[] wrongBody = ResponseParser.decode(server.wrongResponse);
            int differs = Arrays.mismatch(page, wrongBody);
            assertTrue(differs >= page.length / 3 && wrongBody.length > page.length, "a chunk twice: " + differs);
            assertTrue(row.note().contains("kept in wrong/: " + name + "-1.http (wrong body: " + wrongBody.length
                    + " bytes instead of " + page.length + ", first difference at byte " + differs + ")"), row.note());
            assertTrue(row.note().contains(name + "-" + WrongResponses.KEPT + ".http"), row.note());
        }
    }

    @Test
    void aPointWithoutWrongResponsesWritesNoFolder(@TempDir Path out) throws Exception {
        assertEquals("", WrongResponses.write(java.util.List.of(), out, "x", new byte[0]));
        assertFalse(Files.exists(out.resolve("wrong")));
    }
}
