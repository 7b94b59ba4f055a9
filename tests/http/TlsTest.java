package http;

import base.UsageException;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The TLS material of serve --protocol=h1s|h2: the self-signed certificate, and a user's PEM pair read back. */
class TlsTest {

    @Test
    void theSelfSignedCertificateNamesTheLoopbackAddressesAndTheHost() throws Exception {
        X509Certificate cert = Tls.selfSigned("pssrbench.test").chain().get(0);
        cert.checkValidity();
        cert.verify(cert.getPublicKey());   // self-signed: its own key signs it
        List<String> names = cert.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1))).toList();
        assertTrue(names.containsAll(List.of("localhost", "127.0.0.1", "pssrbench.test")), names.toString());
    }

    @Test
    void aPemPairReadsBackAsTheSameKeyAndChain() throws Exception {
        Tls made = Tls.selfSigned("127.0.0.1");
        Path dir = Files.createTempDirectory("pssrbench-tls");
        try {
            Path cert = Files.writeString(dir.resolve("cert.pem"), made.certificatePem());
            Path key = Files.writeString(dir.resolve("key.pem"), pem(made.key()));
            Tls read = Tls.read(cert, key);
            assertEquals(made.chain(), read.chain());
            assertArrayEquals(made.key().getEncoded(), read.key().getEncoded());
            UsageException notPem = assertThrows(UsageException.class, () -> Tls.read(key, key));
            assertEquals("--tls-cert " + key + " holds no PEM certificate (-----BEGIN CERTIFICATE-----).",
                    notPem.getMessage());
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /** {@code key} as PEM (PKCS#8 "PRIVATE KEY"), as openssl and mkcert write it. */
    private static String pem(java.security.PrivateKey key) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(new org.bouncycastle.util.io.pem.PemObject("PRIVATE KEY", key.getEncoded()));
        }
        return out.toString();
    }
}
