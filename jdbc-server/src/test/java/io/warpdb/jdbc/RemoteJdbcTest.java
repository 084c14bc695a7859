package io.warpdb.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;

/** The contract through the stock Avatica remote driver against a {@link WarpServer} on a free loopback port. */
class RemoteJdbcTest extends JdbcContractTest {
    private WarpServer server;

    @Override
    void openDatabase() {
        server = WarpServer.start("127.0.0.1", 0, Databases.MEMORY + "test-" + UUID.randomUUID());
    }

    @Override
    Connection newConnection(Properties properties) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), properties);
    }

    @Override
    boolean listsFunctions() {
        return false;
    }

    @Override
    boolean listsPrimaryKeys() {
        return false;
    }

    @Override
    void closeDatabase() {
        server.close();
    }
}
