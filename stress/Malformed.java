package stress;

import http.Protocol;
import site.Combination;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code malformed} scenario: requests a real client or a scanner sends, each on a fresh connection, each
 * needing the right 4xx (or, where valid, the page); the server must survive them all and log no stack trace.
 */
final class Malformed {

    static final Scenario SCENARIO = new Scenario("malformed", Set.of(Protocol.H1), List.of(), Malformed::run,
            new Scenario.Rule(f -> "each case its right 4xx (or the page where valid); the server survives; no stack"
                    + " trace in its log", f -> f.count("cases_right") == f.count("cases") && f.yes("server_alive")
                    && f.count("stack_trace_lines") == 0));

    private Malformed() {
    }

    /** One case: the bytes (null: built per port), the statuses that are right, and how to send them. */
    private record Case(String name, String request, Set<Integer> right, int responses, boolean oneByteWrites) {
    }

    static Scenario.Measured run(Combination c, StressSettings s) throws IOException, InterruptedException {
        try (StressServer server = StressServer.start(StressServer.config(c), s, "malformed")) {
            int port = server.port();
            String get = Raw.get("/stocks", port);
            List<Case> cases = List.of(
                    new Case("garbage request line", "GARBAGE\r\n\r\n", Set.of(400), 1, false),
                    new Case("unknown method", "BREW /stocks HTTP/1.1\r\nHost: x\r\n\r\n", Set.of(405, 501), 1,
                            false),
                    // Valid HTTP beyond many servers' limits: refused, or served where the limit is higher (the
                    // JDK's: 380 KiB of headers).
                    new Case("100 KB header", "GET /stocks HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(100_000)
                            + "\r\n\r\n", Set.of(400, 431, 200), 1, false),
                    new Case("10 MB request line", "GET /" + "a".repeat(10_000_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                            Set.of(400, 414), 1, false),
                    new Case("missing Host", "GET /stocks HTTP/1.1\r\n\r\n", Set.of(400), 1, false),
                    // 501: the method PRI is one the server does not implement (RFC 9110, 9.1), as for BREW above.
                    new Case("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", Set.of(400, 426, 501), 1,
                            false),
                    new Case("1-byte writes", get, Set.of(200), 1, true),
                    new Case("pipelined requests", get + get, Set.of(200), 2, false),
                    new Case("POST with a body", "POST /stocks HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n"
                            + "hello=world", Set.of(405), 1, false),
                    new Case("path traversal", "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                            Set.of(400, 404), 1, false),
                    new Case("encoded path traversal", "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                            Set.of(400, 404), 1, false),
                    new Case("huge query", "GET /stocks?" + "q".repeat(64 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                            Set.of(400, 414, 431, 200), 1, false));   // valid too: served where it fits
            List<String> wrong = new ArrayList<>();
            for (Case k : cases) {
                List<Integer> got = send(port, k);
                boolean ok = got.size() == k.responses() && got.stream().allMatch(k.right()::contains);
                if (!ok) {
                    wrong.add(k.name() + ": got " + got + ", want " + k.right());
                }
            }
            boolean alive = Raw.pageWorks(port, "/stocks");
            Thread.sleep(300);
            long traces = server.stackTraceLines();
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("cases", cases.size());
            f.put("cases_right", cases.size() - wrong.size());
            f.put("server_alive", alive);
            f.put("stack_trace_lines", traces);
            f.put("warning_lines", server.warnings());
            return new Scenario.Measured(f, String.join("; ", wrong), traces == 0 ? ""
                    : traces + " stack-trace line(s) in the server's log");
        }
    }

    /** The statuses of the responses, in order (a response that is not 200-and-complete ends the list). */
    private static List<Integer> send(int port, Case k) {
        List<Integer> statuses = new ArrayList<>();
        try (Socket socket = Raw.open(port, 10_000)) {
            try {
                if (k.oneByteWrites()) {
                    for (char ch : k.request().toCharArray()) {
                        socket.getOutputStream().write(ch);
                        socket.getOutputStream().flush();
                        Thread.sleep(1);
                    }
                } else {
                    Raw.send(socket, k.request());
                }
            } catch (IOException e) {
                // the server answered and closed before the whole request went out (10 MB line): read its answer
            }
            java.nio.ByteBuffer pending = java.nio.ByteBuffer.allocate(64 * 1024).flip();
            for (int i = 0; i < k.responses(); i++) {
                Raw.Response r = Raw.read(socket, pending);
                if (r.status() == 0) {
                    break;
                }
                statuses.add(r.status());
                if (!r.complete()) {
                    break;
                }
            }
        } catch (IOException | InterruptedException e) {
            // no connection: no statuses
        }
        return statuses;
    }
}
