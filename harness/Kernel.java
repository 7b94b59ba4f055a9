package harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What Linux tells about the machine's TCP and this process's limits (-1 where it does not). */
public final class Kernel {

    private Kernel() {
    }

    /**
     * TcpExt ListenDrops from /proc/net/netstat: connection attempts the kernel dropped at a listening socket (a full
     * accept queue among them). Counted for the whole network namespace: other programs' drops count too.
     */
    public static long listenDrops() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/net/netstat"));
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("TcpExt:") && lines.get(i + 1).startsWith("TcpExt:")) {
                    String[] names = lines.get(i).split(" ");
                    String[] values = lines.get(i + 1).split(" ");
                    for (int k = 0; k < names.length; k++) {
                        if (names[k].equals("ListenDrops")) {
                            return Long.parseLong(values[k]);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    /** {soft, hard} limit of open files of this process (Long.MAX_VALUE for unlimited). */
    public static long[] fileLimits() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return new long[] {value(f[0]), value(f[1])};
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return new long[] {-1, -1};
    }

    private static long value(String s) {
        return s.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(s);
    }
}
