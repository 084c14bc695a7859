package io.warpdb.tpch;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Queries through a JDBC connection the caller owns: a remote WarpDB server or a cluster's coordinator. */
public record JdbcTarget(String name, Connection connection) implements QueryTarget {
    @Override
    public ResultTable query(String sql) {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return ResultTable.of(rs);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
