import java.net.Proxy;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** OkHttp's Call behind urlwb ssrf's client protocol: new Request.Builder().url(String) (OkHttp's
 *  own HttpUrl parser), its defaults (redirects followed, at most 20), no proxy, 3 s timeouts. */
public final class OkClient {
  public static void main(String[] args) throws Exception {
    OkHttpClient c = new OkHttpClient.Builder().proxy(Proxy.NO_PROXY).callTimeout(3, TimeUnit.SECONDS).build();
    Lines.serve("okhttp-call", okhttp3.OkHttp.VERSION, url -> {
      try (Response r = c.newCall(new Request.Builder().url(url).build()).execute()) {
        return r.code();
      }
    });
  }
}
