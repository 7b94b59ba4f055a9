package browser;

import http.Tls;
import site.ServeConfig;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.util.Base64;

/**
 * The one certificate of a browser run's servers over TLS ({@code --protocol=h1s,h2}), and the flag with which
 * Chromium accepts it and no other.
 *
 * <p>Made here, once per run, rather than by each server at its start as {@code serve} does: Chromium must be told
 * which certificate to accept when it starts, and a certificate a child server made for itself is known to that
 * server alone. The servers get it as serve's PEM pair ({@code --tls-cert}, {@code --tls-key}), written to a folder
 * only this user can read and deleted when the run ends; the key is a throwaway made for this run.
 *
 * <p>Chromium accepts it through {@code --ignore-certificate-errors-spki-list=PIN}, PIN being the base64 SHA-256 of
 * the certificate's SubjectPublicKeyInfo (RFC 7469's pin). Its network service (IgnoreErrorsCertVerifier) then
 * ignores verification errors only for a chain that holds a certificate with a listed key, and verifies every other
 * chain as usual; the flag has no effect without a {@code --user-data-dir}, which {@link Chromium} always gives.
 * Not {@code --ignore-certificate-errors}: that accepts any certificate from anyone, and a page that came from
 * somewhere else than the server started here would be measured without a word.
 */
public final class BrowserTls implements AutoCloseable {

    private final Path folder;
    private final Path cert;
    private final Path key;
    private final String pin;

    private BrowserTls(Path folder, Path cert, Path key, String pin) {
        this.folder = folder;
        this.cert = cert;
        this.key = key;
        this.pin = pin;
    }

    /** A new self-signed certificate for the servers' loopback address (and localhost), its PEM pair written. */
    public static BrowserTls make() throws IOException {
        Tls tls = Tls.selfSigned(ServeConfig.DEFAULT_HOST);
        Path folder = Files.createTempDirectory("pssrbench-tls-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            Path cert = folder.resolve("cert.pem");
            Path key = folder.resolve("key.pem");
            Files.writeString(cert, tls.certificatePem());
            Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (Writer w = Files.newBufferedWriter(key, StandardCharsets.US_ASCII);
                 JcaPEMWriter pem = new JcaPEMWriter(w)) {
                pem.writeObject(new JcaPKCS8Generator(tls.key(), null));   // PKCS#8 PRIVATE KEY, unencrypted
            }
            return new BrowserTls(folder, cert, key, pin(tls.chain().get(0)));
        } catch (IOException | RuntimeException e) {
            delete(folder);
            throw e;
        }
    }

    /** The base64 SHA-256 of the certificate's SubjectPublicKeyInfo ({@code getEncoded()} of its public key). */
    static String pin(X509Certificate certificate) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(certificate.getPublicKey().getEncoded()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The flag that makes Chromium accept this certificate, and no other that does not verify. */
    public String chromiumFlag() {
        return "--ignore-certificate-errors-spki-list=" + pin;
    }

    /** The certificate's public-key hash, as {@link Chromium#start(Chromium.Binaries, Path, List)} takes it. */
    String pin() {
        return pin;
    }

    /** The certificate, PEM. */
    Path certFile() {
        return cert;
    }

    /** Its unencrypted private key, PEM (PKCS#8), readable by this user alone. */
    Path keyFile() {
        return key;
    }

    /** {@code config} served with this certificate when its protocol is over TLS; as it is otherwise. */
    public ServeConfig serve(ServeConfig config) {
        return config.protocol().tls() ? config.withTlsFiles(cert, key) : config;
    }

    /** The key and certificate files are deleted. */
    @Override
    public void close() {
        delete(folder);
    }

    private static void delete(Path folder) {
        try (var files = Files.list(folder)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(folder);
        } catch (IOException e) {
            // a temporary folder: the system cleans it at the latest
        }
    }
}
