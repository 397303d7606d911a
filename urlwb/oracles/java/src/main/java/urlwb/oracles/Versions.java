package urlwb.oracles;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** Exact versions for the hello lines, read from the jars themselves (never a constant here). */
final class Versions {

    private Versions() {
    }

    /** The JDK's, for the parsers built into it. */
    static String jdk() {
        return "Java " + System.getProperty("java.runtime.version");
    }

    /**
     * The version of the Maven artifact {@code artifactId} whose jar holds {@code cls}: its
     * {@code META-INF/maven/.../artifactId/pom.properties}, else the manifest's
     * {@code Implementation-Version}, else its {@code Bundle-Version} (OSGi), else the jar's file name
     * ({@code okhttp-4.9.0.jar}: artifact and version), else "?".
     */
    static String of(Class<?> cls, String artifactId) {
        try {
            File file = new File(cls.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (JarFile jar = new JarFile(file)) {
                for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                    if (e.getName().startsWith("META-INF/maven/")
                            && e.getName().endsWith("/" + artifactId + "/pom.properties")) {
                        Properties p = new Properties();
                        try (InputStream in = jar.getInputStream(e)) {
                            p.load(in);
                        }
                        return artifactId + " " + p.getProperty("version");
                    }
                }
                Attributes main = jar.getManifest() != null ? jar.getManifest().getMainAttributes() : new Attributes();
                String v = main.getValue("Implementation-Version");
                v = v != null ? v : main.getValue("Bundle-Version");
                if (v != null) {
                    return artifactId + " " + v;
                }
                // A jar that names its version nowhere inside (OkHttp 4's): Maven's copy of it is
                // build/lib/<artifactId>-<version>.jar
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(.+?)-(\\d[^/]*)\\.jar").matcher(file.getName());
                return m.matches() ? m.group(1) + " " + m.group(2) : artifactId + " ?";
            }
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return artifactId + " ? (" + e + ")";
        }
    }
}
