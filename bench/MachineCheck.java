package bench;

import base.UsageException;
import harness.CpuList;
import harness.Kernel;
import stats.Repetitions;
import tables.Provenance;
import tables.ResultsFolder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * bench's checks of this machine, apart from {@link BenchConfig}'s of the flags against each other: each fails with
 * one sentence (exit 2), before anything is started or written.
 */
public final class MachineCheck {

    private MachineCheck() {
    }

    /**
     * What is checked on this machine, after the flags agree with each other and before anything is started or
     * written: the open files the connections need, the results folder ({@code out}: the one chosen), what a resume
     * goes on from, and the CPU lists.
     */
    public static void check(BenchConfig config, Path out) throws IOException {
        BenchConfig.Points points = config.points();
        BenchConfig.Folder folder = config.folder();
        BenchConfig.Servers servers = config.servers();
        long files = Kernel.fileLimits()[0];   // the JVM raised its soft limit to the hard one at start
        int most = points.connections().stream().mapToInt(Integer::intValue).max().orElse(1);
        if (files >= 0 && files < most + 200L) {
            throw new UsageException("--connections=" + most + " needs " + (most + 200) + " open files, and this"
                    + " process may open " + files + " (the hard limit, ulimit -Hn): raise it or use fewer.");
        }
        ResultsFolder.checkWritable(out, "--out");
        // Resumable: rows to go on from, or a sweep stopped before its first window (its provenance record only); a
        // folder that holds nothing yet (a sweep stopped while it was being set up) simply starts the run.
        if (folder.resume() && !ResultsFolder.isFresh(out) && !Files.isRegularFile(out.resolve("summary.csv"))
                && !Files.isRegularFile(out.resolve(Repetitions.FILE)) && !ResultsFolder.hasRunOf(out, "bench")) {
            throw new UsageException("nothing to resume: " + out + " has no summary.csv, " + Repetitions.FILE
                    + " or bench record in " + Provenance.FILE + ".");
        }
        if (servers.serverCpus() != null) {
            CpuList.check("--server-cpus", servers.serverCpus());
        }
        if (servers.clientCpus() != null) {
            CpuList.check("--client-cpus", servers.clientCpus());
        }
    }
}
