package io.warpdb.sql;

import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CatalogSnapshot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a query or DML statement reads of each table, from its core plan: the columns its scans
 * take and the simple conditions (column against constant) that every scan of the table applies.
 * A cluster coordinator sends each shard a query for just that much and runs the statement over
 * the collected rows, which hold every row the statement can see. DDL and SET statements read
 * nothing here.
 */
public final class TableReads {
    /**
     * One table's part: its columns (a subset of the table's, in table order) and a conjunction
     * of conditions as SQL text (empty: all rows).
     */
    public record Read(String table, Schema columns, List<String> conditions) {
        /** {@code SELECT columns FROM table [WHERE conditions]}: the rows of this read, as SQL text. */
        public String query() {
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(identifier(columns.field(i).name()));
            }
            sql.append(" FROM ").append(identifier(table));
            if (!conditions.isEmpty()) {
                sql.append(" WHERE ").append(String.join(" AND ", conditions));
            }
            return sql.toString();
        }
    }

    private TableReads() {
    }

    /** The reads of {@code sql}'s plan (bound to {@code parameters}) in {@code session}'s database, by table name. */
    public static Map<String, Read> of(Session session, String sql, List<Object> parameters) {
        ParsedStatement statement = ParsedStatement.parse(sql);
        if (!statement.kind().isPlanned()) {
            return Map.of();
        }
        Database database = session.database();
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            PlanNode plan = database.planner().plan(statement, snapshot).bind(parameters, snapshot);
            List<ScanNode> scans = new ArrayList<>();
            collectScans(plan, scans);
            Map<String, List<ScanNode>> byTable = new LinkedHashMap<>();
            for (ScanNode scan : scans) {
                if (snapshot.table(scan.table().name()).isPresent()) {
                    byTable.computeIfAbsent(scan.table().name(), t -> new ArrayList<>()).add(scan);
                }
            }
            Map<String, Read> reads = new LinkedHashMap<>();
            byTable.forEach((table, tableScans) -> reads.put(table, read(table, tableScans)));
            return reads;
        }
    }

    private static void collectScans(PlanNode node, List<ScanNode> scans) {
        if (node instanceof ScanNode scan) {
            scans.add(scan);
        }
        node.inputs().forEach(input -> collectScans(input, scans));
    }

    /** The union of the scans' columns; the conditions all of them apply. */
    private static Read read(String table, List<ScanNode> scans) {
        Schema schema = scans.get(0).table().schema();
        Set<Integer> columns = new TreeSet<>();
        Set<ColumnPredicate> common = null;
        for (ScanNode scan : scans) {
            scan.columns().stream().filter(c -> c >= 0).forEach(columns::add);
            Set<ColumnPredicate> these = new HashSet<>(scan.predicates());
            if (common == null) {
                common = these;
            } else {
                common.retainAll(these);
            }
        }
        if (columns.isEmpty()) {
            columns.add(0); // COUNT(*) and the like read no column; one keeps the row count
        }
        List<String> conditions = new ArrayList<>();
        for (ColumnPredicate p : scans.get(0).predicates()) {
            if (common.contains(p)) {
                conditions.add(condition(schema.field(p.column()), p));
            }
        }
        return new Read(table, schema.select(List.copyOf(columns)), conditions);
    }

    private static String condition(Field column, ColumnPredicate p) {
        String name = identifier(column.name());
        return switch (p.op()) {
            case IS_NULL -> name + " IS NULL";
            case IS_NOT_NULL -> name + " IS NOT NULL";
            case EQ -> name + " = " + literal(p.value());
            case LT -> name + " < " + literal(p.value());
            case LE -> name + " <= " + literal(p.value());
            case GT -> name + " > " + literal(p.value());
            case GE -> name + " >= " + literal(p.value());
        };
    }

    /** A constant as SQL text of its own type. */
    static String literal(Literal literal) {
        Object v = literal.value();
        return switch (literal.type().kind()) {
            case BOOLEAN -> v.toString().toUpperCase(Locale.ROOT);
            case INTEGER, BIGINT -> v.toString();
            case DECIMAL -> "CAST(" + (v instanceof java.math.BigInteger wide ? new BigDecimal(wide, literal.type().scale())
                    : BigDecimal.valueOf((Long) v, literal.type().scale())).toPlainString() + " AS "
                    + literal.type().sqlName() + ")";
            case DOUBLE -> "CAST(" + v + " AS DOUBLE)";
            case DATE -> "DATE '" + java.time.LocalDate.ofEpochDay((Long) v) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + io.warpdb.core.value.Timestamps.format((Long) v) + "'";
            // An INTERVAL has no literal of its own: the difference of the timestamps it spans from 1970.
            case INTERVAL -> "(TIMESTAMP '" + io.warpdb.core.value.Timestamps.format((Long) v) + "' - TIMESTAMP '1970-01-01 00:00:00')";
            case VARCHAR, CHAR -> "'" + v.toString().replace("'", "''") + "'";
        };
    }

    /** A name as an SQL identifier: quoted, in the case the catalog keeps it. */
    public static String identifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
