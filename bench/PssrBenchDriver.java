package bench;

import load.LoadGenerator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/** {@code bench --driver=pssrbench}, the default: PssrBench's own load generator ({@link LoadGenerator}) in this JVM. */
final class PssrBenchDriver implements LoadDriver {

    /** Its id, a constant for {@code --driver}'s default. */
    static final String ID = "pssrbench";

    // Every protocol bench takes, TTFB and the first item timed, the load from this JVM.
    private static final About ABOUT = new About(ID, "its own", PointRows.TOOL, "pssrbench bench (built in)",
            false, true, false);

    @Override
    public About about() {
        return ABOUT;
    }

    /**
     * Over HTTP/2 a point may fail on its own (ALPN chose another protocol, the server allows too few streams); over
     * HTTP/1.1 a failure is the server's, and ends what is left of its repetition.
     */
    @Override
    public boolean failsPointOnly(Point p) {
        return p.protocol().http2();
    }

    @Override
    public LoadDriver prepare() {
        return this;
    }

    @Override
    public LoadGenerator.Result run(LoadGenerator.Plan plan, Point p, Path out, String name, BooleanSupplier stopped,
                                    Runnable measuring) throws IOException, InterruptedException {
        return LoadGenerator.run(plan, stopped, measuring);
    }

    @Override
    public String remark(LoadGenerator.Steady steady) {
        return null;
    }
}
