package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.ddl.DdlParser;
import io.warpdb.sql.ddl.DdlStatement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlUpdate;

/**
 * A statement classified once and parsed once: its EXPLAIN prefix, its {@link StatementKind} and
 * its one parse tree, WarpDB's own for DDL and Calcite's otherwise. Calcite's tree is validated
 * in place by the planner that plans it, so a parsed statement is planned at most once.
 */
final class ParsedStatement {
    /** What an EXPLAIN prefix asks for. */
    enum Explain {
        /** No prefix: run the statement. */
        NONE,
        /** EXPLAIN [PLAN FOR]: show the plan with each node's executor. */
        PLAN,
        /** EXPLAIN ANALYZE: run the query, then show the plan with what each node did. */
        ANALYZE
    }

    /** EXPLAIN [ANALYZE | PLAN FOR]; blanked rather than cut so that error positions stay right. */
    private static final Pattern EXPLAIN = Pattern.compile("^\\s*EXPLAIN\\s+((ANALYZE)\\s+|PLAN\\s+FOR\\s+)?", Pattern.CASE_INSENSITIVE);
    private static final int ANALYZE_GROUP = 2;

    private final String sql;
    private final Explain explain;
    private final StatementKind kind;
    private final DdlStatement ddl;
    private final SqlNode node;

    private ParsedStatement(String sql, Explain explain, StatementKind kind, DdlStatement ddl, SqlNode node) {
        this.sql = sql;
        this.explain = explain;
        this.kind = kind;
        this.ddl = ddl;
        this.node = node;
    }

    /**
     * Classifies and parses {@code sql}: syntax errors are SQLSTATE 42601; a statement WarpDB does
     * not run, or an EXPLAIN of one it cannot explain, 0A000.
     */
    static ParsedStatement parse(String sql) {
        Matcher prefix = EXPLAIN.matcher(sql);
        Explain explain = !prefix.find() ? Explain.NONE : prefix.group(ANALYZE_GROUP) != null ? Explain.ANALYZE : Explain.PLAN;
        String text = explain == Explain.NONE ? sql : " ".repeat(prefix.end()) + sql.substring(prefix.end());
        DdlStatement ddl = DdlParser.parse(text);
        if (ddl != null) {
            return new ParsedStatement(sql, requireExplainable(explain, StatementKind.DDL), StatementKind.DDL, ddl, null);
        }
        SqlNode node = CalcitePlanner.parse(text);
        StatementKind kind = StatementKind.of(node);
        return new ParsedStatement(sql, requireExplainable(explain, kind), kind, null, node);
    }

    private static Explain requireExplainable(Explain explain, StatementKind kind) {
        if (explain != Explain.NONE && !kind.isPlanned()) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN applies to queries and DML only");
        }
        if (explain == Explain.ANALYZE && kind != StatementKind.QUERY) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN ANALYZE applies to queries only");
        }
        return explain;
    }

    /** The statement's text as given. */
    String sql() {
        return sql;
    }

    Explain explain() {
        return explain;
    }

    StatementKind kind() {
        return kind;
    }

    /** The DDL statement; only for {@link StatementKind#DDL}. */
    DdlStatement ddl() {
        return ddl;
    }

    /** Calcite's parse tree; null for {@link StatementKind#DDL}. */
    SqlNode node() {
        return node;
    }

    /** The setting a {@link StatementKind#SET} statement changes. */
    SqlSetOption setOption() {
        return (SqlSetOption) node;
    }

    /**
     * The table a DELETE or UPDATE changes, which its planner shows with a row-id column; null for
     * other statements.
     */
    String dmlTarget() {
        if (kind != StatementKind.DELETE && kind != StatementKind.UPDATE) {
            return null;
        }
        SqlNode target = node instanceof SqlDelete d ? d.getTargetTable() : ((SqlUpdate) node).getTargetTable();
        List<String> names = ((SqlIdentifier) target).names;
        return names.get(names.size() - 1);
    }
}
