package cli;

import base.UsageException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --target}'s guards. Every refusal here comes from {@link TargetUrl#check}, which runs before the one request
 * to the server, so none of these tests sends anything anywhere: the addresses are literals (no name is looked up but
 * localhost), reserved ones (TEST-NET-1, 192.0.2.0/24, routes nowhere) and ones PssrBench refuses to connect to.
 */
class TargetGuardTest {

    /** Exit 2, exactly one line on stderr containing {@code fragment}, nothing on stdout. */
    private static String refused(String fragment, String... args) {
        CliTest.Run r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
        assertEquals("", r.out());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).contains(fragment), r.err());
        return r.err();
    }

    @Test
    void credentialsAreRefusedAndNeverRepeatedOrWritten(@TempDir Path tmp) {
        Path out = tmp.resolve("results");
        for (List<String> args : List.of(List.of("verify"), List.of("bench", "--out=" + out))) {
            List<String> all = new java.util.ArrayList<>(args);
            all.add("--target=http://user:s3cret@127.0.0.1:1/");
            String err = refused("--target must not carry credentials", all.toArray(String[]::new));
            assertFalse(err.contains("s3cret"), err);
        }
        String err = refused("must not carry credentials", "bench", "--target=http://user:s3cret@[::1", "--out=" + out);
        assertFalse(err.contains("s3cret"), "not echoed even when the URL is malformed: " + err);
        assertFalse(Files.exists(out), "nothing written");
        // The wrk2 scripts record their --target through provenance: refused there too, before anything is written.
        err = refused("must not carry credentials", "provenance", "--out=" + out, "--command=scripts/wrk2-cell.sh",
                "--load-generator=wrk2", "--", "--target=http://user:s3cret@bench-host:8080");
        assertFalse(err.contains("s3cret"), err);
        assertFalse(Files.exists(out.resolve("provenance.json")), "nothing written");
    }

    @Test
    void linkLocalAndCloudMetadataAddressesAreRefusedEvenWithAllowRemote() {
        for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://169.254.1.1:8080/",
                "http://[fe80::1]:8080/", "http://[fd00:ec2::254]/", "http://100.100.100.200/")) {
            refused("which PssrBench never connects to", "verify", "--target=" + url);
            refused("which PssrBench never connects to", "bench", "--allow-remote", "--target=" + url);
        }
        refused("--target's host 169.254.169.254 is a cloud metadata service, which PssrBench never connects to",
                "verify", "--target=http://169.254.169.254/");
        refused("169.254.1.1 is a link-local address", "verify", "--target=http://169.254.1.1/");
        refused("is a link-local address", "verify", "--allow-remote", "--target=http://[fe80::1%25lo]:8080/");
        // A name is checked by what it resolves to: IPv4-mapped IPv6 is the IPv4 address.
        refused("a cloud metadata service", "verify", "--target=http://[::ffff:169.254.169.254]/");
    }

    @Test
    void aServerOnAnotherMachineNeedsAllowRemoteAndIsNamed() {
        refused("--target http://192.0.2.1:8080/ is not on this machine (192.0.2.1): add --allow-remote",
                "verify", "--target=http://192.0.2.1:8080/");
        refused("add --allow-remote", "bench", "--target=http://192.0.2.1:8080/");
        refused("--allow-remote goes with --target", "verify", "--allow-remote");
        refused("--target, --allow-remote and --trust are not supported", "stress", "--allow-remote");
        // Accepted with the flag (checked without connecting: the check opens no socket), and the host is named.
        TargetUrl remote = TargetUrl.check("http://192.0.2.1:8080/", true);
        assertFalse(remote.local());
        assertEquals("192.0.2.1", remote.measured());
        TargetUrl local = TargetUrl.check("http://localhost:8080/", false);
        assertTrue(local.local());
        assertTrue(local.measured().startsWith("localhost ("), local.measured());
        assertTrue(local.url().getHost().matches("127\\.0\\.0\\.1|\\[0:0:0:0:0:0:0:1\\]"),
                "the checked address is the one connected to: " + local.url());
    }

    @Test
    void aPortOutOfRangeIsAUsageError() {
        for (String port : List.of("99999", "0", "-1", "65536", "123456789012")) {
            refused("--target's port must be between 1 and 65535, not " + port, "verify",
                    "--target=http://127.0.0.1:" + port + "/");
        }
    }

    @Test
    void theSchemeIsCaseInsensitiveAndHttpsKeepsTheNameForTheCertificateCheck() {
        assertEquals("http://127.0.0.1:8080/x", TargetUrl.check("HTTP://127.0.0.1:8080/x", false).url().toString());
        assertEquals("http://[0:0:0:0:0:0:0:1]:8080/", TargetUrl.check("Http://[::1]:8080/", false).url().toString());
        // Accepted as a URL: what fails is the world (nothing listens on port 1), exit 1, not the usage.
        CliTest.Run r = CliTest.run("verify", "--target=HTTP://127.0.0.1:1/");
        assertEquals(1, r.code(), r.err());
        assertEquals(List.of("pssrbench: nothing answers at http://127.0.0.1:1/: connection refused."),
                r.err().lines().toList());
        // Over https a name stays in the URL (the certificate is checked against it), an address stays an address.
        assertEquals("https://localhost:8443/", TargetUrl.check("HTTPS://localhost:8443/", false).url().toString());
        assertEquals("https://127.0.0.1:8443/x", TargetUrl.check("https://127.0.0.1:8443/x", false).url().toString());
        refused("bench measures over clear-text HTTP/1.1, its load generator has no TLS yet", "bench",
                "--target=https://127.0.0.1:1/");
        refused("--target takes an http:// or https:// URL", "verify", "--target=ftp://127.0.0.1/");
        assertThrows(UsageException.class, () -> TargetUrl.check("http:///path", false));
    }
}
