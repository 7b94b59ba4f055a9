package base;

/**
 * A failure of the world at run time, not a bug and not bad input (a server that does not answer): reported as
 * one sentence, exit code 1, never with a stack trace.
 */
public final class Failure extends RuntimeException {
    public Failure(String sentence) {
        super(sentence, null, false, false);
    }
}
