package io.warpdb.core.plan;

import io.warpdb.core.types.DataType;
import java.util.List;

/**
 * One aggregate of an {@link AggregateNode}: the function over input columns {@code args},
 * over distinct values when {@code distinct}, producing {@code type}. SUM of DECIMAL keeps the
 * input scale; AVG of DECIMAL rounds half up to the result scale; SUM/AVG of an empty group is NULL.
 */
public record AggCall(AggFunction function, List<Integer> args, boolean distinct, DataType type, String name) {
    public AggCall {
        args = List.copyOf(args);
    }

    @Override
    public String toString() {
        return function + (distinct ? "(DISTINCT " : "(") + args.stream().map(a -> "$" + a).toList() + ")";
    }
}
