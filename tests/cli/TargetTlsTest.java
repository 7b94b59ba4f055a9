package cli;

import http.Protocol;
import http.Tls;
import site.Combination;
import site.ServeConfig;
import site.Servers;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --target=https://…}: a serve over TLS with the user's PEM pair (a self-signed certificate, as a user makes
 * with openssl or mkcert) is verified when {@code --trust} gives its certificate, over the protocol its /info.json
 * names; without --trust the default trust store refuses it, in one sentence naming the certificate's problem.
 */
class TargetTlsTest {

    private static final Duration DELAY = Duration.ofMillis(20);

    /** The first combination whose server speaks h2 (and so h1s): its htmlflow in the virtual mode. */
    private static Combination tlsCombination() {
        return Registry.combinations().stream().filter(c -> c.server().protocols().contains(Protocol.H2)
                && c.engine().id().equals("htmlflow") && c.mode().id().equals("virtual")).findFirst().orElseThrow();
    }

    @Test
    void aSelfSignedServeIsVerifiedWithTrustAndRefusedWithoutIt(@TempDir Path dir) throws IOException {
        Tls made = Tls.selfSigned("127.0.0.1");
        Path cert = Files.writeString(dir.resolve("cert.pem"), made.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), pem(made.key()));
        Combination c = tlsCombination();
        for (Protocol protocol : List.of(Protocol.H2, Protocol.H1S)) {
            ServeConfig config = ServeConfig.of(c, DELAY).withProtocol(protocol).withTlsFiles(cert, key);
            try (Servers.Started s = Servers.start(config)) {
                String url = "https://127.0.0.1:" + s.port() + "/";
                CliTest.Run trusted = CliTest.run("verify", "--target=" + url, "--trust=" + cert, "--concurrency=5");
                assertEquals(0, trusted.code(), protocol + ": " + trusted.out() + trusted.err());
                assertTrue(trusted.out().contains(", over " + protocol.id()), trusted.out());
                assertTrue(trusted.out().contains("verify: all 1 combinations passed"), trusted.out());

                CliTest.Run untrusted = CliTest.run("verify", "--target=" + url, "--concurrency=5");
                assertEquals(1, untrusted.code(), protocol + ": " + untrusted.out() + untrusted.err());
                assertEquals(List.of("pssrbench: the TLS handshake with " + url + " failed: its certificate"
                        + " is not signed by an authority of the default trust store (a self-signed serve: give its"
                        + " certificate with --trust=PEM_FILE)."), untrusted.err().lines().toList());

                // Another certificate than the server's: refused as well, naming --trust.
                Path other = Files.writeString(dir.resolve("other.pem"), Tls.selfSigned("127.0.0.1").certificatePem());
                CliTest.Run wrong = CliTest.run("verify", "--target=" + url, "--trust=" + other);
                assertEquals(1, wrong.code(), wrong.err());
                assertEquals(List.of("pssrbench: the TLS handshake with " + url + " failed: its certificate"
                        + " is not one of --trust's, nor signed by one of them."), wrong.err().lines().toList());
            }
        }
    }

    @Test
    void aTrustFileThatHoldsNoCertificateIsAUsageError(@TempDir Path dir) throws IOException {
        Path key = Files.writeString(dir.resolve("key.pem"), pem(Tls.selfSigned("127.0.0.1").key()));
        usage("--trust " + key + " holds no PEM certificate (-----BEGIN CERTIFICATE-----).", "verify",
                "--target=https://127.0.0.1:1/", "--trust=" + key);
        Path missing = dir.resolve("missing.pem");
        usage("--trust " + missing + " does not exist; give a PEM file of certificates (-----BEGIN CERTIFICATE-----).",
                "verify", "--target=https://127.0.0.1:1/", "--trust=" + missing);
        usage("--trust goes with an https:// --target: over http there is no certificate.", "verify",
                "--target=http://127.0.0.1:1/", "--trust=" + key);
        usage("--trust goes with --target=https://…, the server whose certificate it trusts.", "verify",
                "--trust=" + key);
    }

    /** Exit 2 and exactly this one line on stderr, nothing on stdout: no connection is made. */
    private static void usage(String sentence, String... args) {
        CliTest.Run r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
        assertEquals("", r.out());
        assertEquals(List.of("pssrbench: " + sentence), r.err().lines().toList());
    }

    /** {@code key} as PEM (PKCS#8 "PRIVATE KEY"), as openssl and mkcert write it. */
    private static String pem(java.security.PrivateKey key) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
        }
        return out.toString();
    }
}
