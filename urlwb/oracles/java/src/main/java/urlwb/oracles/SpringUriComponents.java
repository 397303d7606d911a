package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import org.springframework.web.util.InvalidUrlException;
import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder.ParserType;

import java.io.IOException;

/**
 * Spring's {@code UriComponentsBuilder.fromUriString(input).build()} (spring-web; the parser of
 * CVE-2024-22243 and its follow-ups), with its default {@link ParserType#RFC} parser, or, as the
 * second oracle, {@code fromUriString(input, ParserType.WHAT_WG)}, Spring's port of the URL
 * Standard's parser (since 6.2; {@code fromHttpUrl} is gone in 7). No base: the builder resolves
 * none. Rejection: {@link InvalidUrlException}.
 *
 * <p>Quirks, mapped here: {@code build()} does not encode or decode, so the getters are the raw
 * components. {@code getPort()} throws {@link IllegalStateException} for a port that is not an
 * integer (the builder keeps ports as text, for URI templates): the text is sent as the port,
 * read from that exception's message, the only place Spring gives it. An opaque URI has no path,
 * only a scheme-specific part: sent as the path. An empty input gives an empty builder, without
 * error. The WHATWG parser's record reaches the builder through {@code UriComponentsBuilder}'s
 * own mapping, which drops an empty host and an empty fragment.
 */
final class SpringUriComponents implements Oracle {

    private static final String PORT_NOT_INTEGER = "The port must be an integer: ";

    private final ParserType parser;

    SpringUriComponents(boolean whatwg) {
        this.parser = whatwg ? ParserType.WHAT_WG : ParserType.RFC;
    }

    @Override
    public void hello(JsonGenerator json) throws IOException {
        Oracle.helloUrl(json, "org.springframework.web.util.UriComponentsBuilder.fromUriString(input, ParserType."
                + parser + ").build()", Versions.of(UriComponentsBuilder.class, "spring-web"), "other", false);
    }

    @Override
    public Answer answer(String input, String base, String question) {
        if (base != null) {
            return new Answer.NotApplicable("UriComponentsBuilder resolves no base");
        }
        UriComponents u;
        try {
            u = UriComponentsBuilder.fromUriString(input, parser).build();
        } catch (InvalidUrlException e) {
            return new Answer.Rejected(e);
        }
        Object port;
        try {
            port = Components.port(u.getPort());
        } catch (IllegalStateException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith(PORT_NOT_INTEGER)) {
                throw e;
            }
            port = e.getMessage().substring(PORT_NOT_INTEGER.length());
        }
        String path = u.getPath() != null || u.getHost() != null ? u.getPath() : u.getSchemeSpecificPart();
        return Components.withUserinfo(u.getScheme(), u.getUserInfo(), u.getHost(), port, path,
                u.getQuery(), u.getFragment(), u.toUriString());
    }
}
