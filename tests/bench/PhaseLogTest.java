package bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** phases.csv: a header once, then a row per server JVM appended; a JVM that did not start leaves its cells empty. */
class PhaseLogTest {

    @Test
    void aRowPerServerJvmAppendedUnderOneHeader(@TempDir Path out) throws Exception {
        PhaseLog log = new PhaseLog(out);
        log.record(1, "nima-jstachio-virtual", 6_500_000_000L, 1_000_000L, null);
        new PhaseLog(out).record(2, "nima-jstachio-virtual.h2c", 0, 0, null);   // a resumed sweep appends
        assertEquals(List.of("repetition,unit,verify_s,aot_s,ready_s,jmx_s,floor_s,stop_s",
                "1,nima-jstachio-virtual,6.500,0.001,,,,", "2,nima-jstachio-virtual.h2c,0.000,0.000,,,,"),
                Files.readAllLines(out.resolve(PhaseLog.FILE)));
    }
}
