package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * GROUP BY with aggregates; {@code FILTER (WHERE ...)} clauses become CASE columns below it. Two Calcite aggregates become a projection over the aggregate:
 * SUM0 (a SUM that is 0 instead of NULL on no rows) is SUM then COALESCE(sum, 0), and
 * LITERAL_AGG (a constant per group, which sub-query removal uses as a match marker) is the
 * constant itself. GROUPING SETS, ROLLUP and CUBE are {@link GroupingSetsPlan}'s.
 */
final class AggregateTranslator implements NodeTranslator<Aggregate> {
    /**
     * One aggregate as the core plan computes it: {@code function} over input columns {@code args},
     * counting only rows whose BOOLEAN column {@code filterArg} is TRUE (-1: every row), giving {@code field}.
     */
    record Spec(AggFunction function, List<Integer> args, boolean distinct, int filterArg, Field field) {
        Spec {
            args = List.copyOf(args);
        }

        /** The same aggregate over input columns moved {@code offset} places to the right. */
        Spec shifted(int offset) {
            return new Spec(function, args.stream().map(a -> a + offset).toList(), distinct,
                    filterArg < 0 ? -1 : filterArg + offset, field);
        }
    }

    @Override
    public PlanNode translate(Aggregate rel, PlanTranslator translator) {
        PlanNode input = translator.translate(rel.getInput());
        if (rel.getGroupType() != Aggregate.Group.SIMPLE) {
            return GroupingSetsPlan.of(rel, input);
        }
        Schema schema = PlanTranslator.schemaOf(rel);
        List<Integer> keys = rel.getGroupSet().asList();
        List<Spec> specs = new ArrayList<>();
        List<Expr> outputs = new ArrayList<>();
        boolean needsProjection = false;
        for (int k = 0; k < keys.size(); k++) {
            outputs.add(new ColumnRef(k, schema.type(k)));
        }
        for (AggregateCall call : rel.getAggCallList()) {
            Field field = schema.field(outputs.size());
            Expr constant = constantOf(call, field.type());
            if (constant != null) {
                outputs.add(constant);
                needsProjection = true;
                continue;
            }
            Spec spec = spec(call, field);
            Expr ref = new ColumnRef(keys.size() + specs.size(), spec.field().type());
            specs.add(spec);
            Expr output = finish(call, ref, field.type());
            needsProjection |= output != ref;
            outputs.add(output);
        }
        PlanNode agg = aggregate(input, keys, schema.fields().subList(0, keys.size()), specs);
        return needsProjection ? new ProjectNode(agg, outputs, schema) : agg;
    }

    /** LITERAL_AGG's constant, of {@code type}; null for any other aggregate. */
    static Expr constantOf(AggregateCall call, DataType type) {
        if (call.getAggregation().getKind() != SqlKind.LITERAL_AGG) {
            return null;
        }
        return LiteralConverter.toLiteral(LiteralConverter.javaValue((RexLiteral) call.rexList.get(0)), type);
    }

    /** How the core plan computes {@code call}, whose result column is {@code field}. */
    static Spec spec(AggregateCall call, Field field) {
        // SUM0 is computed as SUM, which is NULL on no rows; finish() makes that 0.
        DataType type = call.getAggregation().getKind() == SqlKind.SUM0 ? field.type().withNullable(true) : field.type();
        AggFunction function = function(call);
        // APPROX_COUNT_DISTINCT arrives as an approximate COUNT(DISTINCT x); its sketch does the distinct part.
        boolean distinct = call.isDistinct() && function != AggFunction.APPROX_COUNT_DISTINCT;
        return new Spec(function, call.getArgList(), distinct, call.filterArg, new Field(field.name(), type));
    }

    /** The value of {@code call} from {@code ref}, its spec's column: SUM0 is COALESCE(sum, 0). */
    static Expr finish(AggregateCall call, Expr ref, DataType type) {
        if (call.getAggregation().getKind() == SqlKind.SUM0) {
            return Call.of(Op.COALESCE, type, ref, LiteralConverter.toLiteral(0L, type));
        }
        return ref;
    }

    /**
     * {@code input} grouped by its columns {@code keys} (named by {@code keyFields}) with {@code specs}:
     * the keys, then one column per spec. A FILTERed aggregate of {@code agg(x) FILTER (WHERE f)} is
     * computed as {@code agg(CASE WHEN f THEN x END)}, the CASE a column added below the aggregate
     * (one per argument of {@code COUNT([DISTINCT] a, b, ...)}, which counts the rows, or distinct
     * combinations, where no argument is NULL: the executors take its several arguments as they are).
     */
    static AggregateNode aggregate(PlanNode input, List<Integer> keys, List<Field> keyFields, List<Spec> specs) {
        List<Expr> filteredArgs = new ArrayList<>();
        List<Field> fields = new ArrayList<>(keyFields);
        List<AggCall> calls = new ArrayList<>();
        for (Spec spec : specs) {
            AggFunction function = spec.function();
            List<Integer> args = spec.args();
            if (spec.filterArg() >= 0) {
                Expr condition = new ColumnRef(spec.filterArg(), input.schema().type(spec.filterArg()));
                List<Expr> values = args.isEmpty() ? List.of(LiteralConverter.toLiteral(1L, DataType.INTEGER))
                        : args.stream().map(a -> (Expr) new ColumnRef(a, input.schema().type(a))).toList();
                List<Integer> filtered = new ArrayList<>();
                for (Expr value : values) {
                    DataType valueType = value.type().withNullable(true);
                    filteredArgs.add(Call.of(Op.CASE, valueType, condition, value, Literal.ofNull(valueType)));
                    filtered.add(input.schema().size() + filteredArgs.size() - 1);
                }
                args = filtered;
                function = function == AggFunction.COUNT_STAR ? AggFunction.COUNT : function;
            }
            calls.add(new AggCall(function, args, spec.distinct(), spec.field().type(), spec.field().name()));
            fields.add(spec.field());
        }
        return new AggregateNode(withColumns(input, filteredArgs), keys, calls, new Schema(fields));
    }

    /** The input with extra computed columns after its own. */
    private static PlanNode withColumns(PlanNode input, List<Expr> extra) {
        if (extra.isEmpty()) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>(input.schema().fields());
        for (int c = 0; c < input.schema().size(); c++) {
            exprs.add(new ColumnRef(c, input.schema().type(c)));
        }
        for (Expr e : extra) {
            exprs.add(e);
            fields.add(new Field("$filtered" + fields.size(), e.type()));
        }
        return new ProjectNode(input, exprs, new Schema(fields));
    }

    private static AggFunction function(AggregateCall call) {
        switch (call.getAggregation().getKind()) {
            case COUNT:
                if (call.isApproximate() && call.getArgList().size() == 1) {
                    return AggFunction.APPROX_COUNT_DISTINCT;
                }
                return call.getArgList().isEmpty() ? AggFunction.COUNT_STAR : AggFunction.COUNT;
            case SUM:
            case SUM0:
                return AggFunction.SUM;
            case AVG:
                return AggFunction.AVG;
            case MIN:
                return AggFunction.MIN;
            case MAX:
                return AggFunction.MAX;
            case ANY_VALUE:
                return AggFunction.ANY_VALUE;
            case SINGLE_VALUE:
                return AggFunction.SINGLE_VALUE;
            case VAR_POP:
                return AggFunction.VAR_POP;
            case VAR_SAMP:
                return AggFunction.VAR_SAMP;
            case STDDEV_POP:
                return AggFunction.STDDEV_POP;
            case STDDEV_SAMP:
                return AggFunction.STDDEV_SAMP;
            default:
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                        "aggregate " + call.getAggregation().getName() + " is not supported yet");
        }
    }
}
