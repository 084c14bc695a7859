package io.warpdb.tpch;

import io.trino.tpch.TpchTable;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * The eight TPC-H tables with the spec's column types (TPC-H 2.18, clause 1.4): identifiers
 * INTEGER, except the order keys, which are BIGINT because they pass 2^31 from SF 358 on; money
 * and quantities DECIMAL(15,2); fixed text CHAR(n); variable text VARCHAR(n); dates DATE. Every
 * column is NOT NULL. Column order is the spec's, which is also the generator's. Each table
 * declares the spec's primary key (clause 1.4.2.2), which the planner relies on.
 */
public final class TpchSchema {
    /**
     * One table: its WarpDB schema, primary key, the generator of its rows and how many rows it has
     * at SF 1 (only used to split the work; lineitem's count is the spec's approximation).
     */
    public record Table(String name, Schema schema, List<String> primaryKey, TpchTable<?> generator, long rowsAtSf1,
            boolean scales) {
        /** About how many rows the table has at this scale factor. */
        public long estimatedRows(double scaleFactor) {
            return scales ? Math.max(1, (long) (rowsAtSf1 * scaleFactor)) : rowsAtSf1;
        }
    }

    public static final Table LINEITEM = scaled("lineitem", List.of("l_orderkey", "l_linenumber"), TpchTable.LINE_ITEM, 6_000_000,
            bigKey("l_orderkey"), key("l_partkey"), key("l_suppkey"), integer("l_linenumber"),
            money("l_quantity"), money("l_extendedprice"), money("l_discount"), money("l_tax"),
            chars("l_returnflag", 1), chars("l_linestatus", 1),
            date("l_shipdate"), date("l_commitdate"), date("l_receiptdate"),
            chars("l_shipinstruct", 25), chars("l_shipmode", 10), varchar("l_comment", 44));
    public static final Table ORDERS = scaled("orders", List.of("o_orderkey"), TpchTable.ORDERS, 1_500_000,
            bigKey("o_orderkey"), key("o_custkey"), chars("o_orderstatus", 1), money("o_totalprice"),
            date("o_orderdate"), chars("o_orderpriority", 15), chars("o_clerk", 15), integer("o_shippriority"),
            varchar("o_comment", 79));
    public static final Table PARTSUPP = scaled("partsupp", List.of("ps_partkey", "ps_suppkey"), TpchTable.PART_SUPPLIER, 800_000,
            key("ps_partkey"), key("ps_suppkey"), integer("ps_availqty"), money("ps_supplycost"),
            varchar("ps_comment", 199));
    public static final Table PART = scaled("part", List.of("p_partkey"), TpchTable.PART, 200_000,
            key("p_partkey"), varchar("p_name", 55), chars("p_mfgr", 25), chars("p_brand", 10),
            varchar("p_type", 25), integer("p_size"), chars("p_container", 10), money("p_retailprice"),
            varchar("p_comment", 23));
    public static final Table CUSTOMER = scaled("customer", List.of("c_custkey"), TpchTable.CUSTOMER, 150_000,
            key("c_custkey"), varchar("c_name", 25), varchar("c_address", 40), key("c_nationkey"),
            chars("c_phone", 15), money("c_acctbal"), chars("c_mktsegment", 10), varchar("c_comment", 117));
    public static final Table SUPPLIER = scaled("supplier", List.of("s_suppkey"), TpchTable.SUPPLIER, 10_000,
            key("s_suppkey"), chars("s_name", 25), varchar("s_address", 40), key("s_nationkey"),
            chars("s_phone", 15), money("s_acctbal"), varchar("s_comment", 101));
    public static final Table NATION = new Table("nation", Schema.of(key("n_nationkey"), chars("n_name", 25),
            key("n_regionkey"), varchar("n_comment", 152)), List.of("n_nationkey"), TpchTable.NATION, 25, false);
    public static final Table REGION = new Table("region", Schema.of(key("r_regionkey"), chars("r_name", 25),
            varchar("r_comment", 152)), List.of("r_regionkey"), TpchTable.REGION, 5, false);

    /** Largest first, so that loading spends its tail on small tables. */
    private static final List<Table> TABLES = List.of(LINEITEM, ORDERS, PARTSUPP, PART, CUSTOMER, SUPPLIER, NATION, REGION);

    private TpchSchema() {
    }

    public static List<Table> tables() {
        return TABLES;
    }

    /** The table of this name (case-insensitive). */
    public static Table table(String name) {
        return TABLES.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no TPC-H table " + name));
    }

    private static Table scaled(String name, List<String> primaryKey, TpchTable<?> generator, long rowsAtSf1, Field... fields) {
        return new Table(name, Schema.of(fields), primaryKey, generator, rowsAtSf1, true);
    }

    private static Field field(String name, DataType type) {
        return new Field(name, type.withNullable(false));
    }

    private static Field key(String name) {
        return field(name, DataType.INTEGER);
    }

    private static Field bigKey(String name) {
        return field(name, DataType.BIGINT);
    }

    private static Field integer(String name) {
        return field(name, DataType.INTEGER);
    }

    private static Field money(String name) {
        return field(name, DataType.decimal(15, 2));
    }

    private static Field date(String name) {
        return field(name, DataType.DATE);
    }

    private static Field chars(String name, int length) {
        return field(name, DataType.chars(length));
    }

    private static Field varchar(String name, int length) {
        return field(name, DataType.varchar(length));
    }
}
