package io.warpdb.tpch;

import io.warpdb.core.error.SqlState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Loads the TPC-H tables into a WarpDB cluster through its coordinator's JDBC connection: each
 * table is created with a distribution and filled by one COPY of its dbgen {@code .tbl} file, which
 * the coordinator routes to the shards and commits atomically. The fact tables and their large
 * dimensions are hashed on their keys (lineitem with orders on the order key, so that their join is
 * co-located; partsupp with part on the part key); supplier (10,000 rows per scale factor, a 600th of
 * lineitem's), nation and region are replicated, so that the nine queries joining supplier join it
 * where their other rows lie instead of sending it to every node each time. Joins off those keys
 * (customer-orders, part-lineitem) move rows between the shards.
 */
public final class ClusterLoader {
    private static final Map<String, String> DISTRIBUTION = Map.of("lineitem", "hash(l_orderkey)", "orders", "hash(o_orderkey)",
            "partsupp", "hash(ps_partkey)", "part", "hash(p_partkey)", "customer", "hash(c_custkey)", "supplier", "replicated",
            "nation", "replicated", "region", "replicated");

    private ClusterLoader() {
    }

    /**
     * CREATE TABLE of {@code table} with its primary key (as one node's load declares it: the
     * planner's GROUP BY on a key alone, TPC-H Q10 and Q18, needs it) and its cluster distribution.
     */
    public static String createTable(TpchSchema.Table table) {
        String primaryKey = table.primaryKey().isEmpty() ? "" : ", PRIMARY KEY (" + String.join(", ", table.primaryKey()) + ")";
        return table.schema().fields().stream().map(f -> f.name() + " " + f.type().sqlName() + (f.type().nullable() ? "" : " NOT NULL"))
                .collect(Collectors.joining(", ", "CREATE TABLE " + table.name() + " (",
                        primaryKey + ") WITH (distribution = '" + DISTRIBUTION.get(table.name()) + "')"));
    }

    /**
     * Creates the tables of {@code tables} that {@code connection}'s database lacks and fills those
     * that are empty from the {@code .tbl} files in {@code tbl} (a path the coordinator can read);
     * returns the names loaded. A load is atomic, so a table is either empty or whole.
     */
    public static List<String> loadMissing(Connection connection, Path tbl, List<TpchSchema.Table> tables) throws SQLException {
        List<String> loaded = new ArrayList<>();
        try (Statement s = connection.createStatement()) {
            for (TpchSchema.Table table : tables) {
                long rows = rows(s, table.name());
                if (rows > 0) {
                    continue;
                }
                if (rows < 0) {
                    s.executeUpdate(createTable(table));
                }
                s.executeUpdate("COPY " + table.name() + " FROM '" + TblFiles.file(tbl, table).toAbsolutePath() + "'");
                loaded.add(table.name());
            }
        }
        return loaded;
    }

    /** The table's rows, or -1 when it does not exist. */
    private static long rows(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            if (SqlState.UNDEFINED_TABLE.code().equals(e.getSQLState())) {
                return -1;
            }
            throw e;
        }
    }
}
