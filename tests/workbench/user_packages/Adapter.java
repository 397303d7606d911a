// A user's Maven adapter (java Adapter.java): the planted artifact's planted.Host behind the
// oracle protocol. planted.Host is found only on CLASSPATH, which NAME@VERSION sets to the release.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Adapter {
    static String quote(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder().append('"');
        s.chars().forEach(c -> b.append(c == '"' || c == '\\' ? "\\" + (char) c
            : c < 0x20 ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return b.append('"').toString();
    }

    static String unquote(String s) {   // a JSON string's body
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
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

    public static void main(String[] args) throws Exception {
        System.out.println("{\"hello\":\"urlwb-oracle/1\",\"name\":\"planted-jvm\",\"parser\":\"planted.Host\","
            + "\"language\":\"Java\",\"version\":" + quote(planted.Host.VERSION) + ",\"family\":\"other\",\"kind\":\"url\",\"base\":false}");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Pattern id = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");
        Pattern input = Pattern.compile("\"input\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
        for (String line; (line = in.readLine()) != null; ) {
            Matcher m = id.matcher(line), n = input.matcher(line);
            if (!m.find() || !n.find()) continue;
            String s = unquote(n.group(1));
            System.out.println("{\"id\":" + m.group(1) + ",\"scheme\":" + quote(s.split(":")[0]) + ",\"username\":null,\"password\":null,\"host\":"
                + quote(planted.Host.host(s)) + ",\"port\":null,\"path\":\"\",\"query\":null,\"fragment\":null,\"href\":" + quote(s) + "}");
        }
    }
}
