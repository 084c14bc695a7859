package io.warpdb.sql.translate;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.sql.translate.AggregateTranslator.Spec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUP BY GROUPING SETS, ROLLUP and CUBE (a Calcite Aggregate with several group sets) as a plan
 * of ordinary nodes (aggregate, join, filter, projection, constant rows), so that every executor
 * runs it without an operator of its own.
 *
 * <p>The core plan is a tree: a node has one consumer, and no node shares its result with two
 * others (there is no spool). A UNION ALL of one aggregate per set would therefore compute its
 * input, joins and all, once per set. Instead the rows are <em>expanded</em>: joined with a constant
 * row per set ({@code $set} = 0..n-1), each copy's keys that its set lacks replaced by NULL, then
 * grouped once by ({@code $set}, keys). {@code $set} keeps a rolled-up NULL apart from a NULL in the
 * data, and {@code GROUPING()} and {@code GROUPING_ID()} are constants per set computed from it.
 *
 * <p>When every aggregate rolls up (SUM, COUNT as the SUM of counts, MIN, MAX, AVG as SUM / COUNT),
 * the input is aggregated once at the finest grouping, the union of all sets' keys, and only that
 * (usually far smaller) result is expanded and aggregated again: one pass over the input. Other
 * aggregates (DISTINCT ones, SINGLE_VALUE, AVG of other types) expand the input rows themselves:
 * still one pass over the input, with n copies of each row reaching the aggregate.
 *
 * <p>The grand total set {@code ()} has a row even for an empty input (COUNT 0, other aggregates
 * NULL), as in DuckDB and PostgreSQL, which an aggregate with keys does not give. So with {@code ()}
 * the join is a RIGHT join, which keeps each set's row with NULLs where there is no input row at
 * all, and a filter drops those of every set but {@code ()}; a non-NULL marker column (a COUNT(*) of
 * the finest aggregate, or a TRUE per input row) tells them apart from rows of the data.
 *
 * <p>AVG rolled up divides the exact sum by the count in one IEEE division of two integers, as
 * {@link io.warpdb.core.value.ExactQuotients} does while the unscaled sum and the count times
 * 10^scale are below 2^53; beyond that the result may differ from AVG's in the last bit. A finest
 * group's partial SUM of DECIMAL must fit 18 digits (22003 otherwise) even where only a coarser set's
 * SUM is shown.
 *
 * <p>On the GPU executor every node of this plan has an operator, the constant rows of the sets and
 * the projection that nulls a rolled-up string key included.
 */
final class GroupingSetsPlan {
    private static final DataType SET = DataType.INTEGER.withNullable(false);
    private static final DataType COUNT = DataType.BIGINT.withNullable(false);

    private final Aggregate rel;
    /** The aggregate's output: the keys of all sets, then one column per call. */
    private final Schema schema;
    /** The input columns of the keys, in output order. */
    private final List<Integer> keys;
    private final List<ImmutableBitSet> sets;
    /** The position of the grand total {@code ()} in {@link #sets}; -1 when absent. */
    private final int grandTotal;

    private GroupingSetsPlan(Aggregate rel) {
        this.rel = rel;
        this.schema = PlanTranslator.schemaOf(rel);
        this.keys = rel.getGroupSet().asList();
        this.sets = rel.getGroupSets();
        this.grandTotal = sets.indexOf(ImmutableBitSet.of());
    }

    /** The plan of {@code rel}, an aggregate with group sets, over {@code input}, its input translated. */
    static PlanNode of(Aggregate rel, PlanNode input) {
        GroupingSetsPlan plan = new GroupingSetsPlan(rel);
        boolean rollsUp = rel.getAggCallList().stream().allMatch(call -> rollsUp(call, input.schema()));
        return rollsUp ? plan.rolledUp(input) : plan.expandedRows(input);
    }

    /** Whether a coarser set's value of {@code call} can be computed from the finest groups' values. */
    static boolean rollsUp(AggregateCall call, Schema input) {
        return switch (call.getAggregation().getKind()) {
            case GROUPING, GROUPING_ID, GROUP_ID, LITERAL_AGG, MIN, MAX, ANY_VALUE -> true;
            case SUM, SUM0 -> !call.isDistinct();
            case COUNT -> !call.isDistinct() && call.getArgList().size() <= 1;
            case AVG -> !call.isDistinct() && averageRollsUp(input.type(call.getArgList().get(0)));
            default -> false;
        };
    }

    /** Whether AVG is rolled up from SUM and COUNT: a wide DECIMAL's sum has no 64-bit unscaled form for {@link #average}. */
    private static boolean averageRollsUp(DataType arg) {
        TypeKind kind = arg.kind();
        return kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.DECIMAL && !arg.isWideDecimal()
                || kind == TypeKind.DOUBLE;
    }

    /** Aggregates the input at the finest grouping, then each set from those groups. */
    private PlanNode rolledUp(PlanNode input) {
        int keyCount = keys.size();
        List<Spec> partials = new ArrayList<>();
        List<Spec> rollups = new ArrayList<>();
        List<Expr> outputs = keyOutputs();
        List<AggregateCall> calls = rel.getAggCallList();
        for (int j = 0; j < calls.size(); j++) {
            AggregateCall call = calls.get(j);
            Field field = schema.field(keyCount + j);
            Expr fixed = fixedValue(call, field.type());
            if (fixed != null) {
                outputs.add(fixed);
                continue;
            }
            Spec spec = AggregateTranslator.spec(call, field);
            switch (call.getAggregation().getKind()) {
                case AVG -> {
                    DataType sumType = sumType(call.getArgList().get(0));
                    Expr sum = rollUp(partials, rollups, new Spec(AggFunction.SUM, spec.args(), false, spec.filterArg(),
                            new Field("$sum" + j, sumType)), sumType);
                    Expr count = rollUp(partials, rollups, new Spec(AggFunction.COUNT, spec.args(), false, spec.filterArg(),
                            new Field("$count" + j, COUNT)), COUNT.withNullable(true));
                    outputs.add(Exprs.average(sum, count, field.type()));
                }
                case COUNT -> {
                    // The SUM of counts is NULL only for the grand total of an empty input, whose COUNT is 0.
                    Expr total = rollUp(partials, rollups, spec, field.type().withNullable(true));
                    outputs.add(Call.of(Op.COALESCE, field.type(), total, Literal.ofLong(0, field.type())));
                }
                default -> outputs.add(AggregateTranslator.finish(call, rollUp(partials, rollups, spec, spec.field().type()),
                        field.type()));
            }
        }
        int marker = -1;
        if (grandTotal >= 0) {
            Spec rows = new Spec(AggFunction.COUNT_STAR, List.of(), false, -1, new Field("$rows", COUNT));
            int same = indexOfSame(partials, rows);
            marker = keyCount + (same >= 0 ? same : partials.size());
            if (same < 0) {
                partials.add(rows);
            }
        }
        List<Field> keyFields = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keyFields.add(new Field(schema.field(k).name(), input.schema().type(keys.get(k))));
        }
        AggregateNode finest = AggregateTranslator.aggregate(input, keys, keyFields, partials);
        PlanNode expanded = expand(finest, IntStream.range(0, keyCount).boxed().toList(), marker);
        return groupedBySet(expanded, rollups.stream().map(s -> s.shifted(1 + keyCount)).toList(), outputs);
    }

    /**
     * Adds {@code partial} to the finest aggregate and its roll-up to {@code rollups}: MIN, MAX and
     * ANY_VALUE of the partial MINs, MAXs and ANY_VALUEs, SUM of the partial SUMs and COUNTs, of {@code type}. Returns the
     * roll-up's column in the aggregate by set.
     */
    private Expr rollUp(List<Spec> partials, List<Spec> rollups, Spec partial, DataType type) {
        AggFunction function = partial.function() == AggFunction.MIN || partial.function() == AggFunction.MAX
                || partial.function() == AggFunction.ANY_VALUE ? partial.function() : AggFunction.SUM;
        int same = indexOfSame(partials, partial);
        if (same >= 0 && rollups.get(same).field().type().equals(type)) {
            // SUM(x) beside AVG(x), or the same aggregate twice: one partial and one roll-up serve both.
            return new ColumnRef(keys.size() + 1 + same, type);
        }
        int partialColumn = keys.size() + partials.size();
        partials.add(partial);
        rollups.add(new Spec(function, List.of(partialColumn), false, -1, new Field(partial.field().name(), type)));
        return new ColumnRef(keys.size() + rollups.size(), type);
    }

    /** The position in {@code specs} of one computing what {@code spec} computes; -1 when none does. */
    private static int indexOfSame(List<Spec> specs, Spec spec) {
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            if (s.function() == spec.function() && s.args().equals(spec.args()) && s.distinct() == spec.distinct()
                    && s.filterArg() == spec.filterArg() && s.field().type().equals(spec.field().type())) {
                return i;
            }
        }
        return -1;
    }

    /** The type of SUM over input column {@code arg}, as the type system gives it. */
    private DataType sumType(int arg) {
        RelDataTypeFactory types = rel.getCluster().getTypeFactory();
        RelDataType argType = rel.getInput().getRowType().getFieldList().get(arg).getType();
        return TypeMapping.toDataType(types.getTypeSystem().deriveSumType(types, argType)).withNullable(true);
    }

    /** Expands the input rows themselves: for aggregates that do not roll up from finer groups. */
    private PlanNode expandedRows(PlanNode input) {
        int keyCount = keys.size();
        PlanNode rows = input;
        int marker = -1;
        if (grandTotal >= 0) {
            marker = input.schema().size();
            rows = withMarker(input);
        }
        List<Spec> specs = new ArrayList<>();
        List<Expr> outputs = keyOutputs();
        List<AggregateCall> calls = rel.getAggCallList();
        for (int j = 0; j < calls.size(); j++) {
            AggregateCall call = calls.get(j);
            Field field = schema.field(keyCount + j);
            Expr fixed = fixedValue(call, field.type());
            if (fixed != null) {
                outputs.add(fixed);
                continue;
            }
            Spec spec = AggregateTranslator.spec(call, field);
            if (spec.function() == AggFunction.COUNT_STAR && marker >= 0) {
                // The grand total's row of an empty input has the marker NULL: COUNT(*) counts it, COUNT(marker) does not.
                spec = new Spec(AggFunction.COUNT, List.of(marker), false, spec.filterArg(), spec.field());
            }
            specs.add(spec.shifted(1 + keyCount));
            outputs.add(AggregateTranslator.finish(call, new ColumnRef(keyCount + specs.size(), spec.field().type()), field.type()));
        }
        PlanNode expanded = expand(rows, keys, marker);
        return groupedBySet(expanded, specs, outputs);
    }

    /** The input with a last column TRUE on every row. */
    private static PlanNode withMarker(PlanNode input) {
        List<Expr> exprs = new ArrayList<>();
        for (int c = 0; c < input.schema().size(); c++) {
            exprs.add(new ColumnRef(c, input.schema().type(c)));
        }
        exprs.add(Literal.ofBoolean(true));
        List<Field> fields = new ArrayList<>(input.schema().fields());
        fields.add(new Field("$row", DataType.BOOLEAN.withNullable(false)));
        return new ProjectNode(input, exprs, new Schema(fields));
    }

    /**
     * {@code rows} once per set: {@code $set}, then the keys (at {@code keyColumns} of {@code rows})
     * with those the set lacks NULL, then every column of {@code rows}. With the grand total, the
     * rows of an empty input's grand total too (see the class comment): {@code marker} is a column
     * of {@code rows} that is never NULL.
     */
    private PlanNode expand(PlanNode rows, List<Integer> keyColumns, int marker) {
        Schema setSchema = Schema.of(new Field("$set", SET));
        List<List<Literal>> setRows = new ArrayList<>();
        for (int s = 0; s < sets.size(); s++) {
            setRows.add(List.of(Literal.ofLong(s, SET)));
        }
        Schema rowSchema = rows.schema();
        JoinKind kind = JoinKind.INNER;
        if (grandTotal >= 0) {
            kind = JoinKind.RIGHT;
            rowSchema = new Schema(rowSchema.fields().stream().map(f -> new Field(f.name(), f.type().withNullable(true))).toList());
        }
        PlanNode joined = new JoinNode(rows, new ValuesNode(setSchema, setRows), kind, List.of(), List.of(), null,
                rowSchema.concat(setSchema));
        Expr set = new ColumnRef(rowSchema.size(), SET);
        if (grandTotal >= 0) {
            Expr fromData = Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN.withNullable(false),
                    new ColumnRef(marker, rowSchema.type(marker)));
            Expr isGrandTotal = Call.of(Op.EQ, DataType.BOOLEAN.withNullable(false), set, Literal.ofLong(grandTotal, SET));
            joined = new FilterNode(joined, Call.of(Op.OR, DataType.BOOLEAN.withNullable(false), fromData, isGrandTotal));
        }
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        exprs.add(set);
        fields.add(setSchema.field(0));
        for (int k = 0; k < keys.size(); k++) {
            int column = keyColumns.get(k);
            Expr key = new ColumnRef(column, rowSchema.type(column));
            List<Expr> lacking = new ArrayList<>();
            lacking.add(set);
            for (int s = 0; s < sets.size(); s++) {
                if (!sets.get(s).get(keys.get(k))) {
                    lacking.add(Literal.ofLong(s, SET));
                }
            }
            if (lacking.size() > 1) {
                DataType type = key.type().withNullable(true);
                key = Call.of(Op.CASE, type, Call.of(Op.IN, DataType.BOOLEAN.withNullable(false), lacking.toArray(Expr[]::new)),
                        Literal.ofNull(type), key);
            }
            exprs.add(key);
            fields.add(new Field(schema.field(k).name(), key.type()));
        }
        for (int c = 0; c < rowSchema.size(); c++) {
            exprs.add(new ColumnRef(c, rowSchema.type(c)));
            fields.add(rowSchema.field(c));
        }
        return new ProjectNode(joined, exprs, new Schema(fields));
    }

    /** {@code expanded} grouped by {@code $set} and the keys with {@code specs}, then {@code outputs} of that. */
    private PlanNode groupedBySet(PlanNode expanded, List<Spec> specs, List<Expr> outputs) {
        List<Integer> groupKeys = IntStream.rangeClosed(0, keys.size()).boxed().toList();
        AggregateNode grouped = AggregateTranslator.aggregate(expanded, groupKeys,
                expanded.schema().fields().subList(0, keys.size() + 1), specs);
        return new ProjectNode(grouped, outputs, schema);
    }

    /** The keys of the output: columns 1.. of the aggregate by set (0 is {@code $set}). */
    private List<Expr> keyOutputs() {
        List<Expr> outputs = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            outputs.add(new ColumnRef(1 + k, schema.type(k)));
        }
        return outputs;
    }

    /**
     * The value of a call that aggregates nothing, over the aggregate by set: GROUPING and
     * GROUPING_ID (a bit per argument, the last the lowest, set where the set lacks the argument),
     * GROUP_ID (0: Calcite gives each duplicate set an aggregate of its own) and LITERAL_AGG; null
     * for other calls.
     */
    private Expr fixedValue(AggregateCall call, DataType type) {
        SqlKind kind = call.getAggregation().getKind();
        if (kind == SqlKind.GROUP_ID) {
            return Literal.ofLong(0, type);
        }
        if (kind != SqlKind.GROUPING && kind != SqlKind.GROUPING_ID) {
            return AggregateTranslator.constantOf(call, type);
        }
        Map<Long, List<Expr>> setsByValue = new LinkedHashMap<>();
        for (int s = 0; s < sets.size(); s++) {
            long value = 0;
            for (int arg : call.getArgList()) {
                value = value << 1 | (sets.get(s).get(arg) ? 0 : 1);
            }
            setsByValue.computeIfAbsent(value, v -> new ArrayList<>(List.of(new ColumnRef(0, SET)))).add(Literal.ofLong(s, SET));
        }
        List<Long> values = new ArrayList<>(setsByValue.keySet());
        List<Expr> caseArgs = new ArrayList<>();
        for (long value : values.subList(0, values.size() - 1)) {
            caseArgs.add(Call.of(Op.IN, DataType.BOOLEAN.withNullable(false), setsByValue.get(value).toArray(Expr[]::new)));
            caseArgs.add(Literal.ofLong(value, type));
        }
        Literal last = Literal.ofLong(values.get(values.size() - 1), type);
        if (caseArgs.isEmpty()) {
            return last;
        }
        caseArgs.add(last);
        return Call.of(Op.CASE, type, caseArgs.toArray(Expr[]::new));
    }
}
