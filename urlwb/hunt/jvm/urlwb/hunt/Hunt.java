package urlwb.hunt;

import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import org.apache.hc.core5.net.URIBuilder;
import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * urlwb hunt's Jazzer harness: one JVM URL parser, chosen by the system property
 * {@code urlwb.hunt.parser} (okhttp, spring, apache), under Jazzer, guided by that parser's own
 * classes (Jazzer's --instrumentation_includes). Each input's UTF-8 text is parsed with the
 * call the workbench's oracle makes (urlwb/oracles/java) and every component it reports is read,
 * so that the code the oracle's answer depends on is the code covered. Nothing is checked and
 * nothing is thrown: a parser's exception is caught (the differential calls an undocumented one
 * a crash when the judge replays the input through the oracle), so that only a hang stops
 * Jazzer. What Jazzer keeps is judged by the Standard in urlwb hunt, in batches.
 */
public final class Hunt {
    private static String parser = "okhttp";

    private Hunt() {}

    public static void fuzzerInitialize() {
        parser = System.getProperty("urlwb.hunt.parser", "okhttp");
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String s = new String(data, StandardCharsets.UTF_8);
        try {
            switch (parser) {
                case "okhttp" -> okhttp(s);
                case "spring" -> spring(s);
                case "apache" -> apache(s);
                default -> throw new IllegalStateException("unknown parser " + parser);
            }
        } catch (IllegalStateException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("unknown parser")) {
                throw e;
            }
        } catch (RuntimeException | java.net.URISyntaxException e) {
            // rejected, or crashed: the judge tells which through the oracle
        }
    }

    private static void okhttp(String s) {
        HttpUrl u = HttpUrl.parse(s);
        if (u == null) {
            return;
        }
        u.scheme();
        u.encodedUsername();
        u.encodedPassword();
        u.host();
        u.port();
        u.encodedPath();
        u.encodedQuery();
        u.encodedFragment();
        u.toString();
    }

    private static void spring(String s) {
        UriComponents u = UriComponentsBuilder.fromUriString(s).build();
        u.getScheme();
        u.getUserInfo();
        u.getHost();
        u.getPath();
        u.getQuery();
        u.getFragment();
        u.toUriString();
        u.getPort();
    }

    private static void apache(String s) throws java.net.URISyntaxException {
        URIBuilder b = new URIBuilder(s);
        b.getScheme();
        b.getUserInfo();
        b.getHost();
        b.getPort();
        java.net.URI u = b.build();
        u.getRawPath();
        u.getRawQuery();
        u.getRawFragment();
        u.toString();
    }
}
