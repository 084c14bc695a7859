package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Keystores for the TLS tests, made with the JDK's keytool. */
final class TestKeystores {
    private TestKeystores() {
    }

    /** A PKCS12 keystore at {@code keystore} holding a self-signed key "warpdb" for localhost and 127.0.0.1. */
    static void selfSigned(Path keystore, String password) throws Exception {
        assertEquals(0, keytool("-genkeypair", "-alias", "warpdb", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore",
                keystore.toString(), "-storepass", password, "-keypass", password), "keytool made the test keystore");
    }

    /** Runs keytool with {@code args}; returns its exit code. */
    static int keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
