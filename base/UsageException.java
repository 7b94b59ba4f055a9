package base;

/** Bad input from the user: reported as one sentence, exit code 2, never with a stack trace. */
public final class UsageException extends RuntimeException {
    public UsageException(String sentence) {
        super(sentence, null, false, false);
    }
}
