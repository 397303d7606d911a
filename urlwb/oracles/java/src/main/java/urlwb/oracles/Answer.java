package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/** What an oracle says about one request; {@link #write} writes the answer's fields after its id. */
sealed interface Answer permits Components, Answer.Rejected, Answer.Value, Answer.NotApplicable {

    void write(JsonGenerator json) throws IOException;

    /** The parser rejected the input, in the way it documents; its own message. */
    record Rejected(String message) implements Answer {
        Rejected(Exception e) {
            this(String.valueOf(e.getMessage()));
        }

        public void write(JsonGenerator json) throws IOException {
            json.writeStringField("error", message);
        }
    }

    /** A host question's answer (null: the parser says there is none). */
    record Value(String value) implements Answer {
        public void write(JsonGenerator json) throws IOException {
            json.writeStringField("value", value);
        }
    }

    /** This request cannot be put to this parser (counted, never compared). */
    record NotApplicable(String reason) implements Answer {
        public void write(JsonGenerator json) throws IOException {
            json.writeStringField("not_applicable", reason);
        }
    }
}
