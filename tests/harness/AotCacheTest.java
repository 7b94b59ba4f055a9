package harness;

import site.Combination;
import cli.Registry;
import site.ServeConfig;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The AOT cache's key, folder, flags and refusal sentence; a real training run is AotCacheIT's (the jar's). */
class AotCacheTest {

    @TempDir
    Path dir;

    @Test
    void theKeyChangesWithEachOfItsParts() throws IOException {
        Path jar = Files.writeString(dir.resolve("app.jar"), "classes");
        List<String> flags = List.of("--enable-native-access=ALL-UNNAMED");
        String key = AotCache.key(List.of(jar), "25.0.3+9-LTS", flags, "nima-jstachio-virtual");
        assertEquals(key, AotCache.key(List.of(jar), "25.0.3+9-LTS", flags, "nima-jstachio-virtual"), "stable");

        assertNotEquals(key, AotCache.key(List.of(jar), "25.0.2+10-LTS", flags, "nima-jstachio-virtual"), "JDK");
        assertNotEquals(key, AotCache.key(List.of(jar), "25.0.3+9-LTS", List.of(), "nima-jstachio-virtual"),
                "flags");
        assertNotEquals(key, AotCache.key(List.of(jar), "25.0.3+9-LTS", flags, "nima-jte-virtual"), "unit");
        Path other = Files.writeString(dir.resolve("other.jar"), "classes");
        Files.setLastModifiedTime(other, Files.getLastModifiedTime(jar));
        assertNotEquals(key, AotCache.key(List.of(other), "25.0.3+9-LTS", flags, "nima-jstachio-virtual"),
                "the jar's name");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        String older = AotCache.key(List.of(jar), "25.0.3+9-LTS", flags, "nima-jstachio-virtual");
        assertNotEquals(key, older, "the jar's modification time");
        FileTime same = Files.getLastModifiedTime(jar);
        Files.writeString(jar, "more classes");
        Files.setLastModifiedTime(jar, same);
        assertNotEquals(older, AotCache.key(List.of(jar), "25.0.3+9-LTS", flags, "nima-jstachio-virtual"),
                "the jar's size");
    }

    @Test
    void theFolderIsTheUsersCacheUnlessNamed() {
        assertEquals(Path.of("/x/own"), AotCache.folder(Map.of(AotCache.FOLDER_ENV, "/x/own", "XDG_CACHE_HOME",
                "/x/xdg")));
        assertEquals(Path.of("/x/xdg/pssrbench/aot"), AotCache.folder(Map.of("XDG_CACHE_HOME", "/x/xdg")));
        assertEquals(Path.of(System.getProperty("user.home"), ".cache", "pssrbench", "aot"),
                AotCache.folder(Map.of()));
    }

    @Test
    void offBeforeJdk25AndWithAFolderOfClasses() throws IOException {
        Path jar = Files.writeString(dir.resolve("app.jar"), "classes");
        assertNull(AotCache.unusable(25, List.of(jar)));
        assertTrue(AotCache.unusable(24, List.of(jar)).contains("JDK 24"), AotCache.unusable(24, List.of(jar)));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertNull(AotCache.unusable(25, List.of(jar, classes)), "an empty folder holds no class");
        Files.writeString(classes.resolve("A.class"), "");
        assertTrue(AotCache.unusable(25, List.of(jar, classes)).contains(classes.toString()));
    }

    @Test
    void laterJvmsRefuseACacheThatDoesNotFit() {
        List<String> flags = AotCache.useFlags(Path.of("/c/x.aot"));
        assertTrue(flags.containsAll(List.of("-XX:AOTCache=/c/x.aot", "-XX:AOTMode=on")), flags.toString());
        assertTrue(AotCache.trainFlags(Path.of("/c/x.part")).contains("-XX:AOTCacheOutput=/c/x.part"));
        assertNull(AotCache.refusal(List.of(), "[error][aot] " + AotCache.REFUSED), "no cache, no refusal");
        assertNull(AotCache.refusal(flags, "Address already in use"), "another failure");
    }

    /** A damaged cache: the server JVM does not start, and the failure is bench's one sentence, not the JVM's lines. */
    @Tag("slow")
    @Test
    void aDamagedCacheFailsTheStartInOneSentence() throws Exception {
        Path damaged = Files.write(dir.resolve("damaged.aot"), new byte[100_000]);
        Combination c = new Combination(Registry.server("jdk"), Registry.engine("jstachio"), Registry.mode("virtual"));
        IOException e = assertThrows(IOException.class, () -> ServerProcess.serve(ServeConfig.of(c,
                ServeConfig.DEFAULT_DELAY), AotCache.useFlags(damaged), dir.resolve("server.log")).close());
        assertEquals("the JVM refused the AOT cache " + damaged + " (stale or damaged: it does not fit this jar, JDK"
                + " or flags); delete it to train it again, or run bench with --no-aot-cache.", e.getMessage());
    }
}
