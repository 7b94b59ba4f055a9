package cli;

import base.UsageException;
import http.ListenAddress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of {@code --target}'s URL, all made before any connection is opened: the URL is written into results
 * folders made to be shared, and a benchmark sends thousands of requests a second to it. Refused, each in one
 * sentence (exit 2): credentials in the URL (never echoed), a scheme other than http and https, a port outside
 * 1-65535, a host that does not resolve, and any resolved address that is link-local (169.254.0.0/16, fe80::/10) or
 * a cloud provider's metadata service; a host that is not this machine's (loopback, or an address of one of its
 * interfaces) unless {@code --allow-remote} is given. Over http the name is resolved once, here: the URL returned
 * names the checked address, so nothing later resolves it again to something else. Over https the URL keeps the
 * name: the client checks the server's certificate against it (and sends it as SNI), and a later resolution to
 * another machine cannot answer without a certificate for that name that the client trusts.
 *
 * @param url      the URL to connect to: scheme in lower case, the host replaced by the checked address
 * @param given    the URL as given (a name stays a name), for messages
 * @param local    whether the server is on this machine
 * @param measured which host is measured, for the notes: {@code name (address)}, or the address alone
 */
public record TargetUrl(URI url, URI given, boolean local, String measured) {

    /** Cloud metadata services that are not link-local (those are refused as link-local already). */
    private static final Set<String> METADATA = Set.of(
            "fd00:ec2:0:0:0:0:0:254",   // AWS's IPv6 instance metadata service
            "100.100.100.200");        // Alibaba Cloud's metadata service
    private static final Pattern PORT = Pattern.compile(":(-?\\d+)$");
    private static final String ALLOWED = "--target takes an http:// or https:// URL such as http://127.0.0.1:8080/";

    public static TargetUrl check(String text, boolean allowRemote) {
        URI given = parse(text);
        String host = given.getHost();
        // An IPv6 zone (RFC 6874: fe80::1%25eth0) is dropped: only link-local addresses have one, and those are
        // refused whatever the zone, which might not resolve here.
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1).replaceFirst("%.*", "") : host;
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(bare);   // a literal address is not looked up
        } catch (UnknownHostException e) {
            throw new UsageException("--target's host " + host + " does not resolve; give the address or name of"
                    + " the machine the server runs on.");
        }
        for (InetAddress a : addresses) {
            String why = forbidden(a);
            if (why != null) {
                String resolved = a.getHostAddress().equals(bare) ? "" : " (" + a.getHostAddress() + ")";
                throw new UsageException("--target's host " + host + resolved + " is " + why
                        + ", which PssrBench never connects to; give the address of the machine the server runs on.");
            }
        }
        InetAddress address = addresses[0];
        boolean local = Arrays.stream(addresses).allMatch(ListenAddress::isLocal);
        if (!local && !allowRemote) {
            throw new UsageException("--target " + given + " is not on this machine (" + address.getHostAddress()
                    + "): add --allow-remote to measure a server on another machine over the network.");
        }
        String literal = address instanceof Inet6Address ? "[" + address.getHostAddress() + "]"
                : address.getHostAddress();
        boolean named = !bare.contains(":") && !bare.matches("[0-9.]+");
        boolean tls = given.getScheme().equals("https");
        URI url;
        try {
            url = new URI(given.getScheme(), null, tls && named ? bare : literal, given.getPort(),
                    given.getRawPath().isEmpty() ? "/" : given.getPath(), given.getQuery(), null);
        } catch (URISyntaxException e) {
            throw new UsageException(ALLOWED + ": " + e.getMessage() + ".");   // from parts that parsed: unreachable
        }
        String measured = named ? host + " (" + address.getHostAddress() + ")" : address.getHostAddress();
        return new TargetUrl(url, given, local, measured);
    }

    /**
     * Refuses a URL with credentials ({@code user:password@}) without repeating it: a password must not reach a
     * results folder, nor a terminal's scrollback or a CI log.
     */
    public static void refuseCredentials(String text) {
        int authority = text.indexOf("//");
        String rest = authority < 0 ? "" : text.substring(authority + 2);
        int end = rest.indexOf('/');
        if ((end < 0 ? rest : rest.substring(0, end)).contains("@")) {
            throw new UsageException("--target must not carry credentials (user:password@): the URL is written into"
                    + " the results, and the servers PssrBench measures need none.");
        }
    }

    /** The URL, its scheme in lower case; refused unless http(s) with a host, no credentials and a port in range. */
    private static URI parse(String text) {
        refuseCredentials(text);   // first: the sentences below repeat the text
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            throw new UsageException(ALLOWED + ", not '" + text + "'.");
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getRawAuthority() == null) {
            throw new UsageException(ALLOWED + ", not '" + text + "'.");
        }
        Matcher port = PORT.matcher(url.getRawAuthority());
        if (port.find() && !url.getRawAuthority().endsWith("]")) {
            long p = port.group(1).length() > 6 ? Long.MAX_VALUE : Long.parseLong(port.group(1));
            if (p < 1 || p > 65535) {
                throw new UsageException("--target's port must be between 1 and 65535, not " + port.group(1) + ".");
            }
        }
        if (url.getHost() == null) {
            throw new UsageException(ALLOWED + ", not '" + text + "'.");
        }
        if (!url.getScheme().equals(scheme)) {   // schemes are case-insensitive (RFC 3986 section 3.1)
            url = URI.create(scheme + text.substring(url.getScheme().length()));
        }
        return url;
    }

    /** Why PssrBench never connects to {@code a}, or null. */
    private static String forbidden(InetAddress a) {
        if (METADATA.contains(a.getHostAddress()) || a.getHostAddress().equals("169.254.169.254")) {
            return "a cloud metadata service";
        }
        if (a.isLinkLocalAddress()) {
            return "a link-local address";
        }
        return null;
    }
}
