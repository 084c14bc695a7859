package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Arrow Flight SQL endpoint, through the stock Flight SQL JDBC driver and a plain Flight SQL client. */
class FlightSqlServerTest {
    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;
    private static Path users;
    private static Path keystore;
    /** The server's certificate alone: the Flight SQL JDBC driver reads trusted-certificate entries only. */
    private static Path truststore;

    @BeforeAll
    static void credentials() throws Exception {
        users = dir.resolve("users.properties");
        Files.writeString(users, "alice: secret," + ServerConfig.ROLE + "\n");
        keystore = dir.resolve("server.p12");
        TestKeystores.selfSigned(keystore, PASSWORD);
        Path certificate = dir.resolve("server.crt");
        truststore = dir.resolve("trust.p12");
        assertEquals(0, TestKeystores.keytool("-exportcert", "-alias", "warpdb", "-keystore", keystore.toString(), "-storepass", PASSWORD,
                "-rfc", "-file", certificate.toString()));
        assertEquals(0, TestKeystores.keytool("-importcert", "-noprompt", "-alias", "warpdb", "-file", certificate.toString(), "-storetype",
                "PKCS12", "-keystore", truststore.toString(), "-storepass", PASSWORD));
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withPort(0).withFlightPort(0).withDatabase(Databases.MEMORY + "flight-" + UUID.randomUUID());
    }

    private static Properties login(String user, String password) {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return p;
    }

    @Test
    void statementsPreparedStatementsAndMetadataThroughTheStockDriver() throws SQLException {
        try (WarpServer server = WarpServer.start(config());
                Connection c = DriverManager.getConnection(server.flightUrl(), new Properties());
                Statement s = c.createStatement()) {
            assertFalse(s.execute("CREATE TABLE t (id INTEGER, name VARCHAR(20), price DECIMAL(10,2), d DATE)"));
            assertEquals(3, s.executeUpdate("INSERT INTO t VALUES (1, 'one', 1.50, DATE '2024-01-02'), "
                    + "(2, 'two', NULL, NULL), (3, NULL, 3.25, DATE '2024-03-04')"));
            try (ResultSet rs = s.executeQuery("SELECT id, name, price, d FROM t ORDER BY id")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(Types.INTEGER, md.getColumnType(1));
                assertEquals(Types.VARCHAR, md.getColumnType(2));
                assertEquals(Types.DECIMAL, md.getColumnType(3));
                assertEquals(Types.DATE, md.getColumnType(4));
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getBigDecimal(3) + "|" + rs.getDate(4));
                }
                assertEquals(List.of("1|one|1.50|2024-01-02", "2|two|null|null", "3|null|3.25|2024-03-04"), rows);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT name FROM t WHERE id = ? AND price > ?")) {
                p.setInt(1, 3);
                p.setBigDecimal(2, new BigDecimal("1.00"));
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(null, rs.getString(1));
                    assertFalse(rs.next());
                }
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, name) VALUES (?, ?)")) {
                p.setInt(1, 4);
                p.setString(2, "four");
                assertEquals(1, p.executeUpdate());
            }
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM missing"));
            assertTrue(e.getMessage().contains("SQLSTATE 42P01"), e.getMessage());
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet tables = md.getTables(null, null, "t", null)) {
                assertTrue(tables.next());
                assertEquals("t", tables.getString("TABLE_NAME"));
            }
            try (ResultSet columns = md.getColumns(null, null, "t", null)) {
                List<String> names = new ArrayList<>();
                while (columns.next()) {
                    names.add(columns.getString("COLUMN_NAME"));
                }
                assertEquals(List.of("id", "name", "price", "d"), names);
            }
            assertFalse(s.execute("CREATE TABLE keyed (k2 INTEGER NOT NULL, v VARCHAR(4), k1 BIGINT NOT NULL, PRIMARY KEY (k1, k2))"));
            try (ResultSet keys = md.getPrimaryKeys(null, null, "keyed")) {
                List<String> rows = new ArrayList<>();
                while (keys.next()) {
                    rows.add(keys.getString("TABLE_NAME") + "." + keys.getString("COLUMN_NAME") + "#" + keys.getInt("KEY_SEQ"));
                }
                assertEquals(List.of("keyed.k1#1", "keyed.k2#2"), rows);
            }
            try (ResultSet keys = md.getPrimaryKeys(null, null, "t")) {
                assertFalse(keys.next(), "t declares no key");
            }
        }
    }

    /**
     * The server is closed right after its client read the last stream, while the stream's handler
     * may still be closing the batches it sent: closing waits for it, so no close reports a leak.
     */
    @Test
    void closingRightAfterTheLastStreamLeaksNothing() throws SQLException {
        for (int round = 0; round < 20; round++) {
            WarpServer server = WarpServer.start(config());
            try (Connection c = DriverManager.getConnection(server.flightUrl(), new Properties());
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT x, 'v' || CAST(x AS VARCHAR) FROM (VALUES (1), (2), (3)) AS t (x)")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                    assertEquals("v" + rs.getInt(1), rs.getString(2));
                }
                assertEquals(3, rows, "round " + round);
            } finally {
                server.close();
            }
        }
    }

    @Test
    void plainFlightClientReadsRecordBatchesAndIngests() throws Exception {
        try (WarpServer server = WarpServer.start(config());
                BufferAllocator allocator = new RootAllocator();
                FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                        Location.forGrpcInsecure("127.0.0.1", server.flightPort())).build())) {
            Schema schema = new Schema(List.of(new Field("k", FieldType.nullable(new ArrowType.Int(32, true)), null),
                    new Field("v", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
            try (VectorSchemaRoot rows = VectorSchemaRoot.create(schema, allocator)) {
                IntVector k = (IntVector) rows.getVector(0);
                VarCharVector v = (VarCharVector) rows.getVector(1);
                for (int i = 0; i < 1000; i++) {
                    k.setSafe(i, i);
                    v.setSafe(i, ("v" + (i % 7)).getBytes());
                }
                rows.setRowCount(1000);
                FlightSql.CommandStatementIngest.TableDefinitionOptions create = FlightSql.CommandStatementIngest
                        .TableDefinitionOptions.newBuilder()
                        .setIfNotExist(FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE)
                        .setIfExists(FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_APPEND)
                        .build();
                assertEquals(1000, client.executeIngest(rows, new FlightSqlClient.ExecuteIngestOptions("ingested", create, null, null,
                        java.util.Map.of())));
                assertEquals(1000, client.executeIngest(rows, new FlightSqlClient.ExecuteIngestOptions("ingested", create, null, null,
                        java.util.Map.of())), "appended");
                FlightSql.CommandStatementIngest.TableDefinitionOptions mustBeNew = create.toBuilder()
                        .setIfExists(FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_FAIL)
                        .build();
                FlightRuntimeException exists = assertThrows(FlightRuntimeException.class, () -> client.executeIngest(rows,
                        new FlightSqlClient.ExecuteIngestOptions("ingested", mustBeNew, null, null, java.util.Map.of())));
                assertTrue(exists.getMessage().contains("SQLSTATE 42P07"), exists.getMessage());
            }
            FlightInfo info = client.execute("SELECT v, COUNT(*) AS n, SUM(k) AS s FROM ingested GROUP BY v ORDER BY v");
            long total = 0;
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                assertEquals(ArrowType.Utf8.INSTANCE, stream.getSchema().getFields().get(0).getType());
                while (stream.next()) {
                    VectorSchemaRoot root = stream.getRoot();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        total += ((Number) root.getVector(1).getObject(i)).longValue();
                    }
                }
            }
            assertEquals(2000, total);
        }
    }

    @Test
    void stringsTravelAsArrowDictionariesReplacedWhereTheSegmentChanges() throws Exception {
        try (WarpServer server = WarpServer.start(config());
                BufferAllocator allocator = new RootAllocator();
                FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                        Location.forGrpcInsecure("127.0.0.1", server.flightPort())).build())) {
            assertEquals(0, client.executeUpdate("CREATE TABLE s (k INTEGER, v VARCHAR(10), price DECIMAL(14,2))"));
            // Two inserts, two segments, each with a dictionary of its own.
            assertEquals(3, client.executeUpdate("INSERT INTO s VALUES (1, 'x', 1.25), (2, 'y', -2.50), (3, NULL, NULL)"));
            assertEquals(3, client.executeUpdate("INSERT INTO s VALUES (4, 'z', 12345678901.99), (5, 'x', 0), (6, 'w', -0.01)"));
            FlightCallHeaders headers = new FlightCallHeaders();
            headers.insert(FlightStrings.HEADER, "dictionary");
            HeaderCallOption dictionaries = new HeaderCallOption(headers);
            FlightInfo info = client.execute("SELECT k, v, price FROM s", dictionaries);
            assertEquals(ArrowType.Utf8.INSTANCE, info.getSchemaOptional().orElseThrow().getFields().get(1).getType());
            assertTrue(info.getSchemaOptional().orElseThrow().getFields().get(1).getDictionary() != null);
            List<String> rows = new ArrayList<>();
            Set<String> dictionariesSeen = new HashSet<>();
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket(), dictionaries)) {
                Field v = stream.getSchema().getFields().get(1);
                assertEquals(new ArrowType.Int(32, true), v.getType(), "the codes");
                while (stream.next()) {
                    VectorSchemaRoot root = stream.getRoot();
                    VarCharVector entries = (VarCharVector) stream.getDictionaryProvider().lookup(v.getDictionary().getId()).getVector();
                    IntVector codes = (IntVector) root.getVector(1);
                    DecimalVector price = (DecimalVector) root.getVector(2);
                    List<Object> entryList = new ArrayList<>();
                    for (int i = 0; i < entries.getValueCount(); i++) {
                        entryList.add(entries.getObject(i));
                    }
                    dictionariesSeen.add(entryList.toString());
                    for (int i = 0; i < root.getRowCount(); i++) {
                        rows.add(root.getVector(0).getObject(i) + "|" + (codes.isNull(i) ? null : entries.getObject(codes.get(i)))
                                + "|" + price.getObject(i));
                    }
                }
            }
            rows.sort(null);
            assertEquals(2, dictionariesSeen.size(), "the second segment's dictionary replaced the first's: " + dictionariesSeen);
            assertEquals(List.of("1|x|1.25", "2|y|-2.50", "3|null|null", "4|z|12345678901.99", "5|x|0.00", "6|w|-0.01"), rows);
            // One row of a segment whose dictionary has two entries: its values cost less than the dictionary.
            FlightInfo one = client.execute("SELECT v FROM s WHERE k = 1", dictionaries);
            assertEquals(null, one.getSchemaOptional().orElseThrow().getFields().get(0).getDictionary());
            try (FlightStream stream = client.getStream(one.getEndpoints().get(0).getTicket(), dictionaries)) {
                assertTrue(stream.next());
                assertEquals("x", stream.getRoot().getVector(0).getObject(0).toString());
            }
            FlightCallHeaders wrong = new FlightCallHeaders();
            wrong.insert(FlightStrings.HEADER, "latin1");
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class,
                    () -> client.execute("SELECT v FROM s", new HeaderCallOption(wrong)));
            assertTrue(e.getMessage().contains("must be dictionary or utf8"), e.getMessage());
        }
    }

    @Test
    void ingestDecodesDictionaryEncodedColumns() throws Exception {
        try (WarpServer server = WarpServer.start(config());
                BufferAllocator allocator = new RootAllocator();
                FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.flightPort())).build();
                FlightSqlClient client = new FlightSqlClient(flight)) {
            // As pyarrow and ADBC send categorical columns, and WarpDB's own results strings.
            DictionaryEncoding encoding = new DictionaryEncoding(7, false, new ArrowType.Int(32, true));
            Schema schema = new Schema(List.of(new Field("k", FieldType.nullable(new ArrowType.Int(32, true)), null),
                    new Field("v", new FieldType(true, new ArrowType.Int(32, true), encoding), null)));
            try (VarCharVector entries = new VarCharVector("v", allocator);
                    VectorSchemaRoot rows = VectorSchemaRoot.create(schema, allocator)) {
                entries.setSafe(0, "red".getBytes());
                entries.setSafe(1, "blue".getBytes());
                entries.setValueCount(2);
                IntVector k = (IntVector) rows.getVector(0);
                IntVector codes = (IntVector) rows.getVector(1);
                for (int i = 0; i < 3; i++) {
                    k.setSafe(i, i);
                }
                codes.setSafe(0, 1);
                codes.setSafe(1, 0);
                codes.setNull(2);
                rows.setRowCount(3);
                FlightSql.CommandStatementIngest command = FlightSql.CommandStatementIngest.newBuilder().setTable("colours")
                        .setTableDefinitionOptions(FlightSql.CommandStatementIngest.TableDefinitionOptions.newBuilder()
                                .setIfNotExist(FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption
                                        .TABLE_NOT_EXIST_OPTION_CREATE))
                        .build();
                SyncPutListener written = new SyncPutListener();
                FlightClient.ClientStreamListener put = flight.startPut(FlightDescriptor.command(Any.pack(command).toByteArray()), rows,
                        new DictionaryProvider.MapDictionaryProvider(new Dictionary(entries, encoding)), written);
                put.putNext();
                put.completed();
                put.getResult();
                try (PutResult count = written.read()) {
                    assertEquals(3, FlightSql.DoPutUpdateResult.parseFrom(count.getApplicationMetadata().nioBuffer()).getRecordCount());
                }
            }
            FlightInfo info = client.execute("SELECT k, v FROM colours ORDER BY k");
            List<String> read = new ArrayList<>();
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                    for (int i = 0; i < stream.getRoot().getRowCount(); i++) {
                        read.add(stream.getRoot().getVector(0).getObject(i) + "|" + stream.getRoot().getVector(1).getObject(i));
                    }
                }
            }
            assertEquals(List.of("0|blue", "1|red", "2|null"), read);
        }
    }

    @Test
    void wrongPasswordIsRefusedClearly() throws SQLException {
        ServerConfig config = config().withAuthentication(ServerConfig.Authentication.BASIC, users);
        try (WarpServer server = WarpServer.start(config)) {
            try (Connection c = DriverManager.getConnection(server.flightUrl(), login("alice", "secret"));
                    Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1 + 1")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
            SQLException e = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(server.flightUrl(), login("alice", "guess")).close());
            assertTrue(e.getMessage().contains("user name or password not accepted") && e.getMessage().contains("28P01"),
                    e.getMessage());
        }
    }

    @Test
    void tlsWithTheServersCertificateTrustedAndUntrusted() throws SQLException {
        try (WarpServer server = WarpServer.start(config().withTls(keystore, PASSWORD))) {
            assertTrue(server.flightUrl().contains("useEncryption=true"), server.flightUrl());
            Properties trusted = new Properties();
            trusted.setProperty("trustStore", truststore.toString());
            trusted.setProperty("trustStorePassword", PASSWORD);
            trusted.setProperty("useSystemTrustStore", "false");
            try (Connection c = DriverManager.getConnection(server.flightUrl(), trusted);
                    Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 40 + 2")) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1));
            }
            // The stock driver says "io exception" first; its causes say why.
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = DriverManager.getConnection(server.flightUrl(), new Properties());
                        Statement s = c.createStatement()) {
                    s.executeQuery("SELECT 1").close();
                }
            });
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(t.getMessage()).append('\n');
            }
            assertTrue(chain.toString().contains("unable to find valid certification path"), chain.toString());
        }
    }
}
