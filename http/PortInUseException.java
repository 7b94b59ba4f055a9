package http;

/** The listen address is taken: reported as one sentence, exit code 1. */
public final class PortInUseException extends RuntimeException {
    public PortInUseException(String host, int port, Throwable cause) {
        super("cannot listen on " + host + ":" + port + ": the port is already in use; choose another with --port"
                + " (0 picks a free one).", cause, false, false);
    }
}
