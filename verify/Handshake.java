package verify;

import javax.net.ssl.SSLException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;

/**
 * Why a TLS handshake with a server failed, as the certificate problem a user can act on. The JDK says it in its
 * own words, deep in a chain of causes ("PKIX path building failed: ... unable to find valid certification path to
 * requested target"); a {@code --target=https://…} that fails must say in one sentence what is wrong with the
 * certificate and what to give instead.
 */
public final class Handshake {

    private Handshake() {
    }

    /**
     * The certificate problem behind {@code e}, as a clause ("its certificate has expired"; another handshake
     * failure in the JDK's words), or null when {@code e} is not a failed TLS handshake. {@code trustGiven}: whether the client trusted a --trust file (then
     * the default trust store was not asked).
     */
    public static String problem(Throwable e, boolean trustGiven) {
        if (!has(e, SSLException.class)) {
            return null;
        }
        if (has(e, CertificateExpiredException.class)) {
            return "its certificate has expired";
        }
        if (has(e, CertificateNotYetValidException.class)) {
            return "its certificate is not valid yet";
        }
        String message = messages(e);
        // The JDK's host name check (sun.security.util.HostnameChecker) throws a plain CertificateException.
        if (message.contains("no subject alternative") || message.contains("no name matching")) {
            return "its certificate is not for the host in the URL (" + quoted(e,
                    message.contains("no subject alternative") ? "no subject alternative" : "no name matching") + ")";
        }
        if (has(e, CertPathBuilderException.class) || message.contains("pkix path")
                || message.contains("unable to find valid certification path")) {
            return trustGiven ? "its certificate is not one of --trust's, nor signed by one of them"
                    : "its certificate is not signed by an authority of the default trust store (a self-signed"
                            + " serve: give its certificate with --trust=PEM_FILE)";
        }
        return TimedFetch.why(e);
    }

    private static boolean has(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** Every message of the chain, in lower case, one per line. */
    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                all.append(t.getMessage().toLowerCase(Locale.ROOT)).append('\n');
            }
        }
        return all.toString();
    }

    /** The message of the chain that contains {@code start} (in any case), from there on, without a final period. */
    private static String quoted(Throwable e, String start) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            int at = m == null ? -1 : m.toLowerCase(Locale.ROOT).indexOf(start);
            if (at >= 0) {
                String rest = m.substring(at).strip();
                return rest.endsWith(".") ? rest.substring(0, rest.length() - 1) : rest;
            }
        }
        return start;
    }
}
