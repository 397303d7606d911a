package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * One parser behind the protocol. For each request it returns an {@link Answer}: the components, a
 * host question's value, or {@link Answer.Rejected} with the parser's own message when the parser
 * rejects the input in the way it documents. Anything else the parser throws escapes to the
 * caller, which answers {@code crash} ("oracle crashed").
 */
interface Oracle {

    /** The hello line's fields after {@code hello} and {@code name}. */
    void hello(JsonGenerator json) throws IOException;

    /** {@code base} and {@code question} are null when the request has none. */
    Answer answer(String input, String base, String question);

    /** The hello fields every URL oracle of this module shares. */
    static void helloUrl(JsonGenerator json, String parser, String version, String family, boolean base)
            throws IOException {
        json.writeStringField("parser", parser);
        json.writeStringField("language", "Java");
        json.writeStringField("version", version);
        json.writeStringField("family", family);
        json.writeStringField("kind", "url");
        json.writeBooleanField("base", base);
    }
}
