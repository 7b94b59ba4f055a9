package stress;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The raw bytes of h2-malformed, checked with Netty's own HTTP/2 decoder: the field block its frames carry where only
 * the frame is wrong is a valid GET, the garbage one is not, and the frame headers are laid out as RFC 9113, 4.1 says.
 */
class H2MalformedTest {

    @Test
    void theGetBlockIsAValidRequestAndTheGarbageIsACompressionError() throws Http2Exception {
        Http2Headers get = new DefaultHttp2HeadersDecoder(true).decodeHeaders(1,
                Unpooled.wrappedBuffer(H2Malformed.GET_BLOCK));
        assertEquals("GET", get.method().toString());
        assertEquals("http", get.scheme().toString());
        assertEquals("/", get.path().toString());
        assertEquals("127.0.0.1", get.authority().toString());
        Http2Exception e = assertThrows(Http2Exception.class, () -> new DefaultHttp2HeadersDecoder(true)
                .decodeHeaders(1, Unpooled.wrappedBuffer(H2Malformed.HPACK_GARBAGE)));
        assertEquals(Http2Error.COMPRESSION_ERROR, e.error());
    }

    @Test
    void aFrameIsItsNineByteHeaderAndItsPayload() {
        assertArrayEquals(new byte[] {0, 0, 0, 4, 1, 0, 0, 0, 0},
                H2Malformed.frame(H2Malformed.SETTINGS, H2Malformed.ACK, 0, new byte[0]));
        byte[] big = H2Malformed.frame(H2Malformed.HEADERS, 5, 3, new byte[16_385]);
        assertEquals(9 + 16_385, big.length);
        assertArrayEquals(new byte[] {0, 0x40, 0x01, 1, 5, 0, 0, 0, 3}, java.util.Arrays.copyOf(big, 9));
    }
}
