package cli;

import site.Combination;
import site.RawHttp;
import site.Server;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packaged jar, as users and scripts run it: one child JVM per test. */
@Tag("parallel")   // runs beside the other integration tests so tagged (pom.xml says why)
class JarIT {

    private static Path jar;

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("pssrbench.jar", "target/pssrbench.jar"));
        assertTrue(Files.isRegularFile(jar), "run after 'mvn package': " + jar);
    }

    private static ProcessBuilder java(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    record Done(int code, String out, String err) {
    }

    private static Done run(String... args) throws Exception {
        Process p = java(args).start();
        CompletableFuture<String> out = harness.Drain.of(p.getInputStream());
        CompletableFuture<String> err = harness.Drain.of(p.getErrorStream());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished in time: " + String.join(" ", args));
        return new Done(p.exitValue(), out.get(), err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void listMatchesTheRegistry() throws Exception {
        Done d = run("list");
        assertEquals(0, d.code(), d.err());
        assertEquals(Registry.combinations().stream().map(Combination::toString).toList(), d.out().lines().toList());
    }

    @Test
    void badInputExitsWith2AndOneSentence() throws Exception {
        Done d = run("--engine=jstachio", "--mode=reactive");
        assertEquals(2, d.code());
        assertEquals(1, d.err().lines().count(), d.err());
        assertTrue(d.err().contains("valid modes for them"), d.err());
    }

    @Test
    void aPortInUseExitsWith1AndOneSentence() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Done d = run("--port=" + taken.getLocalPort());
            assertEquals(1, d.code(), d.err());
            assertEquals(1, d.err().lines().count(), d.err());
            assertTrue(d.err().contains("already in use"), d.err());
        }
    }

    /** SIGTERM while a page is streaming: the page completes, then the process exits 0. */
    @Test
    void sigtermFinishesTheInFlightPageThenExits0() throws Exception {
        // Every server's JVM starts at once (they start in seconds, each page then takes 2): each is checked alone.
        List<Process> started = new ArrayList<>();
        try {
            for (Server s : Registry.SERVERS) {
                started.add(java("--server=" + s.id(), "--port=0", "--delay=100ms").start());
            }
            for (int i = 0; i < started.size(); i++) {
                sigtermMidPage(Registry.SERVERS.get(i), started.get(i));
            }
        } finally {
            started.forEach(Process::destroyForcibly);
        }
    }

    private static void sigtermMidPage(Server s, Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        Matcher url = Pattern.compile("serving http://127.0.0.1:(\\d+)/ ").matcher(String.valueOf(line));
        assertTrue(url.find(), "prints the URL on one line: " + line);
        int port = Integer.parseInt(url.group(1));
        try (RawHttp.Exchange page = new RawHttp.Exchange(port, "/stocks")) {   // 20 items x 100 ms
            assertTrue(page.firstBytes().startsWith("HTTP/1.1 200"), s.id());
            p.toHandle().destroy();   // SIGTERM, while the page streams
            String response = page.rest();
            assertTrue(response.endsWith("</html>\r\n0\r\n\r\n"), s.id() + ": complete page, got ..."
                    + response.substring(Math.max(0, response.length() - 80)));
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), s.id());
        assertEquals(0, p.exitValue(), s.id() + ": " + read(p.getErrorStream()));
    }

    @Test
    void verifyPassesForTheDefaultCombinationAndPrintsOneRow() throws Exception {
        Combination c = Registry.combinations().get(0);
        Done d = run("verify", "--server=" + c.server().id(), "--engine=" + c.engine().id(),
                "--mode=" + c.mode().id());
        assertEquals(0, d.code(), d.out() + d.err());
        assertTrue(d.out().lines().anyMatch(l -> List.of(l.split(" +")).subList(0, 3).equals(List.of(
                c.server().id(), c.engine().id(), c.mode().id())) && l.endsWith("OK")), d.out());
    }
}
