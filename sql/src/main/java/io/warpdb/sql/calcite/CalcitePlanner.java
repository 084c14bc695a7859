package io.warpdb.sql.calcite;

import io.warpdb.core.data.TableSource;
import io.warpdb.sql.ColumnDefaults;
import io.warpdb.sql.PrimaryKeys;
import io.warpdb.sql.ViewCatalog;
import io.warpdb.storage.CatalogSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Util;

/**
 * Calcite as WarpDB uses it: parse, validate and rewrite into an optimized logical RelNode
 * tree. It never executes anything. One instance plans one statement against a snapshot of
 * the catalog taken at construction.
 */
public final class CalcitePlanner implements RelOptTable.ViewExpander {
    static {
        // Calcite reads these once, when its classes load; ISO-8859-1 would reject non-Latin text.
        System.setProperty("calcite.default.charset", "UTF-8");
        System.setProperty("calcite.default.nationalcharset", "UTF-8");
        System.setProperty("calcite.default.collation.name", "UTF-8$en_US");
    }

    /** The one schema every table lives in. */
    public static final String SCHEMA = "PUBLIC";

    private static final SqlConformance CONFORMANCE = new SqlDelegatingConformance(SqlConformanceEnum.DEFAULT) {
        @Override
        public boolean isPercentRemainderAllowed() {
            return true;
        }

        @Override
        public boolean isBangEqualAllowed() {
            return true;
        }

        @Override
        public boolean isGroupByAlias() {
            return true;
        }

        @Override
        public boolean isGroupByOrdinal() {
            return true;
        }

        @Override
        public boolean isHavingAlias() {
            return true;
        }
    };

    /** Nested UNIONs of one kind become one, which executors run as a single set operation. */
    private static final HepProgram SET_OPS = new HepProgramBuilder()
            .addRuleCollection(List.of(CoreRules.UNION_MERGE))
            .build();

    /** Pushes filters into joins and scans' neighbourhood and merges what the converter stacked up. */
    private static final HepProgram LOGICAL_REWRITES = new HepProgramBuilder()
            .addRuleCollection(List.of(CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH, CoreRules.JOIN_PUSH_EXPRESSIONS,
                    CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE, CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                    CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, CoreRules.AGGREGATE_PROJECT_MERGE))
            .build();

    /**
     * Window functions (RexOver in projections) become Window nodes under projections; last, so
     * that every earlier rewrite sees plain projections, which the rules know to leave whole.
     */
    private static final HepProgram WINDOWS = new HepProgramBuilder()
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
            .build();

    /**
     * Join order: collapse each tree of inner joins into a MultiJoin, then let Calcite's
     * LoptOptimizeJoinRule order it by row counts and selectivities, so that FROM-clause
     * order never yields a cross product where an equi-join exists.
     */
    private static final HepProgram JOIN_ORDER = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleCollection(List.of(CoreRules.PROJECT_MULTI_JOIN_MERGE, CoreRules.FILTER_MULTI_JOIN_MERGE))
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    private final JavaTypeFactoryImpl typeFactory = new WarpTypeFactory();
    private final Map<String, org.apache.calcite.schema.Table> tables = new HashMap<>();
    private final CalciteCatalogReader catalogReader;
    private final SqlValidator validator;
    private final RelOptCluster cluster;

    /**
     * A planner over one catalog version. {@code dmlTarget} names the table of a DELETE or
     * UPDATE, which then shows a trailing row-id column that the statement uses to name the
     * rows it changes; null otherwise.
     */
    public CalcitePlanner(CatalogSnapshot snapshot, String dmlTarget) {
        this(snapshot, dmlTarget, List.of());
    }

    /** Also shows {@code systemTables}, under names no table or view of the snapshot uses. */
    public CalcitePlanner(CatalogSnapshot snapshot, String dmlTarget, List<TableSource> systemTables) {
        this(snapshot, dmlTarget, systemTables, UnaryOperator.identity());
    }

    /** Plans from the statistics {@code planned} gives each of the snapshot's tables (e.g. a cluster coordinator's: {@code PinnedStatistics}). */
    public CalcitePlanner(CatalogSnapshot snapshot, String dmlTarget, List<TableSource> systemTables, UnaryOperator<TableSource> planned) {
        for (TableSource t : systemTables) {
            tables.put(t.name(), new CalciteTable(t, false));
        }
        for (ViewCatalog.View v : ViewCatalog.views(snapshot.properties())) {
            tables.put(v.name(), new CalciteView(v, this));
        }
        for (TableSource t : snapshot.tables().stream().map(planned).toList()) {
            tables.put(t.name(), new CalciteTable(t, t.name().equalsIgnoreCase(dmlTarget),
                    ColumnDefaults.of(snapshot.properties(), t.name()), PrimaryKeys.of(snapshot.properties(), t.name())));
        }
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        root.add(SCHEMA, new AbstractSchema() {
            @Override
            protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
                return Map.copyOf(tables);
            }
        });
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CalciteConnectionConfig config = new CalciteConnectionConfigImpl(props);
        catalogReader = new CalciteCatalogReader(root, List.of(SCHEMA), typeFactory, config);
        validator = newValidator();
        VolcanoPlanner container = new VolcanoPlanner();
        container.addRelTraitDef(ConventionTraitDef.INSTANCE);
        container.setExecutor(NoConstantReduction.INSTANCE);
        cluster = RelOptCluster.create(container, new WarpRexBuilder(typeFactory));
        cluster.setMetadataProvider(JoinSelectivity.PROVIDER);
        cluster.setMetadataQuerySupplier(() -> new WarpMetadataQuery(JoinSelectivity.PROVIDER));
    }

    public static SqlParser.Config parserConfig() {
        return SqlParser.config()
                .withQuotedCasing(org.apache.calcite.avatica.util.Casing.UNCHANGED)
                .withUnquotedCasing(org.apache.calcite.avatica.util.Casing.UNCHANGED)
                .withCaseSensitive(false)
                .withQuoting(org.apache.calcite.avatica.util.Quoting.DOUBLE_QUOTE)
                .withConformance(CONFORMANCE);
    }

    /**
     * Parses one statement; syntax errors become SQLSTATE 42601 with line and column. Parsing
     * needs no catalog, so a statement is parsed before the planner that plans it is made.
     */
    public static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, parserConfig()).parseStmt().accept(new LikeEscapes()).accept(new SubQueryTruthTests());
        } catch (SqlParseException e) {
            throw CalciteErrors.fromParse(e);
        }
    }

    /** Validates in place and returns the validated tree; errors carry a SQLSTATE and position. */
    public SqlNode validate(SqlNode node) {
        try {
            return validator.validate(node);
        } catch (CalciteContextException e) {
            throw CalciteErrors.fromValidation(e);
        }
    }

    /** The types of the {@code ?} parameters of a validated statement. */
    public RelDataType parameterRowType(SqlNode validated) {
        return validator.getParameterRowType(validated);
    }

    /** Converts a validated statement to relational algebra. */
    public RelRoot toRel(SqlNode validated) {
        return convert(validator, validated);
    }

    private RelRoot convert(SqlValidator usedValidator, SqlNode validated) {
        // Bloat -1: the converter keeps each projection instead of merging it into the one above. A
        // correlation variable describes the row of the projection it was made for; after a merge
        // it read another column or past the row's end (CALCITE-7405, fixed after 1.42.0).
        // LOGICAL_REWRITES merges the projections once the sub-queries are unnested.
        SqlToRelConverter converter = new SqlToRelConverter(this, usedValidator, catalogReader, cluster,
                WindowAverageConvertlets.INSTANCE,
                SqlToRelConverter.config().withExpand(false).withTrimUnusedFields(false)
                        .withRelBuilderConfigTransform(c -> c.withBloat(-1)));
        try {
            return converter.convertQuery(validated, false, true);
        } catch (CalciteContextException e) {
            throw CalciteErrors.fromValidation(e);
        }
    }

    private SqlValidator newValidator() {
        return new WarpValidator(WarpOperatorTable.INSTANCE, catalogReader, typeFactory,
                SqlValidator.Config.DEFAULT.withConformance(CONFORMANCE).withIdentifierExpansion(true));
    }

    /** A view's query validated on its own: its row type, renamed to {@code columnNames} when given. */
    public RelDataType viewRowType(String query, List<String> columnNames) {
        SqlValidator own = newValidator();
        RelDataType type;
        try {
            type = own.getValidatedNodeType(own.validate(parse(query)));
        } catch (CalciteContextException e) {
            throw CalciteErrors.fromValidation(e);
        }
        if (columnNames == null) {
            return type;
        }
        if (columnNames.size() != type.getFieldCount()) {
            throw new io.warpdb.core.error.WarpException(io.warpdb.core.error.SqlState.DATATYPE_MISMATCH, "view names "
                    + columnNames.size() + " columns but its query returns " + type.getFieldCount());
        }
        return typeFactory.createStructType(type.getFieldList().stream().map(f -> f.getType()).toList(), columnNames);
    }

    @Override
    public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath, List<String> viewPath) {
        SqlValidator own = newValidator();
        SqlNode validated;
        try {
            validated = own.validate(parse(queryString));
        } catch (CalciteContextException e) {
            throw CalciteErrors.fromValidation(e);
        }
        return convert(own, validated);
    }

    /**
     * Logical rewrites: sub-queries become joins (decorrelated), filters move into joins,
     * unused columns are trimmed so that scans read only what the query needs.
     */
    public RelNode optimize(RelNode rel) {
        RelBuilder relBuilder = RelBuilder.proto(org.apache.calcite.plan.Contexts.empty()).create(cluster, catalogReader);
        RelNode r = rel.accept(new SubQueryJoins(cluster.getRexBuilder()));
        r = r.accept(new SubQueryUnnester(cluster.getRexBuilder()));
        r = hep(SET_OPS, r);
        r = r.accept(new FactorPuller(cluster.getRexBuilder()));
        r = hep(LOGICAL_REWRITES, r);
        r = hep(JOIN_ORDER, r);
        r = hep(LOGICAL_REWRITES, r);
        r = new RelFieldTrimmer(validator, relBuilder).trim(r);
        r = r.accept(new GroupKeyDependents(cluster.getRexBuilder()));
        r = hep(LOGICAL_REWRITES, r);
        r = r.accept(new AggregateSemiJoinReduction(cluster.getRexBuilder()));
        r = r.accept(new FilteredAggregateArguments(cluster.getRexBuilder()));
        r = hep(WINDOWS, r);
        if (containsCorrelate(r) || !RelOptUtil.getVariablesUsed(r).isEmpty()) {
            throw new io.warpdb.core.error.WarpException(io.warpdb.core.error.SqlState.FEATURE_NOT_SUPPORTED,
                    "this correlated sub-query cannot be decorrelated yet");
        }
        return r;
    }

    private static RelNode hep(HepProgram program, RelNode rel) {
        HepPlanner hep = new HepPlanner(program);
        hep.setRoot(rel);
        return hep.findBestExp();
    }

    private static boolean containsCorrelate(RelNode rel) {
        try {
            new org.apache.calcite.rel.RelVisitor() {
                @Override
                public void visit(RelNode node, int ordinal, RelNode parent) {
                    if (node instanceof Correlate) {
                        throw Util.FoundOne.NULL;
                    }
                    super.visit(node, ordinal, parent);
                }
            }.go(rel);
            return false;
        } catch (Util.FoundOne e) {
            return true;
        }
    }

    public JavaTypeFactoryImpl typeFactory() {
        return typeFactory;
    }

    public RexBuilder rexBuilder() {
        return cluster.getRexBuilder();
    }
}
