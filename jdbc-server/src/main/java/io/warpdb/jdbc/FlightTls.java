package io.warpdb.jdbc;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Collections;

/**
 * The server's key and certificate chain from the keystore the Avatica server uses (PKCS12 or
 * JKS), in the PEM form that Flight's TLS (netty) takes.
 */
record FlightTls(byte[] certificateChain, byte[] privateKey) {
    static FlightTls fromKeystore(Path keystore, String password) {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(in, password.toCharArray());
            for (String alias : Collections.list(store.aliases())) {
                Key key = store.getKey(alias, password.toCharArray());
                if (key instanceof PrivateKey privateKey) {
                    StringBuilder chain = new StringBuilder();
                    for (Certificate c : store.getCertificateChain(alias)) {
                        chain.append(pem("CERTIFICATE", c.getEncoded()));
                    }
                    return new FlightTls(chain.toString().getBytes(StandardCharsets.US_ASCII),
                            pem("PRIVATE KEY", privateKey.getEncoded()).getBytes(StandardCharsets.US_ASCII));
                }
            }
            throw new IllegalArgumentException("the keystore " + keystore + " holds no private key");
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the keystore " + keystore + ": " + e.getMessage(), e);
        }
    }

    private static String pem(String kind, byte[] der) {
        return "-----BEGIN " + kind + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + kind + "-----\n";
    }

    InputStream certificateChainStream() {
        return new ByteArrayInputStream(certificateChain);
    }

    InputStream privateKeyStream() {
        return new ByteArrayInputStream(privateKey);
    }
}
