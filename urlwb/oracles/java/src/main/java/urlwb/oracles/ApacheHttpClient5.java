package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import org.apache.hc.client5.http.utils.URIUtils;
import org.apache.hc.core5.net.URIBuilder;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Apache HttpClient 5's URI handling: {@code new URIBuilder(input)} (httpcore5), with a base
 * {@code URIUtils.resolve(new URIBuilder(base).build(), new URIBuilder(input).build())}
 * (httpclient5; what its redirect handling resolves a Location with). {@code URIBuilder} parses
 * with {@code java.net.URI} and then, where {@code URI} found no server-based authority, reads the
 * authority itself ({@code URIAuthority.parse}): that second reading is what differs from
 * {@code java-uri}. Rejection: {@link URISyntaxException}, which {@code URIUtils.resolve} throws
 * wrapped in an {@link IllegalArgumentException} by design (its source catches and rethrows it);
 * any other {@code IllegalArgumentException} (e.g. {@code URIAuthority}'s "Port number" check on
 * {@code :65536}) is undocumented: a crash.
 *
 * <p>Quirks, mapped here: scheme, userinfo, host and port are the builder's ({@code getUserInfo}
 * is decoded: it has no raw getter); {@code getHost()} strips an IPv6 address's brackets: put
 * back; path, query, fragment and href are the raw getters of the URI it builds (its own getters
 * decode, and it has none for the query as a string). An opaque URI's scheme-specific part is
 * sent as its path, as in {@code java-uri}.
 */
final class ApacheHttpClient5 implements Oracle {

    @Override
    public void hello(JsonGenerator json) throws IOException {
        Oracle.helloUrl(json, "org.apache.hc.core5.net.URIBuilder, org.apache.hc.client5.http.utils.URIUtils.resolve",
                Versions.of(URIUtils.class, "httpclient5") + ", " + Versions.of(URIBuilder.class, "httpcore5"),
                "other", true);
    }

    @Override
    public Answer answer(String input, String base, String question) {
        URIBuilder builder;
        URI uri;
        try {
            builder = new URIBuilder(input);
            if (base != null) {
                builder = new URIBuilder(URIUtils.resolve(new URIBuilder(base).build(), builder.build()));
            }
            uri = builder.build();
        } catch (URISyntaxException e) {
            return new Answer.Rejected(e);
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof URISyntaxException cause) {
                return new Answer.Rejected(cause);
            }
            throw e;
        }
        Components raw = JavaUri.components(uri);
        return Components.withUserinfo(builder.getScheme(), builder.getUserInfo(),
                Components.bracketed(builder.getHost()), Components.port(builder.getPort()),
                raw.path(), raw.query(), raw.fragment(), raw.href());
    }
}
