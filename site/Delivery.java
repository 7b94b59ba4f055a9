package site;

import model.Mode;
import model.Serving;

/**
 * What a mode means on a server, in one sentence for the README and {@code --help}, read from the plan the code
 * acts on ({@link Serving}): where the render runs, the server's handler thread, whether it answers later, who
 * writes the chunks. Nothing here is written per server or per mode.
 */
public final class Delivery {

    private Delivery() {
    }

    /** The sentence for {@code mode} on {@code server}, from the plan they are served with. */
    public static String describe(Server server, Mode mode) {
        return describe(Serving.of(server.handling(), mode));
    }

    public static String describe(Serving plan) {
        String handler = plan.handler().words();
        boolean later = plan.answersLater();
        String where = plan.onHandler() ? handler : switch (plan.renderOn()) {
            case VIRTUAL -> "a new virtual thread";
            case PLATFORM -> "the platform pool (--threads)";
            case CALLBACKS -> "RxJava's threads as items arrive";
            case COROUTINE -> "a Kotlin coroutine (Dispatchers.Unconfined: no thread of its own) that starts on "
                    + handler + ", suspends between items and resumes on RxJava's threads as each arrives";
        };
        if (plan.wholePage()) {
            return "the engine renders the whole page to memory on " + where
                    + "; the page is sent at once with Content-Length" + (later ? " from " + handler : "");
        }
        if (plan.onHandler()) {
            return "the engine renders on " + handler + ", which writes each chunk";
        }
        return switch (plan.renderOn()) {
            case CALLBACKS -> "the engine renders on " + where + (plan.writes() == Serving.Writes.QUEUE
                    ? ", into a queue that " + handler + " writes out (the server has no async response)"
                    : " and writes each chunk from there; the handler (on " + handler + ") returns at once");
            case COROUTINE -> "the engine renders in " + where + (plan.writes() == Serving.Writes.QUEUE
                    ? ", into a queue that " + handler + " writes out (the server has no async response)"
                    : ", writing each chunk from there; the handler returns when the coroutine first suspends");
            case VIRTUAL, PLATFORM -> "the engine renders on " + where + (later
                    ? "; each chunk goes to " + handler + " through the server's async response"
                    : " and writes each chunk; " + handler + " waits for it");
        };
    }
}
