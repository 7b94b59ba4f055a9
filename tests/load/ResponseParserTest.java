package load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponseParserTest {

    private static final String BODY = "<html>head|item1|item2|tail</html>";
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "b\r\n<html>head|\r\n" + "6;ext=1\r\nitem1|\r\n" + "6\r\nitem2|\r\n" + "b\r\ntail</html>\r\n"
            + "0\r\nX-Trailer: 1\r\n\r\n";

    private static long crc(String s) {
        CRC32C c = new CRC32C();
        c.update(s.getBytes(StandardCharsets.UTF_8));
        return c.getValue();
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void connectionCloseIsNotedAmongTheTokensAndResetForTheNextResponse() {
        ResponseParser p = new ResponseParser(0);
        assertFalse(p.closes());
        assertTrue(p.feed(bytes(CHUNKED), 1));
        assertFalse(p.closes(), "no Connection header: the connection stays");
        p.reset();
        assertTrue(p.feed(bytes("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 2\r\n\r\nok"), 2));
        assertTrue(p.closes());
        p.reset();
        assertTrue(p.feed(bytes("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok"), 3));
        assertFalse(p.closes());
    }

    @Test
    void aChunkedResponseFedAtOnce() {
        ResponseParser p = new ResponseParser(BODY.indexOf("item2"));
        assertTrue(p.feed(bytes(CHUNKED), 7));
        assertEquals(200, p.status());
        assertEquals(BODY.length(), p.bodyBytes());
        assertEquals(4, p.chunks());
        assertEquals(crc(BODY), p.bodyCrc());
        assertEquals(7, p.firstBodyByteNanos());
        assertEquals(7, p.markNanos());
    }

    @Test
    void aChunkedResponseFedByteByByteRecordsWhenEachPartArrived() {
        ResponseParser p = new ResponseParser(BODY.indexOf("item2"));
        ByteBuffer all = bytes(CHUNKED);
        boolean done = false;
        for (int i = 0; i < all.limit(); i++) {
            assertFalse(done, "complete before the last byte");
            done = p.feed(ByteBuffer.wrap(new byte[] {all.get(i)}), i);
        }
        assertTrue(done);
        assertEquals(crc(BODY), p.bodyCrc());
        assertEquals(CHUNKED.indexOf("<html>"), p.firstBodyByteNanos());
        // the mark is reached by the last byte of "item1|", the body's byte just before "item2"
        assertEquals(CHUNKED.indexOf("item1|") + "item1|".length() - 1, p.markNanos());
    }

    @Test
    void aContentLengthResponseAndWhatFollowsItStaysInTheBuffer() {
        String fixed = "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nnope!";
        ByteBuffer in = bytes(fixed + CHUNKED);
        ResponseParser p = new ResponseParser(1);
        assertTrue(p.feed(in, 1));
        assertEquals(404, p.status());
        assertEquals(1, p.chunks());
        assertEquals(crc("nope!"), p.bodyCrc());
        p.reset();
        assertTrue(p.feed(in, 2));
        assertEquals(200, p.status());
        assertEquals(crc(BODY), p.bodyCrc());
        assertFalse(in.hasRemaining());
    }

    @Test
    void anEmptyBodyEndsWithTheHeaders() {
        ResponseParser p = new ResponseParser(1);
        assertTrue(p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), 3));
        assertEquals(0, p.bodyBytes());
        assertEquals(-1, p.firstBodyByteNanos());
    }

    @Test
    void aClientOfMalformedRequestsReadsAnyVersionsStatus() {
        ResponseParser p = new ResponseParser(0, true);
        assertTrue(p.feed(bytes("HTTP/1.0 400 Bad Request\r\ncontent-length: 0\r\n\r\n"), 0));
        assertEquals(400, p.status());
        assertThrows(IllegalStateException.class, () -> new ResponseParser(0, true).feed(bytes("HTTP/x 400\r\n"), 0));
    }

    @Test
    void whatItDoesNotUnderstandIsAnError() {
        assertThrows(IllegalStateException.class, () -> new ResponseParser(1).feed(bytes("HTTP/1.0 200 OK\r\n"), 0));
        assertThrows(IllegalStateException.class,
                () -> new ResponseParser(1).feed(bytes("HTTP/1.1 200 OK\r\nServer: x\r\n\r\nbody"), 0));
        assertThrows(IllegalStateException.class, () -> new ResponseParser(1).feed(
                bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"), 0));
    }

    @Test
    void aMalformedNumberIsAMalformedResponseNotAnotherKindOfException() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ResponseParser(1).feed(
                bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"), 0));
        assertTrue(e.getMessage().contains("'zz'"), e.getMessage());
        assertThrows(IllegalStateException.class,
                () -> new ResponseParser(1).feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"), 0));
    }

    @Test
    void aKeepingParserKeepsEachResponseAsReceivedAndDecodeGivesItsBody() {
        ResponseParser p = new ResponseParser(0, false, 4096);
        ByteBuffer all = bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + CHUNKED);
        assertTrue(p.feed(all, 0));
        assertArrayEquals("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1),
                p.kept(), "this response's bytes, not those after it");
        p.reset();
        for (int i = all.position(); i < all.limit(); i++) {   // the next one, a byte per read
            p.feed(ByteBuffer.wrap(new byte[] {all.get(i)}), i);
        }
        assertArrayEquals(CHUNKED.getBytes(StandardCharsets.ISO_8859_1), p.kept(), "chunk framing and trailer kept");
        assertTrue(p.keptWhole());
        assertArrayEquals(BODY.getBytes(StandardCharsets.UTF_8), ResponseParser.decode(p.kept()));
        assertEquals(crc(BODY), p.bodyCrc(), "keeping changes nothing of the parse");

        ResponseParser small = new ResponseParser(0, false, 20);
        assertTrue(small.feed(bytes(CHUNKED), 0));
        assertEquals(CHUNKED.substring(0, 20), new String(small.kept(), StandardCharsets.ISO_8859_1));
        assertFalse(small.keptWhole(), "cut at the limit");
        assertEquals(0, new ResponseParser(0).kept().length, "a parser that keeps nothing");
    }

    @Test
    void aMalformedResponseIsKeptUpToWhereItWentWrong() {
        String torn = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhead|\r\n3\r\nitem1|\r\n";
        ResponseParser p = new ResponseParser(0, false, 4096);
        assertThrows(IllegalStateException.class, () -> p.feed(bytes(torn), 0));
        assertEquals(torn, new String(p.kept(), StandardCharsets.ISO_8859_1));
        assertEquals("head|ite", new String(ResponseParser.decode(p.kept()), StandardCharsets.UTF_8));
    }
}
