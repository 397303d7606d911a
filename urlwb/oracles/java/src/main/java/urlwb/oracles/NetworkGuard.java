package urlwb.oracles;

/**
 * Keeps the parsers off the network: no parser here should resolve a name or open a socket (the
 * known trap is {@code java.net.URL}'s {@code equals} and {@code hashCode}, which resolve the host;
 * the adapters never call them). Installed as a security manager that allows everything but
 * {@code checkConnect} (name resolution and connections), which it refuses and records, so that
 * the request during which it happened is answered {@code crash}. {@code URLStreamHandler}
 * swallows the refusal inside {@code hashCode}, hence the record and not only the exception.
 *
 * <p>Java 17 to 23 allow this with {@code -Djava.security.manager=allow} (the manifest's command
 * passes it); a runtime without security managers logs that the guard is off and goes on.
 *
 * <p>{@code java -cp build/urlwb-java-oracles.jar urlwb.oracles.NetworkGuard} checks the guard
 * itself: it calls {@code URL.hashCode()} on a URL and exits 0 only if the lookup was caught.
 */
@SuppressWarnings("removal")
public final class NetworkGuard extends SecurityManager {

    private static volatile String attempt;

    private NetworkGuard() {
    }

    static void install() {
        try {
            System.setSecurityManager(new NetworkGuard());
        } catch (UnsupportedOperationException | SecurityException e) {
            System.err.println("urlwb-java-oracles: network guard not installed: " + e);
        }
    }

    /** The host (and port) of the first blocked attempt since the last call, or null. */
    static String takeAttempt() {
        String a = attempt;
        if (a != null) {
            attempt = null;
        }
        return a;
    }

    @Override
    public void checkPermission(java.security.Permission perm) {
        // everything else is allowed
    }

    @Override
    public void checkPermission(java.security.Permission perm, Object context) {
        // everything else is allowed
    }

    @Override
    public void checkConnect(String host, int port) {
        String what = port < 0 ? host + " (name lookup)" : host + ":" + port;
        if (attempt == null) {
            attempt = what;
        }
        throw new SecurityException("urlwb: network access blocked: " + what);
    }

    @Override
    public void checkConnect(String host, int port, Object context) {
        checkConnect(host, port);
    }

    public static void main(String[] args) throws Exception {
        install();
        int hash = new java.net.URL("http://urlwb-guard-check.invalid/").hashCode();
        String a = takeAttempt();
        System.out.println(a != null ? "blocked: " + a : "NOT blocked (hashCode " + hash + ")");
        System.exit(a != null ? 0 : 1);
    }
}
