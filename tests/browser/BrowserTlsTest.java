package browser;

import http.Tls;
import org.bouncycastle.cert.X509CertificateHolder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The certificate of browser's servers over TLS: a PEM pair serve reads back, its key readable by this user alone and
 * deleted at the end, and the one flag with which Chromium accepts exactly this certificate's key.
 */
class BrowserTlsTest {

    @Test
    void aPemPairServeReadsAndAPinOfItsPublicKey() throws Exception {
        Path folder;
        try (BrowserTls tls = BrowserTls.make()) {
            folder = tls.certFile().getParent();
            Tls read = Tls.read(tls.certFile(), tls.keyFile());   // as serve --tls-cert --tls-key reads them
            X509Certificate cert = read.chain().get(0);
            cert.verify(cert.getPublicKey());
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(tls.keyFile()), "the private key is this user's alone");
            assertFalse(Files.getPosixFilePermissions(folder).stream().anyMatch(p -> p.name().startsWith("GROUP")
                    || p.name().startsWith("OTHERS")), "and so is its folder");

            // RFC 7469's pin: the SHA-256 of the DER SubjectPublicKeyInfo, read here through BouncyCastle's parse of
            // the certificate rather than the JDK's key encoding the class uses.
            byte[] spki = new X509CertificateHolder(cert.getEncoded()).getSubjectPublicKeyInfo().getEncoded();
            assertArrayEquals(spki, cert.getPublicKey().getEncoded());
            String pin = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(spki));
            assertEquals("--ignore-certificate-errors-spki-list=" + pin, tls.chromiumFlag());
            assertEquals(44, pin.length(), "32 bytes in base64");
        }
        assertFalse(Files.exists(folder), "the key and certificate are deleted when the run ends");
    }

    @Test
    void eachRunHasItsOwnKey() throws Exception {
        try (BrowserTls a = BrowserTls.make(); BrowserTls b = BrowserTls.make()) {
            assertNotEquals(a.chromiumFlag(), b.chromiumFlag());
            assertTrue(a.chromiumFlag().startsWith("--ignore-certificate-errors-spki-list="));
        }
    }
}
