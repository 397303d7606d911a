package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * {@code java.net.URI} (RFC 2396 with some RFC 2732 and 3986): {@code new URI(input)}, with a
 * base {@code new URI(base).resolve(new URI(input))}. Rejection: {@link URISyntaxException}.
 *
 * <p>Quirks, mapped here: the raw getters throughout ({@code getRawUserInfo}, {@code getRawPath},
 * ...; the others decode). An authority that does not parse as {@code [userinfo@]host[:port]} is
 * kept as a "registry-based" authority, without error: host, userinfo and port are then null
 * (what {@code getHost()} tells the application). An opaque URI ({@code mailto:a}, no '/' after
 * the scheme) has no path: its scheme-specific part is sent as the path. A relative reference
 * without a base is accepted (scheme null).
 */
final class JavaUri implements Oracle {

    @Override
    public void hello(JsonGenerator json) throws IOException {
        Oracle.helloUrl(json, "java.net.URI (new URI, resolve)", Versions.jdk(), "other", true);
    }

    @Override
    public Answer answer(String input, String base, String question) {
        URI uri;
        try {
            uri = new URI(input);
            if (base != null) {
                uri = new URI(base).resolve(uri);
            }
        } catch (URISyntaxException e) {
            return new Answer.Rejected(e);
        }
        return components(uri);
    }

    /** A URI's components by its raw getters (also what the Apache oracle reads its URIs with). */
    static Components components(URI uri) {
        return Components.withUserinfo(uri.getScheme(), uri.getRawUserInfo(), uri.getHost(),
                Components.port(uri.getPort()),
                uri.isOpaque() ? uri.getRawSchemeSpecificPart() : uri.getRawPath(),
                uri.getRawQuery(), uri.getRawFragment(), uri.toString());
    }
}
