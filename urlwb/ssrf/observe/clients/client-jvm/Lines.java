import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py) for the JVM clients: JSON
 *  strings in, one JSON line out per URL. A failure that is not an IOException (what both
 *  HttpClient.send and Call.execute document for a failed exchange) is marked "unchecked". */
final class Lines {
  interface Fetch { int get(String url) throws Exception; }

  static void serve(String name, String version, Fetch fetch) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("{\"client\":" + quote(name) + ",\"version\":" + quote(version) + "}");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String url;
      try {
        url = unquote(line.trim());
      } catch (RuntimeException e) {
        out.println("{\"ok\":false,\"error\":\"bad-request\",\"message\":\"not a JSON string\"}");
        continue;
      }
      try {
        out.println("{\"ok\":true,\"status\":" + fetch.get(url) + "}");
      } catch (Throwable e) {  // every failure is an answer: its class is the observation
        Throwable c = e.getCause();
        boolean unchecked = !(e instanceof java.io.IOException || e instanceof InterruptedException);
        out.println("{\"ok\":false,\"error\":" + quote(e.getClass().getName()) + ",\"message\":"
            + quote(String.valueOf(e.getMessage())) + (c == null ? "" : ",\"cause\":" + quote(c.getClass().getName()))
            + (unchecked ? ",\"unchecked\":true" : "") + "}");
      }
    }
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String unquote(String s) {
    if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') throw new IllegalArgumentException();
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < s.length() - 1; i++) {
      char c = s.charAt(i);
      if (c != '\\') { b.append(c); continue; }
      char e = s.charAt(++i);
      switch (e) {
        case 'n': b.append('\n'); break;
        case 't': b.append('\t'); break;
        case 'r': b.append('\r'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u': b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; break;
        default: b.append(e);
      }
    }
    return b.toString();
  }
}
