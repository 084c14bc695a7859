package io.warpdb.sql;

import io.warpdb.core.data.TableSource;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.system.CounterTable;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Plans a database's parsed queries and DML statements, each with a {@link CalcitePlanner} of its
 * own over the statement's snapshot. Queries also see the system tables; a DELETE or UPDATE sees
 * its target's row ids.
 */
final class StatementPlanner {
    private final Catalog catalog;
    private final LongAdder planned = new LongAdder();

    StatementPlanner(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Validates and converts {@code statement} (a query or DML) against the snapshot's tables and views. */
    PlannedStatement plan(ParsedStatement statement, CatalogSnapshot snapshot) {
        return plan(statement, snapshot, null);
    }

    /** As {@link #plan(ParsedStatement, CatalogSnapshot)}, from {@code pinned}'s statistics of the tables it holds (null: none). */
    PlannedStatement plan(ParsedStatement statement, CatalogSnapshot snapshot, PinnedStatistics pinned) {
        planned.increment();
        List<TableSource> systemTables = statement.kind() == StatementKind.QUERY ? CounterTable.of(catalog) : List.of();
        return PlannedStatement.plan(new CalcitePlanner(snapshot, statement.dmlTarget(), systemTables,
                pinned == null ? UnaryOperator.identity() : pinned::pin), statement, snapshot);
    }

    /**
     * Statements planned so far (for tests): a plan cache hit, and a run of a prepared statement
     * whose catalog version is still current, plan nothing.
     */
    long statementsPlanned() {
        return planned.sum();
    }
}
