package core;

/**
 * What a mode means on a server, in one sentence for the README and {@code --help}, derived from the same facts the
 * code acts on: where the mode renders ({@link Mode#runs()}), the server's handler thread and whether it answers
 * later. Nothing here is written per server or per mode.
 */
public final class Delivery {

    private Delivery() {
    }

    public static String describe(Server server, Mode mode) {
        Server.HandlerThread handler = server.handlerThread(mode);
        boolean later = server.answersLater(mode);
        if (mode.wholePage()) {
            boolean here = !later && mode.runs() == Mode.Runs.VIRTUAL
                    && handler.kind() == Server.HandlerThread.Kind.VIRTUAL;
            return "the engine renders the whole page to memory on " + (here ? handler.words()
                    : "a new virtual thread") + "; the page is sent at once with Content-Length"
                    + (later ? " from " + handler.words() : "");
        }
        return switch (mode.runs()) {
            case VIRTUAL, PLATFORM -> {
                boolean here = !later && (mode.runs() == Mode.Runs.VIRTUAL
                        ? handler.kind() == Server.HandlerThread.Kind.VIRTUAL
                        : handler.kind() == Server.HandlerThread.Kind.PLATFORM);
                String where = mode.runs() == Mode.Runs.VIRTUAL ? "a new virtual thread"
                        : "the platform pool (--threads)";
                yield here ? "the engine renders on " + handler.words() + ", which writes each chunk"
                        : "the engine renders on " + where + (later
                        ? "; each chunk goes to " + handler.words() + " through the server's async response"
                        : " and writes each chunk; " + handler.words() + " waits for it");
            }
            case CALLBACKS -> "the engine renders on RxJava's threads as items arrive" + (later
                    ? " and writes each chunk from there; the handler (on " + handler.words() + ") returns at once"
                    : ", into a queue that " + handler.words() + " writes out (the server has no async response)");
        };
    }
}
