package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server with authentication, TLS and a query log, through the stock Avatica remote driver. */
class SecureServerTest {
    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;
    private static Path users;
    private static Path keystore;

    @BeforeAll
    static void credentials() throws Exception {
        users = dir.resolve("users.properties");
        Files.writeString(users, "alice: secret," + ServerConfig.ROLE + "\nmallory: secret,other\n");
        keystore = dir.resolve("server.p12");
        TestKeystores.selfSigned(keystore, PASSWORD);
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withPort(0).withDatabase(Databases.MEMORY + "secure-" + UUID.randomUUID());
    }

    private static Properties login(String user, String password) {
        Properties p = new Properties();
        p.setProperty("avatica_user", user);
        p.setProperty("avatica_password", password);
        return p;
    }

    private static int selectOne(String url, Properties properties) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, properties); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1 + 1")) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }

    @Test
    void basicAuthenticationLetsInOnlyKnownUsersWithTheRole() throws SQLException {
        try (WarpServer server = WarpServer.start(config().withAuthentication(ServerConfig.Authentication.BASIC, users))) {
            assertTrue(server.jdbcUrl().contains(";authentication=BASIC"), server.jdbcUrl());
            assertEquals(2, selectOne(server.jdbcUrl(), login("alice", "secret")));
            assertEquals(2, selectOne(server.warpdbUrl(), login("alice", "secret")));
            for (Properties wrong : List.of(login("alice", "guess"), login("bob", "secret"), new Properties())) {
                SQLException e = assertThrows(SQLException.class, () -> selectOne(server.warpdbUrl(), wrong));
                assertEquals("28P01", e.getSQLState(), e.getMessage());
                assertTrue(e.getMessage().contains("refused the user name or password"), e.getMessage());
            }
            SQLException noRole = assertThrows(SQLException.class, () -> selectOne(server.warpdbUrl(), login("mallory", "secret")));
            assertEquals("28000", noRole.getSQLState(), noRole.getMessage());
        }
    }

    @Test
    void digestAuthentication() throws SQLException {
        try (WarpServer server = WarpServer.start(config().withAuthentication(ServerConfig.Authentication.DIGEST, users))) {
            assertEquals(2, selectOne(server.jdbcUrl(), login("alice", "secret")));
            assertEquals("28P01", assertThrows(SQLException.class, () -> selectOne(server.warpdbUrl(), login("alice", "guess")))
                    .getSQLState());
        }
    }

    @Test
    void tlsServesClientsThatTrustItsCertificateOnly() throws SQLException {
        try (WarpServer server = WarpServer.start(config().withTls(keystore, PASSWORD))) {
            assertTrue(server.jdbcUrl().contains("url=https://"), server.jdbcUrl());
            Properties trusting = new Properties();
            trusting.setProperty("truststore", keystore.toString());
            trusting.setProperty("truststore_password", PASSWORD);
            assertEquals(2, selectOne(server.jdbcUrl(), trusting));
            assertEquals(2, selectOne(server.warpdbUrl(), trusting));
            SQLException e = assertThrows(SQLException.class, () -> selectOne(server.warpdbUrl(), new Properties()),
                    "a client without the server's certificate in its trust store");
            assertEquals("08006", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("TLS handshake") && e.getMessage().contains("truststore="), e.getMessage());
        }
    }

    @Test
    void anUnreachableServerIsNamed() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(WarpDriver.PREFIX + "remote:http://127.0.0.1:1"));
        assertEquals("08001", e.getSQLState(), e.getMessage());
        SQLException malformed = assertThrows(SQLException.class, () -> DriverManager.getConnection(WarpDriver.PREFIX + "remote:localhost"));
        assertEquals("08001", malformed.getSQLState(), malformed.getMessage());
    }

    @Test
    void everyStatementIsLoggedWithItsDurationAndOutcome() throws Exception {
        Path log = dir.resolve("queries-" + UUID.randomUUID() + ".log");
        try (WarpServer server = WarpServer.start(config().withQueryLog(log))) {
            assertEquals(2, selectOne(server.jdbcUrl(), new Properties()));
            try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table"));
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches(".* connection=\\S+ [0-9.]+ ms ok SELECT 1 \\+ 1"), lines.get(0));
        assertTrue(lines.get(1).matches(".* [0-9.]+ ms 42P01 SELECT \\* FROM no_such_table"), lines.get(1));
    }

    @Test
    void serversStartWithTheConfiguredExecutor() throws SQLException {
        try (WarpServer server = WarpServer.start(config().withExecutor("cpu"));
                Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN SELECT 1")) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).endsWith("[cpu]"), rs.getString(1));
        }
    }

    @Test
    void configurationFilesAreCheckedKeyByKey() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "port = 9999\nmax-concurrent-queries = 3\nqueue-timeout-seconds = 7\nauth = basic\nusers = "
                + users.toString().replace("\\", "\\\\") + "\nexecutor = cpu\nname = analytics\n");
        ServerConfig c = ServerConfig.load(file, ServerConfig.defaults());
        assertEquals(9999, c.port());
        assertEquals(3, c.maxConcurrentQueries());
        assertEquals(Duration.ofSeconds(7), c.queueTimeout());
        assertEquals(ServerConfig.Authentication.BASIC, c.authentication());
        assertEquals("cpu", c.executor());
        assertEquals(Databases.MEMORY + "analytics", c.database());

        Files.writeString(file, "prot = 9999\n");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ServerConfig.load(file, ServerConfig.defaults()));
        assertTrue(unknown.getMessage().contains("server.properties: unknown setting(s) [prot]"), unknown.getMessage());
        Files.writeString(file, "port = eighty\n");
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.load(file, ServerConfig.defaults()));
        Files.writeString(file, "auth = digest\n");
        IllegalArgumentException noUsers = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.load(file, ServerConfig.defaults()));
        assertTrue(noUsers.getMessage().contains("needs a users file"), noUsers.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.load(dir.resolve("missing.properties"), ServerConfig.defaults()));
    }
}
