package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * An accepted input's components as the protocol's answer carries them. {@code port} is an
 * {@link Integer}, a {@link String} (a port the parser keeps as text) or null (none written).
 */
record Components(String scheme, String username, String password, String host, Object port,
                  String path, String query, String fragment, String href) implements Answer {

    /**
     * For the parsers whose API has one userinfo string (java.net.URI and URL, Apache, Spring):
     * split at its first ':' as the Standard does (https://url.spec.whatwg.org/#authority-state);
     * no userinfo gives username and password null, "user" gives password null.
     */
    static Components withUserinfo(String scheme, String userinfo, String host, Object port,
                                   String path, String query, String fragment, String href) {
        String username = userinfo, password = null;
        int colon = userinfo == null ? -1 : userinfo.indexOf(':');
        if (colon >= 0) {
            username = userinfo.substring(0, colon);
            password = userinfo.substring(colon + 1);
        }
        return new Components(scheme, username, password, host, port, path, query, fragment, href);
    }

    /** The port of an API that says -1 for "none": null then. */
    static Integer port(int port) {
        return port < 0 ? null : port;
    }

    /** An IPv6 address in brackets, as the protocol wants it, for APIs that strip them. */
    static String bracketed(String host) {
        return host != null && host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    public void write(JsonGenerator json) throws IOException {
        json.writeStringField("scheme", scheme);
        json.writeStringField("username", username);
        json.writeStringField("password", password);
        json.writeStringField("host", host);
        if (port instanceof Integer n) {
            json.writeNumberField("port", n);
        } else {
            json.writeStringField("port", (String) port);
        }
        json.writeStringField("path", path);
        json.writeStringField("query", query);
        json.writeStringField("fragment", fragment);
        json.writeStringField("href", href);
    }
}
