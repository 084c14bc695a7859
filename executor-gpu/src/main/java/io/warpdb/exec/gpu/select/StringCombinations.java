package io.warpdb.exec.gpu.select;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.aggregate.Groups;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * String calls over combinations of values ({@link ProgramCompiler#combinedCalls}: CONCAT(a, b),
 * REPLACE(a, b, '_'), LEFT(a, n), CAST(n AS VARCHAR)) as columns computed before a select's program: the operands'
 * codes (and numbers, dates, timestamps) are computed on the device, the rows grouped by their combination
 * (as a GROUP BY of them), the call evaluated on the host once per distinct combination (the CPU
 * executor's string functions, as for one dictionary's entries), and the results (a string's
 * codes, a number) gathered back to the rows by their group. The program then reads
 * each such call as a column. The operands are computed here for every row of the select's input:
 * operands that can raise are combined only where SQL evaluates the call for every row too
 * ({@link ProgramCompiler#combinedCalls}), and a select with a predicate filters first ({@link FilterProject}).
 */
final class StringCombinations {
    private StringCombinations() {
    }

    /** The combining calls in {@code exprs} and {@code predicate} (null: none) ({@link ProgramCompiler#combinedCalls}). */
    static List<Call> find(Expr predicate, List<Expr> exprs) {
        List<Expr> all = new ArrayList<>(exprs);
        if (predicate != null) {
            all.add(predicate);
        }
        return ProgramCompiler.combinedCalls(all);
    }

    /** {@code e} with each of {@code calls} replaced by column {@code firstColumn + its index}. */
    static Expr replace(Expr e, List<Call> calls, int firstColumn) {
        int at = calls.indexOf(e);
        if (at >= 0) {
            return new ColumnRef(firstColumn + at, e.type());
        }
        if (!(e instanceof Call call)) {
            return e;
        }
        return new Call(call.op(), call.args().stream().map(a -> replace(a, calls, firstColumn)).toList(), call.type());
    }

    /** {@code input}'s columns (shared) followed by the values of {@code calls}; the caller closes it. */
    static DeviceTable append(DeviceTable input, List<Call> calls, EntryEvaluator entries, DeviceWork work) {
        List<DeviceColumn> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>(input.schema().fields());
        input.columns().forEach(c -> columns.add(c.share()));
        try {
            for (int i = 0; i < calls.size(); i++) {
                columns.add(column(input, calls.get(i), entries, work));
                fields.add(new Field("combined" + i, calls.get(i).type()));
            }
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(new Schema(fields), input.rows(), columns);
    }

    /** The values of {@code call} for every row of {@code input}. */
    private static DeviceColumn column(DeviceTable input, Call call, EntryEvaluator entries, DeviceWork work) {
        List<Expr> operands = call.args().stream().filter(ProgramCompiler::readsColumn).toList();
        List<Expr> combined = new ArrayList<>();
        for (Expr arg : call.args()) {
            int at = operands.indexOf(arg);
            combined.add(at >= 0 ? new ColumnRef(at, arg.type()) : arg);
        }
        Call overCombinations = new Call(call.op(), combined, call.type());
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            fields.add(new Field("operand" + i, operands.get(i).type()));
        }
        if (input.rows() == 0) {
            return new DeviceColumn(call.type(), 0, work.allocate(Long.BYTES, "combined values"), null,
                    call.type().kind().isString() ? StringDictionary.EMPTY : null);
        }
        try (DeviceTable codes = FilterProject.run(input, null, operands, new Schema(fields), entries, work);
                Groups groups = GpuAggregate.rowGroups(codes, false, work);
                DeviceTable distinct = ColumnGather.gather(codes, groups.representatives(), groups.count(), work)) {
            EntryEvaluator.EntryValues values = entries.evaluateCombinations(overCombinations, distinct, work);
            try (DeviceTable perGroup = new DeviceTable(Schema.of(new Field("combined", call.type())), groups.count(),
                    List.of(upload(call.type(), values, work)));
                    DeviceTable perRow = ColumnGather.gather(perGroup, groups.groupOfRow(), input.rows(), work)) {
                return perRow.column(0).share();
            }
        }
    }

    /** The per-combination results as a device column of {@code type}'s device form (validity where some is NULL). */
    private static DeviceColumn upload(DataType type, EntryEvaluator.EntryValues values, DeviceWork work) {
        int n = values.values().length;
        byte[] valid = new byte[n];
        boolean anyNull = false;
        for (int i = 0; i < n; i++) {
            boolean isNull = values.nulls()[i];
            valid[i] = isNull ? (byte) 0 : 1;
            anyNull |= isNull;
        }
        DeviceBuffer data = switch (DeviceColumn.width(type)) {
            case 1 -> work.upload(bytes(values.values()), "combined values");
            case 4 -> work.upload(Arrays.stream(values.values()).mapToInt(v -> (int) v).toArray(), "combined values");
            default -> work.upload(values.values(), "combined values");
        };
        try {
            StringDictionary dictionary = !type.kind().isString() ? null
                    : values.dictionary() == null ? StringDictionary.EMPTY : values.dictionary();
            return new DeviceColumn(type, n, data, anyNull ? work.upload(valid, "combined validity") : null, dictionary);
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
    }

    /** BOOLEAN results as one byte each. */
    private static byte[] bytes(long[] values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }
}
