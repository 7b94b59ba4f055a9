package verify;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The certificate problem read out of a failed handshake, for the chains the JDK builds (an untrusted certificate
 * against a real server is in tests/cli/TargetTlsTest; the others are hard to serve on purpose, so their chains are
 * built here as the JDK's client builds them: SSLHandshakeException, then the validator's cause).
 */
class HandshakeTest {

    private static SSLHandshakeException handshake(String message, Throwable cause) {
        SSLHandshakeException e = new SSLHandshakeException(message);
        e.initCause(cause);
        return e;
    }

    @Test
    void eachCertificateProblemIsNamed() {
        assertEquals("its certificate is not for the host in the URL (No subject alternative names matching IP"
                        + " address 10.0.0.1 found)",
                Handshake.problem(handshake("No subject alternative names matching IP address 10.0.0.1 found",
                        new CertificateException("No subject alternative names matching IP address 10.0.0.1 found")),
                        false));
        assertEquals("its certificate has expired", Handshake.problem(handshake("PKIX path validation failed",
                new CertificateExpiredException("NotAfter: Mon Nov 23 00:00:00 UTC 2026")), true));
        CertPathBuilderException untrusted = new CertPathBuilderException("unable to find valid certification path"
                + " to requested target");
        assertEquals("its certificate is not signed by an authority of the default trust store (a self-signed"
                + " serve: give its certificate with --trust=PEM_FILE)", Handshake.problem(
                handshake("PKIX path building failed", untrusted), false));
        assertEquals("its certificate is not one of --trust's, nor signed by one of them",
                Handshake.problem(handshake("PKIX path building failed", untrusted), true));
    }

    @Test
    void anotherFailureIsNotACertificateProblem() {
        assertNull(Handshake.problem(new ConnectException("Connection refused"), false));
        assertNull(Handshake.problem(new IOException("closed"), true));
        assertEquals("Received fatal alert: handshake_failure",
                Handshake.problem(new SSLHandshakeException("Received fatal alert: handshake_failure"), false));
    }
}
