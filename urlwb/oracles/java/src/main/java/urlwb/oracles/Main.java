package urlwb.oracles;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The oracle protocol of ../../../../docs/oracle-protocol.md ({@code urlwb-oracle/1}) for the Java parsers:
 * {@code java -jar build/urlwb-java-oracles.jar NAME}, one parser per process, chosen by NAME.
 *
 * <p>It writes the hello line, then reads one request per line and writes one answer per line, in
 * order, flushing whenever no further request is waiting (so a pipelined burst is answered in
 * batches and a lone request at once), and exits at the end of its standard input. Requests are
 * decoded with Jackson's streaming parser, which keeps a lone surrogate escape ({@code \udc80}) as
 * the lone {@code char} it denotes: Java strings hold them, so each parser gets the input exactly as
 * the workbench holds it (the protocol's "where the USV conversion happens"). Answers are written
 * with every non-ASCII {@code char} escaped one by one, so lone surrogates come back intact.
 */
public final class Main {

    /** The oracles by name: each is one parser (see its class for what it calls and its quirks). */
    private static final Map<String, Oracle> ORACLES = Map.of(
            "java-uri", new JavaUri(),
            "java-url", new JavaUrl(),
            "okhttp", new OkHttp(),
            "apache-httpclient5", new ApacheHttpClient5(),
            "spring-uricomponents", new SpringUriComponents(false),
            "spring-uricomponents-whatwg", new SpringUriComponents(true),
            "guava-idn", new GuavaDomain());

    private static final JsonFactory JSON = new JsonFactoryBuilder()
            .rootValueSeparator((String) null)
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)  // the loop decides when the pipe is written
            .build();

    private Main() {
    }

    public static void main(String[] args) throws IOException {
        Oracle oracle = args.length == 1 ? ORACLES.get(args[0]) : null;
        if (oracle == null) {
            System.err.println("usage: urlwb-java-oracles NAME, NAME one of " + ORACLES.keySet());
            System.exit(2);
        }
        NetworkGuard.install();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        BufferedOutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("hello", "urlwb-oracle/1");
            json.writeStringField("name", args[0]);
            oracle.hello(json);
            json.writeEndObject();
            line(json, out);
            out.flush();
            while (true) {
                if (!in.ready()) {
                    out.flush();  // nothing more is waiting: answer what we have before blocking
                }
                String request = in.readLine();
                if (request == null) {
                    break;
                }
                if (!request.isBlank()) {
                    answer(oracle, request, json);
                    line(json, out);
                }
            }
        }
    }

    private static void line(JsonGenerator json, BufferedOutputStream out) throws IOException {
        json.flush();  // into `out`, a buffer: the pipe is written when the loop flushes `out`
        out.write('\n');
    }

    /** Reads one request line and writes its answer (one JSON object, without the newline). */
    private static void answer(Oracle oracle, String line, JsonGenerator json) throws IOException {
        Long id = null;
        String input = null, base = null, question = null;
        boolean inputIsString = false;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "id" -> id = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                    case "input" -> {
                        inputIsString = value == JsonToken.VALUE_STRING;
                        input = inputIsString ? p.getText() : null;
                    }
                    case "base" -> base = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "question" -> question = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            if (id == null) {
                // Without an id there is no answer to give; the supervisor times the request out.
                System.err.println("urlwb-java-oracles: unreadable request: " + e.getMessage());
                return;
            }
            inputIsString = false;
        }
        if (id == null) {
            System.err.println("urlwb-java-oracles: request without an integer id, ignored");
            return;
        }
        Answer answer;
        String crash = null;
        if (!inputIsString) {
            answer = new Answer.NotApplicable("request has no string \"input\"");
        } else {
            try {
                answer = oracle.answer(input, base, question);
            } catch (RuntimeException | StackOverflowError | ExceptionInInitializerError e) {
                answer = null;  // whatever the parser raised that it does not document
                crash = e.toString();
            }
        }
        String network = NetworkGuard.takeAttempt();
        if (network != null) {
            answer = null;
            crash = "network access attempted (blocked by the adapter): " + network;
        }
        json.writeStartObject();
        json.writeNumberField("id", id);
        if (answer != null) {
            answer.write(json);
        } else {
            json.writeStringField("crash", crash);
        }
        json.writeEndObject();
    }
}
