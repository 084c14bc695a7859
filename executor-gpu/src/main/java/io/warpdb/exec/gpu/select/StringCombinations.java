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
 * String calls over several columns ({@link ProgramCompiler#combinesStrings}: CONCAT(a, b),
 * REPLACE(a, b, '_'), LEFT(a, n)) as columns computed before a select's program: the operands'
 * codes (and INTEGER values) are computed on the device, the rows grouped by their combination
 * (as a GROUP BY of them), the call evaluated on the host once per distinct combination (the CPU
 * executor's string functions, as for one dictionary's entries), and the results (a string's
 * codes, a number) gathered back to the rows by their group. The program then reads
 * each such call as a column. Operands that could raise are not combined (the call stays on the CPU),
 * since they are computed here for every row, also those a filter or CASE would not evaluate them for.
 */
final class StringCombinations {
    private StringCombinations() {
    }

    /** The combining calls in {@code exprs} (and a null-free {@code predicate}), outermost, each once. */
    static List<Call> find(Expr predicate, List<Expr> exprs) {
        List<Call> out = new ArrayList<>();
        if (predicate != null) {
            collect(predicate, out);
        }
        exprs.forEach(e -> collect(e, out));
        return out;
    }

    private static void collect(Expr e, List<Call> out) {
        if (!(e instanceof Call call)) {
            return;
        }
        if (ProgramCompiler.combinesStrings(call)) {
            if (!out.contains(call)) {
                out.add(call);
            }
            return;
        }
        call.args().forEach(a -> collect(a, out));
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
                Groups groups = GpuAggregate.rowGroups(codes, work);
                DeviceTable distinct = ColumnGather.gather(codes, groups.representatives(), groups.count(), work)) {
            EntryEvaluator.EntryValues values = evaluate(overCombinations, distinct, entries, work);
            try (DeviceTable perGroup = new DeviceTable(Schema.of(new Field("combined", call.type())), groups.count(),
                    List.of(upload(call.type(), values, work)));
                    DeviceTable perRow = ColumnGather.gather(perGroup, groups.groupOfRow(), input.rows(), work)) {
                return perRow.column(0).share();
            }
        }
    }

    /** The call's value per row of {@code distinct} (the combinations), on the host. */
    private static EntryEvaluator.EntryValues evaluate(Call overCombinations, DeviceTable distinct, EntryEvaluator entries,
            DeviceWork work) {
        int n = distinct.rows();
        List<DataType> types = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        List<int[]> codes = new ArrayList<>();
        List<boolean[]> nulls = new ArrayList<>();
        for (DeviceColumn c : distinct.columns()) {
            types.add(c.type());
            dictionaries.add(c.dictionary() == null ? StringDictionary.EMPTY : c.dictionary());
            codes.add(work.downloadInts(c.values(), n));
            nulls.add(c.validity() == null ? null : isNull(work.downloadBytes(c.validity(), 0, n)));
        }
        return entries.evaluateCombinations(overCombinations, types, dictionaries, codes, nulls);
    }

    private static boolean[] isNull(byte[] validity) {
        boolean[] out = new boolean[validity.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = validity[i] == 0;
        }
        return out;
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
