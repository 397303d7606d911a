package urlwb.ssrf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.google.common.net.InetAddresses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * The common JVM SSRF check, kind "validator" (docs/oracle-protocol.md, "Validators"):
 * {@code new URI(input).getHost()}; a host Guava's {@code InetAddresses.isUriInetAddress} reads as
 * an address (no lookup: {@code forUriString}) is denied when it is site-local, loopback,
 * link-local or the any-address; a name is allowed (the shape's DNS step is not taken); a
 * {@code URISyntaxException} or no host is "error".
 */
public final class Validator {
    private static final JsonFactory JSON = new JsonFactoryBuilder()
            .rootValueSeparator((String) null).enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private Validator() {
    }

    static void judge(String input, JsonGenerator json) throws IOException {
        String host;
        try {
            host = new URI(input).getHost();
        } catch (URISyntaxException e) {
            json.writeStringField("error", e.getMessage());
            return;
        }
        if (host == null) {
            json.writeStringField("error", "no host");
            return;
        }
        if (!InetAddresses.isUriInetAddress(host)) {
            json.writeBooleanField("allow", true);
            return;
        }
        InetAddress a = InetAddresses.forUriString(host);
        boolean bad = a.isSiteLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress();
        json.writeBooleanField("allow", !bad);
    }

    /** Guava's version, from the pom.properties Maven puts in its jar. */
    static String guavaVersion() throws IOException {
        java.util.Properties props = new java.util.Properties();
        try (var s = InetAddresses.class.getResourceAsStream("/META-INF/maven/com.google.guava/guava/pom.properties")) {
            if (s == null) {
                return "?";
            }
            props.load(s);
        }
        return props.getProperty("version", "?");
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        OutputStream out = System.out;
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("hello", "urlwb-oracle/1");
            json.writeStringField("name", "jvm-guava");
            json.writeStringField("kind", "validator");
            json.writeStringField("validator", "new URI(input).getHost() + Guava InetAddresses.forUriString + isSiteLocal/isLoopback/isLinkLocal/isAnyLocal");
            json.writeStringField("language", "Java");
            json.writeStringField("version", "Java " + System.getProperty("java.version") + ", Guava " + guavaVersion());
            json.writeStringField("family", "other");
            json.writeEndObject();
            json.flush();
            out.write('\n');
            out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                long id = -1;
                String input = null;
                try (JsonParser p = JSON.createParser(line)) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken v = p.nextToken();
                        if (field.equals("id") && v == JsonToken.VALUE_NUMBER_INT) {
                            id = p.getLongValue();
                        } else if (field.equals("input") && v == JsonToken.VALUE_STRING) {
                            input = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                json.writeStartObject();
                json.writeNumberField("id", id);
                try {
                    judge(input, json);
                } catch (RuntimeException e) {
                    json.writeStringField("crash", e.toString());
                }
                json.writeEndObject();
                json.flush();
                out.write('\n');
                if (!in.ready()) {
                    out.flush();
                }
            }
            out.flush();
        }
    }
}
