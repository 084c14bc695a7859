package io.warpdb.exec.cpu.operator;

import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import java.util.List;

/** Every row's encoded join keys, and the rows that can match nothing (a NULL key, or a value the other side cannot hold). */
record EncodedJoinKeys(long[][] values, boolean[] unmatchable) {
    static EncodedJoinKeys encode(EvalInput input, List<Integer> columns, List<KeyEncoder> encoders) {
        int rows = input.rowCount();
        long[][] values = new long[columns.size()][rows];
        boolean[] unmatchable = new boolean[rows];
        for (int k = 0; k < columns.size(); k++) {
            Column column = input.column(columns.get(k));
            encoders.get(k).encode(column, values[k], unmatchable);
            boolean[] nulls = column.nulls();
            if (nulls != null) {
                for (int i = 0; i < rows; i++) {
                    unmatchable[i] |= nulls[i];
                }
            }
        }
        return new EncodedJoinKeys(values, unmatchable);
    }
}
