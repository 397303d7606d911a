// The planted Maven artifact's one class: the host of http://USERINFO@HOST/ after the first '@'
// (the RULE resource "first", release 1.0) or after the last (release 2.0), read from its own jar.
package planted;

public class Host {
    public static final String VERSION;
    static final String RULE;
    static {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Host.class.getResourceAsStream("/planted/release.properties")) {
            p.load(in);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        VERSION = p.getProperty("version");
        RULE = p.getProperty("rule");
    }

    public static String host(String input) {
        String rest = input.contains("//") ? input.substring(input.indexOf("//") + 2) : input;
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        int at = RULE.equals("first") ? authority.indexOf('@') : authority.lastIndexOf('@');
        return authority.substring(at + 1);
    }
}
