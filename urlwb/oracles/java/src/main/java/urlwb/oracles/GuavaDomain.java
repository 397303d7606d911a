package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;
import com.google.common.net.InternetDomainName;

import java.io.IOException;

/**
 * Guava's {@link InternetDomainName} as a host oracle (kind host), on its own bundled copy of the
 * Public Suffix List. Questions: {@code public-suffix} ({@code publicSuffix()}) and
 * {@code registrable-domain} ({@code topPrivateDomain()}, null where
 * {@code isUnderPublicSuffix()} is false: no public suffix, or the domain is one).
 * Rejection: {@link IllegalArgumentException} from {@code from} (not a valid domain name).
 *
 * <p>How Guava's names map onto the PSL algorithm the engine implements
 * (https://url.spec.whatwg.org/#host-public-suffix, both sections of the list): Guava's "public
 * suffix" is a rule of either section (ICANN and PRIVATE, so {@code blogspot.com}); its "registry
 * suffix" ({@code registrySuffix()}) is the ICANN section alone. So public-suffix is
 * {@code publicSuffix()} and registrable-domain {@code topPrivateDomain()}, not the registry
 * variants.
 *
 * <p>Quirks, not mapped (sent as Guava gives them): Guava has no implicit "*" rule, so a domain
 * under no listed suffix ({@code example.notatld}) has public suffix null where the algorithm
 * says {@code notatld}; {@code from} drops a trailing dot and lowercases.
 */
final class GuavaDomain implements Oracle {

    @Override
    public void hello(JsonGenerator json) throws IOException {
        json.writeStringField("parser", "com.google.common.net.InternetDomainName (publicSuffix, topPrivateDomain)");
        json.writeStringField("language", "Java");
        json.writeStringField("version", Versions.of(InternetDomainName.class, "guava") + " (bundled list)");
        json.writeStringField("family", "other");
        json.writeStringField("kind", "host");
        json.writeBooleanField("base", false);
        json.writeArrayFieldStart("questions");
        json.writeString("public-suffix");
        json.writeString("registrable-domain");
        json.writeEndArray();
    }

    @Override
    public Answer answer(String input, String base, String question) {
        if (!"public-suffix".equals(question) && !"registrable-domain".equals(question)) {
            return new Answer.NotApplicable("question not answered here: " + question);
        }
        InternetDomainName domain;
        try {
            domain = InternetDomainName.from(input);
        } catch (IllegalArgumentException e) {
            return new Answer.Rejected(e);
        }
        if (question.equals("public-suffix")) {
            InternetDomainName suffix = domain.publicSuffix();
            return new Answer.Value(suffix == null ? null : suffix.toString());
        }
        return new Answer.Value(domain.isUnderPublicSuffix() ? domain.topPrivateDomain().toString() : null);
    }
}
