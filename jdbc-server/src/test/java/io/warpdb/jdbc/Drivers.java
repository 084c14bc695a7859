package io.warpdb.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The three ways a test reaches one database: in process, through WarpDB's remote driver, through the stock Avatica driver. */
final class Drivers {
    static final String EMBEDDED = "embedded";
    static final String WARPDB_REMOTE = "warpdb-remote";
    static final String AVATICA_REMOTE = "avatica-remote";

    private Drivers() {
    }

    /** A connection to {@code database} ({@code mem:name} or a path) through {@code driver}, remote ones via {@code server}. */
    static Connection connect(String driver, String database, WarpServer server) throws SQLException {
        return DriverManager.getConnection(switch (driver) {
            case EMBEDDED -> "jdbc:warpdb:" + database;
            case WARPDB_REMOTE -> server.warpdbUrl();
            case AVATICA_REMOTE -> server.jdbcUrl();
            default -> throw new IllegalArgumentException("no driver " + driver);
        });
    }
}
