package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;

/**
 * {@code java.net.URL}: {@code new URL(input)}, with a base {@code new URL(new URL(base), input)}.
 * Rejection: {@link MalformedURLException} (the constructor wraps whatever its protocol handler
 * throws into one). It never opens a connection, and the adapter never calls {@code equals} or
 * {@code hashCode} (which resolve the host): {@link NetworkGuard} would answer crash if anything did.
 *
 * <p>Quirks: {@code URL} never decodes, so its getters are the raw components; {@code getRef()} is
 * the fragment. {@code getHost()} is "" both when the URL has no authority ({@code mailto:a}) and
 * when its handler found no host in a non-empty authority (more than one '@':
 * {@code http://a@b@c/}, where {@code getUserInfo()} is null too): both are sent as host null,
 * like {@code java-uri}'s registry-based authority; "" stays "" only for an empty authority
 * ({@code file:///x}). An unknown scheme is rejected ("unknown protocol", e.g. {@code javascript:}).
 */
final class JavaUrl implements Oracle {

    @Override
    public void hello(JsonGenerator json) throws IOException {
        Oracle.helloUrl(json, "java.net.URL (new URL(spec), new URL(context, spec))", Versions.jdk(),
                "other", true);
    }

    @Override
    public Answer answer(String input, String base, String question) {
        URL url;
        try {
            url = base == null ? new URL(input) : new URL(new URL(base), input);
        } catch (MalformedURLException e) {
            return new Answer.Rejected(e);
        }
        String authority = url.getAuthority(), host = url.getHost();
        if (authority == null || host == null || (host.isEmpty() && !authority.isEmpty())) {
            host = null;
        }
        return Components.withUserinfo(url.getProtocol(), url.getUserInfo(), host,
                Components.port(url.getPort()), url.getPath(), url.getQuery(), url.getRef(),
                url.toExternalForm());
    }
}
