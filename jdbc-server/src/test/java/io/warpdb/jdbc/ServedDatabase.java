package io.warpdb.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An in-memory database set up by some statements and served over the network, which tests reach
 * through each of {@link Drivers}. A connection is held open so that the in-memory database lives
 * until {@link #close}.
 */
record ServedDatabase(String database, Connection keeper, WarpServer server) implements AutoCloseable {
    static ServedDatabase start(String database, String... setup) throws SQLException {
        Connection keeper = DriverManager.getConnection("jdbc:warpdb:" + database);
        try (Statement s = keeper.createStatement()) {
            for (String sql : setup) {
                s.execute(sql);
            }
        }
        return new ServedDatabase(database, keeper, WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(database)));
    }

    /** A connection through {@code driver} (see {@link Drivers}). */
    Connection connect(String driver) throws SQLException {
        return Drivers.connect(driver, database, server);
    }

    @Override
    public void close() throws SQLException {
        server.close();
        keeper.close();
    }
}
