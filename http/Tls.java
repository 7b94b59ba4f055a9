package http;

import base.UsageException;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A TLS server's key and certificate chain ({@code serve --protocol=h1s|h2}): a self-signed certificate made at
 * start-up ({@link #selfSigned}), or the user's PEM pair ({@link #read}). Each server hands these to its library in
 * the library's own way (a key and chain, a {@link KeyManagerFactory} or an {@link SSLContext}); a client that must
 * trust exactly this certificate gets {@link #trustingContext()}.
 *
 * <p>The user's certificate is a PEM pair ({@code --tls-cert}, {@code --tls-key}) rather than a key store: it is
 * what certbot, mkcert and {@code openssl req} write, and an unencrypted PEM key needs no password, which on the
 * command line would show in {@code ps}, in logs and in every child server's arguments ({@link site.ServeConfig#args()}).
 * Both are read with BouncyCastle (bcpkix), which also makes the self-signed certificate: no hand-written DER.
 */
public record Tls(PrivateKey key, List<X509Certificate> chain) {

    /** How long a self-signed certificate is valid: a serve or bench run is far shorter. */
    private static final Duration VALIDITY = Duration.ofDays(30);
    private static final char[] NO_PASSWORD = new char[0];

    public Tls {
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a certificate chain needs at least one certificate");
        }
    }

    /**
     * A new EC P-256 key (made in milliseconds, where RSA-2048 takes up to a second) and a self-signed certificate
     * for {@code localhost}, {@code 127.0.0.1}, {@code ::1} and {@code host}: a client that checks host names (the
     * JDK's HttpClient does) accepts it for any of these once it trusts it.
     */
    public static Tls selfSigned(String host) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            KeyPair pair = generator.generateKeyPair();
            X500Name name = new X500Name("CN=pssrbench self-signed");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(VALIDITY)), name, pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.subjectAlternativeName, false, names(host));
            X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA")
                    .build(pair.getPrivate()));
            return new Tls(pair.getPrivate(), List.of(new JcaX509CertificateConverter().getCertificate(holder)));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot make a self-signed certificate: " + e, e);
        }
    }

    private static GeneralNames names(String host) {
        Set<String> hosts = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
        if (host != null && !host.isBlank() && !host.equals("0.0.0.0") && !host.equals("::")) {
            hosts.add(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        }
        List<GeneralName> names = new ArrayList<>();
        for (String h : hosts) {
            boolean ip = h.contains(":") || h.chars().allMatch(c -> c == '.' || Character.isDigit(c));
            names.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, h));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    /**
     * The user's certificate chain ({@code cert}: one or more PEM certificates, the server's first) and its
     * unencrypted private key ({@code key}: PKCS#8 {@code PRIVATE KEY} or a traditional {@code RSA/EC PRIVATE KEY}).
     */
    public static Tls read(Path cert, Path key) {
        List<X509Certificate> chain = certificates(cert, "--tls-cert");
        PrivateKey privateKey = null;
        try (Reader r = Files.newBufferedReader(key); PEMParser pem = new PEMParser(r)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object o = pem.readObject(); o != null && privateKey == null; o = pem.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    privateKey = converter.getKeyPair(pair).getPrivate();
                } else if (o instanceof PrivateKeyInfo info) {
                    privateKey = converter.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new UsageException("--tls-key " + key + " cannot be read as a PEM private key: " + e.getMessage());
        }
        if (privateKey == null) {
            throw new UsageException("--tls-key " + key + " holds no unencrypted PEM private key (-----BEGIN PRIVATE"
                    + " KEY----- or -----BEGIN EC/RSA PRIVATE KEY-----).");
        }
        return new Tls(privateKey, chain);
    }

    /**
     * The PEM certificates in {@code file}, in their order; refused in one sentence (exit 2), naming {@code flag},
     * when it cannot be read or holds none.
     */
    private static List<X509Certificate> certificates(Path file, String flag) {
        List<X509Certificate> certificates = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file); PEMParser pem = new PEMParser(r)) {
            JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
            for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
                if (o instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (NoSuchFileException e) {
            throw new UsageException(flag + " " + file + " does not exist; give a PEM file of certificates"
                    + " (-----BEGIN CERTIFICATE-----).");
        } catch (IOException | CertificateException e) {
            throw new UsageException(flag + " " + file + " cannot be read as PEM certificates: " + e.getMessage());
        }
        if (certificates.isEmpty()) {
            throw new UsageException(flag + " " + file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----).");
        }
        return certificates;
    }

    /**
     * A client's TLS context that trusts the certificates of the PEM file {@code pem} and no other ({@code --trust}):
     * a self-signed server certificate, or a chain (each of its certificates is trusted, so the server's own is
     * enough). Host names are still checked by the client against the certificate's.
     */
    public static SSLContext trusting(Path pem) {
        return trusting(certificates(pem, "--trust"));
    }

    private static SSLContext trusting(List<X509Certificate> certificates) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < certificates.size(); i++) {
                store.setCertificateEntry("trusted-" + i, certificates.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e, e);
        }
    }

    /**
     * The SHA-256 of each certificate's public key (its SubjectPublicKeyInfo) in base64, as Chromium's
     * {@code --ignore-certificate-errors-spki-list} takes them: the browser then accepts exactly these keys.
     */
    public static List<String> publicKeyHashes(Path pem) {
        List<String> hashes = new ArrayList<>();
        for (X509Certificate c : certificates(pem, "--trust")) {
            try {
                hashes.add(java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest
                        .getInstance("SHA-256").digest(c.getPublicKey().getEncoded())));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("no SHA-256 in this JVM: " + e, e);
            }
        }
        return hashes;
    }

    /** The key and chain as the JDK's key managers (for the libraries that take a factory or a context). */
    public KeyManagerFactory keyManagers() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("server", key, NO_PASSWORD, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, NO_PASSWORD);
            return factory;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot hold the TLS key: " + e, e);
        }
    }

    /** A server's TLS context with this key and chain. */
    public SSLContext serverContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers().getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e, e);
        }
    }

    /** A client's TLS context that trusts this certificate (the chain's first) and no other. */
    public SSLContext trustingContext() {
        return trusting(List.of(chain.get(0)));
    }

    /**
     * The private key as unencrypted PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}), which {@link #read} reads back:
     * for a server in another JVM that must present this certificate (bench starts its servers so, and trusts
     * exactly the certificate it made). Whoever writes it keeps the file to its owner.
     */
    public String keyPem() {
        return "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    /** The certificate as PEM, for a client outside this JVM (curl --cacert). */
    public String certificatePem() {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(chain.get(0).getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
