package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;

/**
 * The running state of one aggregate for every group, fed batch by batch. Groups are dense ids
 * 0, 1, 2, ...; state arrays grow as ids appear.
 */
public interface Accumulator {
    /**
     * Adds row i of {@code values} to group {@code groupIds[i]} (all ids below {@code groupCount});
     * {@code values} is null for COUNT(*). NULL values are skipped.
     */
    void add(Column values, int[] groupIds, int groupCount);

    /**
     * As {@link #add(Column, int[], int)} for a call's argument columns {@code args} (empty for
     * COUNT(*)); only COUNT takes several, and counts the rows where none of them is NULL.
     */
    default void add(List<Column> args, int[] groupIds, int groupCount) {
        add(args.isEmpty() ? null : args.get(0), groupIds, groupCount);
    }

    /**
     * The type of the results: the aggregate's own type, except that MIN/MAX give the argument's
     * type and SUM/AVG of DOUBLE give DOUBLE; the caller converts where the aggregate says otherwise.
     */
    DataType resultType();

    /** The results of groups [from, from + count); a group that saw no value gives COUNT 0, otherwise NULL. */
    Column result(int from, int count);
}
