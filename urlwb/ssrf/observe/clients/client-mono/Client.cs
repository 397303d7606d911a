// .NET's HttpWebRequest on Mono behind urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py):
// a hello line {"client":"dotnet-httpwebrequest","version"}; then for each line on stdin (a JSON
// string: the URL) one JSON line: {"ok":true,"status"} or {"ok":false,"error":TYPE,"message"}.
// WebRequest.Create(string) (System.Uri's parser), AllowAutoRedirect (its default, at most 50
// redirects), no proxy, 3 s timeouts. (HttpWebRequest, not HttpClient: the packaged Mono has no
// System.Net.Http without another package, and HttpClient's Mono handler is HttpWebRequest.)
// A failure that is not a WebException (what GetResponse documents for a failed exchange) or
// the UriFormatException/NotSupportedException WebRequest.Create documents is marked "unchecked".
using System;
using System.IO;
using System.Net;
using System.Text;

public static class Client {
  static string Quote(string s) {
    var b = new StringBuilder("\"");
    foreach (char c in s) {
      if (c == '"' || c == '\\') b.Append('\\').Append(c);
      else if (c < 0x20 || c > 0x7e) b.AppendFormat("\\u{0:x4}", (int)c);
      else b.Append(c);
    }
    return b.Append('"').ToString();
  }

  static string Unquote(string s) {
    s = s.Trim();
    if (s.Length < 2 || s[0] != '"' || s[s.Length - 1] != '"') throw new FormatException("not a JSON string");
    var b = new StringBuilder();
    for (int i = 1; i < s.Length - 1; i++) {
      char c = s[i];
      if (c != '\\') { b.Append(c); continue; }
      char e = s[++i];
      switch (e) {
        case 'n': b.Append('\n'); break;
        case 't': b.Append('\t'); break;
        case 'r': b.Append('\r'); break;
        case 'b': b.Append('\b'); break;
        case 'f': b.Append('\f'); break;
        case 'u': b.Append((char)Convert.ToInt32(s.Substring(i + 1, 4), 16)); i += 4; break;
        default: b.Append(e); break;
      }
    }
    return b.ToString();
  }

  public static void Main() {
    var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = true };
    var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
    var mono = Type.GetType("Mono.Runtime")?.GetMethod("GetDisplayName",
        System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)?.Invoke(null, null);
    stdout.WriteLine("{\"client\":\"dotnet-httpwebrequest\",\"version\":" + Quote("Mono " + (mono ?? Environment.Version)) + "}");
    string line;
    while ((line = stdin.ReadLine()) != null) {
      string url;
      try { url = Unquote(line); } catch (Exception) {
        stdout.WriteLine("{\"ok\":false,\"error\":\"bad-request\",\"message\":\"not a JSON string\"}");
        continue;
      }
      try {
        var req = (HttpWebRequest)WebRequest.Create(url);
        req.Proxy = null;
        req.Timeout = req.ReadWriteTimeout = 3000;
        req.AllowAutoRedirect = true;
        int status;
        try {
          using (var resp = (HttpWebResponse)req.GetResponse()) status = (int)resp.StatusCode;
        } catch (WebException we) when (we.Response is HttpWebResponse r) {
          status = (int)r.StatusCode;
        }
        stdout.WriteLine("{\"ok\":true,\"status\":" + status + "}");
      } catch (Exception e) {
        bool documented = e is WebException || e is UriFormatException || e is NotSupportedException;
        stdout.WriteLine("{\"ok\":false,\"error\":" + Quote(e.GetType().FullName) + ",\"message\":" + Quote(e.Message ?? "")
                         + (e.InnerException != null ? ",\"cause\":" + Quote(e.InnerException.GetType().FullName) : "")
                         + (documented ? "" : ",\"unchecked\":true") + "}");
      }
    }
  }
}
