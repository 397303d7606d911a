package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Spring's {@code UriComponentsBuilder.fromUriString(input).build()} (spring-web; the parser of
 * CVE-2024-22243 and its follow-ups), with its default {@link ParserType#RFC} parser, or, as the
 * second oracle, {@code fromUriString(input, ParserType.WHAT_WG)}, Spring's port of the URL
 * Standard's parser (since 6.2; {@code fromHttpUrl} is gone in 7). No base: the builder resolves
 * none. Rejection: {@code InvalidUrlException}.
 *
 * <p>One source for every spring-web version ({@code urlwb bisect}, {@code spring-uricomponents@5.3.0}):
 * {@code ParserType} and {@code InvalidUrlException} (6.2 on) are looked up by name. Before 6.2
 * there is one parser, the RFC one, {@code fromUriString(input)}, whose documented rejection is
 * {@link IllegalArgumentException}; the WHATWG oracle cannot start there (its hello says why).
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

    private static final String PKG = "org.springframework.web.util.";

    /** ParserType.RFC or WHAT_WG (6.2 on), null before 6.2 */
    private final Object parser;
    /** fromUriString(String, ParserType) (6.2 on), null before */
    private final Method withParser;
    /** InvalidUrlException (6.2 on), else IllegalArgumentException */
    private final Class<?> rejection;
    /** why this oracle cannot run on this spring-web, or null */
    private final String unavailable;

    SpringUriComponents(boolean whatwg) {
        Class<?> type = load(PKG + "UriComponentsBuilder$ParserType");
        Class<?> invalid = load(PKG + "InvalidUrlException");
        rejection = invalid != null ? invalid : IllegalArgumentException.class;
        Object p = null;
        Method m = null;
        String why = null;
        if (type != null) {
            try {
                p = type.getField(whatwg ? "WHAT_WG" : "RFC").get(null);
                m = UriComponentsBuilder.class.getMethod("fromUriString", String.class, type);
            } catch (ReflectiveOperationException e) {
                why = "UriComponentsBuilder.ParserType without fromUriString(String, ParserType): " + e;
            }
        } else if (whatwg) {
            why = "ParserType.WHAT_WG is in spring-web 6.2 and later; this is " + version();
        }
        parser = p;
        withParser = m;
        unavailable = why;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static String version() {
        return Versions.of(UriComponentsBuilder.class, "spring-web");
    }

    @Override
    public void hello(JsonGenerator json) throws IOException {
        if (unavailable != null) {
            // before anything of the hello line is flushed: the supervisor reports "exited before
            // its hello line" with this last word
            System.err.println("spring-uricomponents-whatwg cannot start: " + unavailable);
            System.exit(1);
        }
        Oracle.helloUrl(json, "org.springframework.web.util.UriComponentsBuilder.fromUriString(input"
                + (parser != null ? ", ParserType." + parser : "") + ").build()", version(), "other", false);
    }

    private UriComponentsBuilder builder(String input) {
        if (withParser == null) {
            return UriComponentsBuilder.fromUriString(input);
        }
        try {
            return (UriComponentsBuilder) withParser.invoke(null, input, parser);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(t);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Answer answer(String input, String base, String question) {
        if (base != null) {
            return new Answer.NotApplicable("UriComponentsBuilder resolves no base");
        }
        UriComponents u;
        try {
            u = builder(input).build();
        } catch (RuntimeException e) {
            if (!rejection.isInstance(e)) {
                throw e;
            }
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
