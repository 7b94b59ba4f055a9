package core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SummaryTest {

    @Test
    void rowsReadBackAsWritten(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("summary.csv");
        new Summary().set("tool", "pssrbench").set("server", "nima").set("req_per_s", 12.5).set("valid", true)
                .set("note", "errors: non-2xx 1, \"quoted\", i/o 0").appendTo(csv);
        new Summary().set("tool", "wrk").set("connections", 8).set("ttfb_p50_ms", Double.NaN).appendTo(csv);

        List<Summary> rows = Summary.read(csv);
        assertEquals(2, rows.size());
        assertEquals("12.500", rows.get(0).get("req_per_s"));
        assertEquals("errors: non-2xx 1, \"quoted\", i/o 0", rows.get(0).get("note"));
        assertEquals("", rows.get(1).get("ttfb_p50_ms"));
        assertEquals(rows.get(0).csv(), Files.readAllLines(csv).get(1));
    }

    @Test
    void aFileWithOtherColumnsIsRefused(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("summary.csv"), "tool,server\nwrk,nima\n");
        assertThrows(IOException.class, () -> Summary.read(csv));
    }
}
