package urlwb.oracles;

import com.fasterxml.jackson.core.JsonGenerator;

import okhttp3.HttpUrl;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * OkHttp's {@link HttpUrl} (http and https only): {@code HttpUrl.get(input)} (the throwing form of
 * {@code HttpUrl.parse}/{@code toHttpUrlOrNull}, for its message), with a base
 * {@code HttpUrl.get(base).resolve(input)}, which returns null rather than a message on failure.
 * Rejection: {@link IllegalArgumentException} (documented by {@code get}).
 *
 * <p>Quirks, mapped here: the encoded getters ({@code encodedUsername}, {@code encodedPath}, ...;
 * the others decode). {@code host()} strips an IPv6 address's brackets: put back. {@code port()}
 * is never absent (it reports the scheme's default): a port equal to the default is sent as null,
 * so an explicit {@code :80} cannot be told from none (the Standard drops it too). Username and
 * password are "" when absent, as in the Standard.
 *
 * <p>One source for every OkHttp from 3.0 ({@code urlwb bisect okhttp}): {@code HttpUrl.get(String)}
 * is looked up by name; OkHttp before 3.11 has none, only {@code HttpUrl.parse}, which returns null
 * (no message) on rejection.
 */
final class OkHttp implements Oracle {

    /** HttpUrl.get(String) (OkHttp 3.11 on), or null */
    private static final Method GET = lookUpGet();

    private static Method lookUpGet() {
        try {
            return HttpUrl.class.getMethod("get", String.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @Override
    public void hello(JsonGenerator json) throws IOException {
        Oracle.helloUrl(json, "okhttp3.HttpUrl (HttpUrl.get, resolve)", Versions.of(HttpUrl.class, "okhttp-jvm"),
                "other", true);
    }

    @Override
    public Answer answer(String input, String base, String question) {
        HttpUrl url;
        if (base == null) {
            if (GET == null) {
                url = HttpUrl.parse(input);
                if (url == null) {
                    return new Answer.Rejected("HttpUrl.parse returned null");
                }
            } else {
                try {
                    url = (HttpUrl) GET.invoke(null, input);
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof IllegalArgumentException rejected) {
                        return new Answer.Rejected(rejected);
                    }
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        } else {
            HttpUrl b = HttpUrl.parse(base);
            if (b == null) {
                return new Answer.Rejected("base: HttpUrl.parse returned null");
            }
            url = b.resolve(input);
            if (url == null) {
                return new Answer.Rejected("HttpUrl.resolve returned null");
            }
        }
        int port = url.port();
        return new Components(url.scheme(), url.encodedUsername(), url.encodedPassword(),
                Components.bracketed(url.host()), port == HttpUrl.defaultPort(url.scheme()) ? null : port,
                url.encodedPath(), url.encodedQuery(), url.encodedFragment(), url.toString());
    }
}
