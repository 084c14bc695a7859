package io.warpdb.sql;

import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SharedSubplans;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.calcite.ResultLabels;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.sql.translate.ColumnPruner;
import io.warpdb.sql.translate.PlanTranslator;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;

/**
 * A query or DML statement planned by its one {@link CalcitePlanner} over one catalog version:
 * validated and converted to relational algebra when planned, optimised once when first bound,
 * and bound to each run's parameter values by translating the optimised form to a core plan
 * (the values become literals). A prepared statement keeps one for as long as its catalog
 * version is current. Not for concurrent use.
 */
final class PlannedStatement {
    private final StatementKind kind;
    private final long catalogVersion;
    private final CalcitePlanner planner;
    private final List<DataType> parameterTypes;
    private final RelRoot root;
    /** The labels of a query's result columns ({@link ResultLabels}). */
    private final List<String> labels;
    /** The optimised query, or the optimised rows of a DML statement; made on the first bind. */
    private RelNode optimized;

    private PlannedStatement(StatementKind kind, long catalogVersion, CalcitePlanner planner, List<DataType> parameterTypes,
            RelRoot root, List<String> labels) {
        this.kind = kind;
        this.labels = labels;
        this.catalogVersion = catalogVersion;
        this.planner = planner;
        this.parameterTypes = parameterTypes;
        this.root = root;
    }

    /**
     * Validates and converts a parsed query or DML statement with {@code planner}, made for it
     * over {@code snapshot}. Optimisation waits for the first bind: a statement that validates but
     * cannot be optimised (a correlation not yet decorrelated) prepares, and fails when it runs.
     */
    static PlannedStatement plan(CalcitePlanner planner, ParsedStatement statement, CatalogSnapshot snapshot) {
        SqlNode node = statement.node();
        if (statement.kind() == StatementKind.INSERT) {
            List<String> target = ((SqlIdentifier) ((SqlInsert) node).getTargetTable()).names;
            snapshot.table(target.get(target.size() - 1))
                    .ifPresent(table -> InsertChecks.checkStringLengths((SqlInsert) node, table.schema()));
        }
        ResultLabels written = ResultLabels.before(node);
        SqlNode validated = planner.validate(node);
        List<DataType> parameterTypes = planner.parameterRowType(validated).getFieldList().stream()
                .map(f -> TypeMapping.toDataType(f.getType())).toList();
        RelRoot root = planner.toRel(validated);
        List<String> labels = statement.kind() == StatementKind.QUERY ? written.of(validated, root.validatedRowType)
                : root.validatedRowType.getFieldNames();
        return new PlannedStatement(statement.kind(), snapshot.version(), planner, parameterTypes, root, labels);
    }

    /** Whether the plan still holds in the snapshot: no commit since it was made changed what it reads or how to plan it. */
    boolean isCurrentIn(CatalogSnapshot snapshot) {
        return snapshot.version() == catalogVersion;
    }

    StatementKind kind() {
        return kind;
    }

    /** The types of the {@code ?} parameters, in order. */
    List<DataType> parameterTypes() {
        return parameterTypes;
    }

    /** A query's result columns, labelled as the user named them or as PostgreSQL would ({@link ResultLabels}). */
    Schema resultSchema() {
        return TypeMapping.toSchema(root.validatedRowType, labels);
    }

    /** A DML statement's change: its target table and, for UPDATE, the columns it sets. */
    TableModify modify() {
        return (TableModify) root.rel;
    }

    /**
     * The core plan for these parameter values, scanning the tables of {@code snapshot} (of the
     * version planned in): a query's rows, or the rows a DML statement changes.
     */
    PlanNode bind(List<Object> parameters, CatalogSnapshot snapshot) {
        if (optimized == null) {
            optimized = planner.optimize(kind == StatementKind.QUERY ? root.project() : modify().getInput());
        }
        PlanNode translated = new PlanTranslator(planner.rexBuilder(), parameters).translate(optimized);
        PlanNode plan = ColumnPruner.prune(SharedSubplans.share(translated));
        return SnapshotBinding.rebind(plan, snapshot);
    }
}
