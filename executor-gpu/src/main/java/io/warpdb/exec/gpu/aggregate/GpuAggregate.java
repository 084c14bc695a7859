package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.select.FilterProject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY and aggregates on the GPU: the hash group-by kernel ({@code cuda/aggregate/hash_aggregate.cu})
 * accumulates per slot; the occupied slots are compacted by the M-BSP select; the group keys are
 * gathered from each group's first row; the few values per group are finished on the host with
 * the CPU executor's rounding and overflow rules (AVG division, the result type's range).
 */
public final class GpuAggregate {
    private static final int BLOCK = 256;

    private GpuAggregate() {
    }

    public static Support supports(AggregateNode node) {
        for (AggCall call : node.aggregates()) {
            if (call.distinct()) {
                return Support.no("DISTINCT aggregates run on the CPU until the GPU's distinct aggregation lands");
            }
            if (call.function() == AggFunction.SINGLE_VALUE) {
                return Support.no("scalar sub-query checks (SINGLE_VALUE) run on the CPU");
            }
            if (!call.args().isEmpty() && node.input().schema().type(call.args().get(0)).kind().isString()) {
                return Support.no(call.function() + " of strings runs on the CPU");
            }
        }
        return Support.YES;
    }

    public static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work) {
        List<AggCall> calls = node.aggregates();
        int numAggs = calls.size();
        long bound = groupBound(node, input);
        // Without keys every row hashes alike: a one-slot table holds the single group.
        int tableSize = node.groupKeys().isEmpty() ? 1
                : Integer.highestOneBit((int) Math.max(2, Math.min(1L << 30, 2 * bound)) - 1) << 1;
        List<DeviceBuffer> temporaries = new ArrayList<>();
        List<DeviceColumn> keysAndResults = new ArrayList<>();
        try {
            DeviceBuffer table = track(temporaries, work.allocate(4L * tableSize, "group table"));
            table.fill((byte) 0xFF, 4L * tableSize, work.stream());
            DeviceBuffer[][] acc = new DeviceBuffer[numAggs][3];
            int[] kinds = new int[Math.max(1, numAggs)];
            int[] argColumns = new int[Math.max(1, numAggs)];
            long[][] accAddresses = new long[3][Math.max(1, numAggs)];
            List<Integer> argInputs = new ArrayList<>();
            for (int a = 0; a < numAggs; a++) {
                AggCall call = calls.get(a);
                DataType argType = call.args().isEmpty() ? null : input.column(call.args().get(0)).type();
                AggregateKind kind = AggregateKind.of(call, argType);
                kinds[a] = kind.ordinal();
                if (argType != null) {
                    argColumns[a] = argInputs.size();
                    argInputs.add(call.args().get(0));
                }
                for (int w = 0; w < 3; w++) {
                    acc[a][w] = track(temporaries, work.allocateZeroed(8L * tableSize, "aggregate accumulator"));
                    accAddresses[w][a] = acc[a][w].address();
                }
                if (kind.initial() != 0) {
                    work.kernel("aggregate/hash_aggregate", "fill64").launch(work.stream(), grid(tableSize, work), BLOCK, 0,
                            acc[a][1], kind.initial(), (long) tableSize);
                }
            }
            int rows = input.rows();
            work.kernel("aggregate/hash_aggregate", "hash_aggregate").launch(work.stream(), grid(rows, work), BLOCK, 0,
                    node.groupKeys().size(),
                    track(temporaries, work.upload(addresses(input, node.groupKeys(), false), "key addresses")),
                    track(temporaries, work.upload(addresses(input, node.groupKeys(), true), "key validity")),
                    track(temporaries, work.upload(widths(input, node.groupKeys()), "key widths")),
                    numAggs,
                    track(temporaries, work.upload(kinds, "aggregate kinds")),
                    track(temporaries, work.upload(argColumns, "argument columns")),
                    track(temporaries, work.upload(addresses(input, argInputs, false), "argument addresses")),
                    track(temporaries, work.upload(addresses(input, argInputs, true), "argument validity")),
                    track(temporaries, work.upload(widths(input, argInputs), "argument widths")),
                    track(temporaries, work.upload(accAddresses[0], "count accumulators")),
                    track(temporaries, work.upload(accAddresses[1], "value accumulators")),
                    track(temporaries, work.upload(accAddresses[2], "high accumulators")),
                    table, (long) tableSize - 1, (long) rows);

            // Occupied slots in one M-BSP select pass: the group's first row, then the accumulators.
            List<DeviceColumn> slotColumns = new ArrayList<>();
            List<Field> slotFields = new ArrayList<>();
            slotColumns.add(new DeviceColumn(DataType.INTEGER, tableSize, table, null, null));
            slotFields.add(new Field("first_row", DataType.INTEGER));
            temporaries.remove(table);
            for (int a = 0; a < numAggs; a++) {
                for (int w = 0; w < 3; w++) {
                    slotColumns.add(new DeviceColumn(DataType.BIGINT, tableSize, acc[a][w], null, null));
                    slotFields.add(new Field("acc" + a + "_" + w, DataType.BIGINT));
                    temporaries.remove(acc[a][w]);
                }
            }
            Schema slotSchema = new Schema(slotFields);
            List<Expr> all = new ArrayList<>();
            for (int c = 0; c < slotFields.size(); c++) {
                all.add(new ColumnRef(c, slotFields.get(c).type()));
            }
            Expr occupied = node.groupKeys().isEmpty()
                    ? Call.of(Op.EQ, DataType.BOOLEAN, Literal.ofLong(0, DataType.BIGINT), Literal.ofLong(0, DataType.BIGINT))
                    : Call.of(Op.GE, DataType.BOOLEAN, all.get(0), Literal.ofLong(0, DataType.INTEGER));
            DeviceTable groups;
            try (DeviceTable slots = new DeviceTable(slotSchema, tableSize, slotColumns)) {
                // Without keys every row went to slot 0, which is the one group even when empty.
                groups = node.groupKeys().isEmpty()
                        ? new DeviceTable(slotSchema, 1, slotColumns.stream().map(c -> slice0(c, work)).toList())
                        : FilterProject.run(slots, occupied, all, slotSchema, null, work);
            }
            try (groups) {
                int count = groups.rows();
                for (int k = 0; k < node.groupKeys().size(); k++) {
                    keysAndResults.add(ColumnGather.gather(input.column(node.groupKeys().get(k)), groups.column(0).values(),
                            count, work));
                }
                for (int a = 0; a < numAggs; a++) {
                    long[] counts = work.downloadLongs(groups.column(1 + 3 * a).values(), count);
                    long[] values = work.downloadLongs(groups.column(2 + 3 * a).values(), count);
                    long[] highs = work.downloadLongs(groups.column(3 + 3 * a).values(), count);
                    AggCall call = calls.get(a);
                    DataType argType = call.args().isEmpty() ? null : input.column(call.args().get(0)).type();
                    keysAndResults.add(finish(call, argType, AggregateKind.of(call, argType), counts, values, highs, work));
                }
                return new DeviceTable(node.schema(), count, keysAndResults);
            }
        } catch (RuntimeException e) {
            keysAndResults.forEach(DeviceColumn::close);
            throw e;
        } finally {
            work.synchronize();
            temporaries.forEach(DeviceBuffer::close);
        }
    }

    /** The first row of a column as a new one-row column (slot 0 of an ungrouped aggregation). */
    private static DeviceColumn slice0(DeviceColumn c, DeviceWork work) {
        try (DeviceBuffer zero = work.upload(new int[] {0}, "slot zero")) {
            return ColumnGather.gather(c, zero, 1, work);
        }
    }

    /** An upper bound of the group count: the product of the keys' domain sizes where known (dictionaries, booleans). */
    static long groupBound(AggregateNode node, DeviceTable input) {
        long bound = 1;
        for (int k : node.groupKeys()) {
            DeviceColumn c = input.column(k);
            long domain = c.type().kind().isString() ? c.dictionary().size() + 1L
                    : c.type().kind() == TypeKind.BOOLEAN ? 3 : Long.MAX_VALUE;
            bound = domain == Long.MAX_VALUE || bound > input.rows() ? Long.MAX_VALUE : bound * domain;
        }
        return Math.max(1, Math.min(bound, Math.max(1, input.rows())));
    }

    /** The aggregate's values per group, finished as the CPU executor finishes them. */
    private static DeviceColumn finish(AggCall call, DataType argType, AggregateKind kind, long[] counts, long[] values,
            long[] highs, DeviceWork work) {
        int n = counts.length;
        DataType type = call.type();
        long[] out = new long[n];
        byte[] valid = new byte[n];
        boolean nullable = false;
        for (int g = 0; g < n; g++) {
            boolean isNull = counts[g] == 0 && kind != AggregateKind.COUNT_STAR && kind != AggregateKind.COUNT;
            nullable |= isNull;
            valid[g] = (byte) (isNull ? 0 : 1);
            if (!isNull) {
                out[g] = value(call, argType, kind, counts[g], values[g], highs[g]);
            }
        }
        return upload(type, out, nullable ? valid : null, work);
    }

    private static long value(AggCall call, DataType argType, AggregateKind kind, long count, long value, long high) {
        DataType type = call.type();
        boolean average = call.function() == AggFunction.AVG;
        switch (kind) {
            case COUNT_STAR, COUNT:
                return checkFits(count, type);
            case MIN, MAX:
                return value;
            case MIN_DOUBLE, MAX_DOUBLE: {
                // Undo the kernel's order-preserving map: the sign bit set means the value was >= 0.
                long bits = value < 0 ? value ^ Long.MIN_VALUE : ~value;
                return bits;
            }
            case SUM_DOUBLE: {
                double sum = Double.longBitsToDouble(value);
                double r = average ? sum / count : sum;
                return Double.doubleToRawLongBits(r);
            }
            default: {
                int inputScale = argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0;
                BigInteger sum = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(value)));
                BigDecimal exact = new BigDecimal(sum, inputScale);
                if (type.kind() == TypeKind.DOUBLE) {
                    boolean fits = high == value >> 63;
                    double d = fits ? (inputScale == 0 ? (double) value : value / Math.pow(10, inputScale)) : exact.doubleValue();
                    return Double.doubleToRawLongBits(average ? d / count : d);
                }
                int resultScale = type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
                RoundingMode rounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
                BigDecimal r = average ? exact.divide(BigDecimal.valueOf(count), resultScale, rounding)
                        : exact.setScale(resultScale, RoundingMode.HALF_UP);
                BigInteger unscaled = r.unscaledValue();
                if (unscaled.bitLength() > 63) {
                    throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric value out of range");
                }
                return checkFits(unscaled.longValue(), type);
            }
        }
    }

    private static long checkFits(long v, DataType type) {
        if (type.kind() == TypeKind.INTEGER && (int) v != v) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range: " + v);
        }
        return v;
    }

    private static DeviceColumn upload(DataType type, long[] values, byte[] valid, DeviceWork work) {
        int width = DeviceColumn.width(type);
        DeviceBuffer data;
        if (width == 8) {
            data = work.upload(values, "aggregate results");
        } else if (width == 4) {
            int[] ints = new int[values.length];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = (int) values[i];
            }
            data = work.upload(ints, "aggregate results");
        } else {
            byte[] bytes = new byte[values.length];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) values[i];
            }
            data = work.upload(bytes, "aggregate results");
        }
        DeviceBuffer validity = valid == null ? null : work.upload(valid, "aggregate validity");
        return new DeviceColumn(type, values.length, data, validity, null);
    }

    private static int grid(long rows, DeviceWork work) {
        return (int) Math.max(1, Math.min((rows + BLOCK - 1) / BLOCK, work.device().smCount() * 16L));
    }

    private static DeviceBuffer track(List<DeviceBuffer> list, DeviceBuffer b) {
        list.add(b);
        return b;
    }

    private static long[] addresses(DeviceTable input, List<Integer> columns, boolean validity) {
        long[] out = new long[Math.max(1, columns.size())];
        for (int i = 0; i < columns.size(); i++) {
            DeviceColumn c = input.column(columns.get(i));
            out[i] = validity ? (c.validity() == null ? 0 : c.validity().address()) : c.values().address();
        }
        return out;
    }

    private static int[] widths(DeviceTable input, List<Integer> columns) {
        int[] out = new int[Math.max(1, columns.size())];
        for (int i = 0; i < columns.size(); i++) {
            out[i] = DeviceColumn.width(input.column(columns.get(i)).type());
        }
        return out;
    }
}
