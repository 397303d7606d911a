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
                // Maven's copy of a jar is build/lib/<artifactId>-<version>.jar: the artifact it
                // came as (okhttp before 5, okhttp-jvm from 5), and the version where the jar
                // names it nowhere inside (OkHttp 4)
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(.+?)-(\\d[^/]*)\\.jar").matcher(file.getName());
                String label = m.matches() ? m.group(1) : artifactId;
                return label + " " + (v != null ? v : m.matches() ? m.group(2) : "?");
            }
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return artifactId + " ? (" + e + ")";
        }
    }
}
