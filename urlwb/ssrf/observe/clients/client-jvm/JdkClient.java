import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** java.net.http.HttpClient behind urlwb ssrf's client protocol: the URL through URI.create (as
 *  HttpRequest.newBuilder(URI) takes it), redirects ALWAYS followed (NORMAL would refuse an
 *  https-to-http one), no proxy, 3 s timeouts. */
public final class JdkClient {
  public static void main(String[] args) throws Exception {
    HttpClient c = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS)
        .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(3)).build();
    Lines.serve("java-httpclient", System.getProperty("java.version"), url -> {
      HttpRequest r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build();
      return c.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    });
  }
}
