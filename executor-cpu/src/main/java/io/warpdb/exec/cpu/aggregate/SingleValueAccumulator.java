package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * SINGLE_VALUE: the value of each group's only row (NULL included), the result of a scalar
 * sub-query; a second row in any group is SQLSTATE 21000. The value itself is kept by a
 * MIN accumulator, which over one row is that row.
 */
final class SingleValueAccumulator implements Accumulator {
    private final Accumulator value;
    private boolean[] seen = new boolean[0];

    SingleValueAccumulator(DataType type) {
        this.value = new MinMaxAccumulator(AggFunction.MIN, type);
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        seen = Accumulators.grow(seen, groupCount);
        for (int g : groupIds) {
            if (seen[g]) {
                throw new WarpException(SqlState.CARDINALITY_VIOLATION, "a scalar sub-query returned more than one row");
            }
            seen[g] = true;
        }
        value.add(values, groupIds, groupCount);
    }

    @Override
    public DataType resultType() {
        return value.resultType();
    }

    @Override
    public Column result(int from, int count) {
        return value.result(from, count);
    }
}
