// A user's adapter on Apache HttpClient 4's URIUtils.extractHost(new URI(input)): the host it
// picks (java HttpClientHost.java; the release's jars are on CLASSPATH). With the argument
// "validator", an SSRF validator on it: allow unless that host is a loopback, private,
// link-local or unspecified address literal, or localhost.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.http.HttpHost;
import org.apache.http.client.utils.URIUtils;
import org.apache.http.util.VersionInfo;

public class HttpClientHost {
    static String q(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    // the request's "input" string: {"id": N, "input": "..."} as the supervisor writes it
    static String input(String line) {
        int i = line.indexOf("\"input\"");
        i = line.indexOf('"', line.indexOf(':', i) + 1) + 1;
        StringBuilder b = new StringBuilder();
        for (; line.charAt(i) != '"'; i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                char e = line.charAt(++i);
                if (e == 'u') { b.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16)); i += 4; }
                else b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e);
            } else b.append(c);
        }
        return b.toString();
    }

    static boolean denied(String host) {
        if (host.equalsIgnoreCase("localhost")) return true;
        if (!host.matches("[0-9.]+|\\[?[0-9A-Fa-f:.]+\\]?")) return false;   // a name: not resolved here
        try {
            java.net.InetAddress a = java.net.InetAddress.getByName(host.replaceAll("[\\[\\]]", ""));
            return a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress();
        } catch (Exception e) {
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        VersionInfo vi = VersionInfo.loadVersionInfo("org.apache.http.client", HttpClientHost.class.getClassLoader());
        boolean validator = args.length > 0 && args[0].equals("validator");
        if (validator) System.out.println("{\"hello\":\"urlwb-oracle/1\",\"name\":\"httpclient-guard\",\"kind\":\"validator\","
            + "\"validator\":\"URIUtils.extractHost(new URI(input)) not a private address\",\"language\":\"Java\",\"version\":"
            + q(vi == null ? "?" : vi.getRelease()) + "}");
        else System.out.println("{\"hello\":\"urlwb-oracle/1\",\"name\":\"httpclient-host\",\"parser\":\"URIUtils.extractHost\","
            + "\"language\":\"Java\",\"version\":" + q(vi == null ? "?" : vi.getRelease()) + ",\"family\":\"other\",\"kind\":\"url\",\"base\":false}");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String id = line.replaceAll(".*\"id\"\\s*:\\s*(\\d+).*", "$1");
            String s = input(line);
            String ans;
            try {
                URI uri = new URI(s);
                HttpHost h = URIUtils.extractHost(uri);
                if (validator) {
                    ans = "{\"id\":" + id + ",\"allow\":" + (h != null && !denied(h.getHostName())) + "}";
                } else ans = h == null ? "{\"id\":" + id + ",\"error\":\"no host\"}"
                    : "{\"id\":" + id + ",\"scheme\":" + q(h.getSchemeName()) + ",\"username\":null,\"password\":null,\"host\":"
                      + q(h.getHostName()) + ",\"port\":" + (h.getPort() < 0 ? "null" : String.valueOf(h.getPort()))
                      + ",\"path\":" + q(uri.getRawPath() == null ? "" : uri.getRawPath()) + ",\"query\":null,\"fragment\":null,\"href\":" + q(s) + "}";
            } catch (Exception e) {
                ans = "{\"id\":" + id + ",\"error\":" + q(e.getClass().getSimpleName()) + "}";
            }
            System.out.println(ans);
        }
    }
}
