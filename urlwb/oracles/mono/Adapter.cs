// System.Uri on Mono behind the workbench's oracle protocol (docs/oracle-protocol.md, urlwb-oracle/1):
// one JSON request per line on stdin, one JSON answer per line on stdout, in the same order.
//
// Without a base: Uri.TryCreate(input, UriKind.Absolute) (new Uri(input, UriKind.Absolute));
// with one: Uri.TryCreate(baseUri, input) (new Uri(baseUri, input)), the base itself parsed the
// first way. TryCreate returning false is the parser's rejection; the message is the one the
// constructor's documented UriFormatException gives for the same arguments. Anything else thrown
// is a crash.
//
// C# strings are UTF-16 and hold lone surrogates: they reach the parser as sent (the protocol asks
// this of JavaScript, Java and C# adapters; Uri's own handling is what is under test).

using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;

static class Adapter
{
    static readonly StreamWriter Out = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 16);

    static void Main()
    {
        Answer(new List<KeyValuePair<string, object>> {
            Field("hello", "urlwb-oracle/1"), Field("name", "dotnet-system-uri"),
            Field("parser", "System.Uri (Uri.TryCreate absolute; with a base, Uri.TryCreate(baseUri, input))"),
            Field("language", "C#"), Field("version", Version()), Field("family", "other"),
            Field("kind", "url"), Field("base", true),
        });
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false), false, 1 << 16);
        string line;
        while ((line = stdin.ReadLine()) != null) {
            if (line.Trim().Length == 0) continue;
            Dictionary<string, object> request;
            try {
                request = Json.ReadObject(line);
            } catch (FormatException e) {
                Console.Error.WriteLine("not a request: " + e.Message);
                continue;
            }
            var answer = new List<KeyValuePair<string, object>> { Field("id", request["id"]) };
            try {
                answer.AddRange(Parse((string)request["input"], request.ContainsKey("base") ? (string)request["base"] : null));
            } catch (Exception e) {
                answer.Add(Field("crash", e.GetType().Name + ": " + e.Message));
            }
            Answer(answer);
        }
    }

    // The runtime's own version, from Mono.Runtime.GetDisplayName() (internal, so through
    // reflection): "6.8.0.105 (Debian 6.8.0.105+dfsg-3.3+deb12u1 Sat Jun 21 ...)" gives
    // "Mono 6.8.0.105 (Debian 6.8.0.105+dfsg-3.3+deb12u1)", without the build date. System.dll's
    // assembly version (4.0.0.0, where Uri lives) is the same in every Mono and says nothing.
    static string Version()
    {
        var runtime = Type.GetType("Mono.Runtime");
        var display = runtime == null ? null : runtime.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static);
        if (display == null) return "Mono ? (.NET " + Environment.Version + ")";
        string[] words = ((string)display.Invoke(null, null)).Split(' ');
        return "Mono " + words[0] + (words.Length > 2 && words[1] == "(Debian" ? " (Debian " + words[2].TrimEnd(')') + ")" : "");
    }

    static List<KeyValuePair<string, object>> Parse(string input, string baseUrl)
    {
        Uri uri = null, baseUri = null;
        bool ok = baseUrl == null
            ? Uri.TryCreate(input, UriKind.Absolute, out uri)
            : Uri.TryCreate(baseUrl, UriKind.Absolute, out baseUri) && Uri.TryCreate(baseUri, input, out uri);
        if (!ok) return new List<KeyValuePair<string, object>> { Field("error", Rejection(input, baseUrl, baseUri)) };
        return Components(uri);
    }

    // TryCreate says no message: the constructor's UriFormatException for the same arguments.
    static string Rejection(string input, string baseUrl, Uri baseUri)
    {
        try {
            if (baseUrl == null) new Uri(input, UriKind.Absolute);
            else if (baseUri == null) new Uri(baseUrl, UriKind.Absolute);
            else new Uri(baseUri, input);
        } catch (UriFormatException e) {
            return (baseUrl != null && baseUri == null ? "base: " : "") + e.Message;
        }
        return "Uri.TryCreate returned false (the constructor accepted it)";
    }

    // Quirks, normalized here and nowhere else (listed in oracles.toml):
    // - UserInfo is "" both with no userinfo and with an empty one ("http://@h/"): sent as username
    //   "" with password null, what Uri has; otherwise split at the first ':' (Uri has no
    //   separate user and password).
    // - Port is the scheme's default when none was written, and IsDefaultPort cannot tell it from a
    //   written default port: null when IsDefaultPort (so "http://h:80/" reads null too, as in the
    //   Standard for special schemes); -1 (a scheme Uri knows no port for) is null.
    // - Query and Fragment keep their "?" and "#" ("" when absent): stripped, "" absent -> null.
    // - Host is Uri.Host: IPv6 already in brackets. href is AbsoluteUri, the parser's own
    //   canonical serialization (OriginalString is only the input again).
    static List<KeyValuePair<string, object>> Components(Uri uri)
    {
        string userInfo = uri.UserInfo;
        int colon = userInfo.IndexOf(':');
        return new List<KeyValuePair<string, object>> {
            Field("scheme", uri.Scheme),
            Field("username", colon < 0 ? userInfo : userInfo.Substring(0, colon)),
            Field("password", colon < 0 ? null : userInfo.Substring(colon + 1)),
            Field("host", uri.Host),
            Field("port", uri.IsDefaultPort || uri.Port < 0 ? (object)null : uri.Port),
            Field("path", uri.AbsolutePath),
            Field("query", uri.Query.Length == 0 ? null : uri.Query.Substring(1)),
            Field("fragment", uri.Fragment.Length == 0 ? null : uri.Fragment.Substring(1)),
            Field("href", uri.AbsoluteUri),
            Field("raw", new List<KeyValuePair<string, object>> {
                Field("host_name_type", uri.HostNameType.ToString()), Field("port", uri.Port),
            }),
        };
    }

    static KeyValuePair<string, object> Field(string name, object value)
    {
        return new KeyValuePair<string, object>(name, value);
    }

    static void Answer(List<KeyValuePair<string, object>> fields)
    {
        var sb = new StringBuilder();
        Json.Write(sb, fields);
        sb.Append('\n');
        Out.Write(sb.ToString());
        Out.Flush();
    }
}

// The JSON the protocol needs, and no more: reading one object of strings, integers, null and
// booleans (nested values are read and dropped); writing strings, integers, booleans, null and
// nested field lists. Strings keep lone surrogates in both directions.
static class Json
{
    public static Dictionary<string, object> ReadObject(string s)
    {
        int i = 0;
        var value = ReadValue(s, ref i) as Dictionary<string, object>;
        if (value == null) throw new FormatException("not an object");
        return value;
    }

    static void SkipSpace(string s, ref int i)
    {
        while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    }

    static void Expect(string s, ref int i, char c)
    {
        SkipSpace(s, ref i);
        if (i >= s.Length || s[i] != c) throw new FormatException("expected '" + c + "' at " + i);
        i++;
    }

    static object ReadValue(string s, ref int i)
    {
        SkipSpace(s, ref i);
        if (i >= s.Length) throw new FormatException("unexpected end");
        char c = s[i];
        if (c == '"') return ReadString(s, ref i);
        if (c == '{') {
            var obj = new Dictionary<string, object>();
            i++;
            SkipSpace(s, ref i);
            if (i < s.Length && s[i] == '}') { i++; return obj; }
            while (true) {
                SkipSpace(s, ref i);
                if (i >= s.Length || s[i] != '"') throw new FormatException("expected a key at " + i);
                string key = ReadString(s, ref i);
                Expect(s, ref i, ':');
                obj[key] = ReadValue(s, ref i);
                SkipSpace(s, ref i);
                if (i < s.Length && s[i] == ',') { i++; continue; }
                Expect(s, ref i, '}');
                return obj;
            }
        }
        if (c == '[') {
            i++;
            SkipSpace(s, ref i);
            if (i < s.Length && s[i] == ']') { i++; return null; }
            while (true) {
                ReadValue(s, ref i);
                SkipSpace(s, ref i);
                if (i < s.Length && s[i] == ',') { i++; continue; }
                Expect(s, ref i, ']');
                return null;
            }
        }
        int start = i;
        while (i < s.Length && "-+.0123456789eEtruefalsn".IndexOf(s[i]) >= 0) i++;
        string word = s.Substring(start, i - start);
        if (word == "null") return null;
        if (word == "true") return true;
        if (word == "false") return false;
        long n;
        if (long.TryParse(word, out n)) return n;
        double d;
        if (double.TryParse(word, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out d)) return d;
        throw new FormatException("bad value at " + start);
    }

    static string ReadString(string s, ref int i)
    {
        i++; // the opening quote
        var sb = new StringBuilder();
        while (true) {
            if (i >= s.Length) throw new FormatException("unterminated string");
            char c = s[i++];
            if (c == '"') return sb.ToString();
            if (c != '\\') { sb.Append(c); continue; }
            if (i >= s.Length) throw new FormatException("unterminated escape");
            char e = s[i++];
            switch (e) {
            case 'b': sb.Append('\b'); break;
            case 'f': sb.Append('\f'); break;
            case 'n': sb.Append('\n'); break;
            case 'r': sb.Append('\r'); break;
            case 't': sb.Append('\t'); break;
            case 'u':
                if (i + 4 > s.Length) throw new FormatException("short \\u escape");
                sb.Append((char)Convert.ToUInt16(s.Substring(i, 4), 16)); // a lone surrogate stays one
                i += 4;
                break;
            default: sb.Append(e); break; // \" \\ \/
            }
        }
    }

    public static void Write(StringBuilder sb, object value)
    {
        if (value == null) sb.Append("null");
        else if (value is string) WriteString(sb, (string)value);
        else if (value is bool) sb.Append((bool)value ? "true" : "false");
        else if (value is int || value is long) sb.Append(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture));
        else if (value is double) sb.Append(((double)value).ToString("R", System.Globalization.CultureInfo.InvariantCulture));
        else {
            sb.Append('{');
            bool first = true;
            foreach (var kv in (List<KeyValuePair<string, object>>)value) {
                if (!first) sb.Append(',');
                first = false;
                WriteString(sb, kv.Key);
                sb.Append(':');
                Write(sb, kv.Value);
            }
            sb.Append('}');
        }
    }

    // Everything outside printable ASCII as \uXXXX, one escape per UTF-16 unit, so lone
    // surrogates come back as they are.
    static void WriteString(StringBuilder sb, string s)
    {
        sb.Append('"');
        foreach (char c in s) {
            if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < 0x20 || c >= 0x7f) sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        sb.Append('"');
    }
}
