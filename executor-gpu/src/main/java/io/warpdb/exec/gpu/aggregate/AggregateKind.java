package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;

/** How the hash aggregation kernel accumulates one aggregate; numbered as AggKind in {@code hash_aggregate.cu}. */
enum AggregateKind {
    COUNT_STAR, COUNT, SUM_EXACT, SUM_DOUBLE, MIN, MAX, MIN_DOUBLE, MAX_DOUBLE;

    static AggregateKind of(AggCall call, DataType argType) {
        boolean isDouble = argType != null && argType.kind() == TypeKind.DOUBLE;
        return switch (call.function()) {
            case COUNT_STAR -> COUNT_STAR;
            case COUNT -> COUNT;
            case SUM, AVG -> isDouble ? SUM_DOUBLE : SUM_EXACT;
            case MIN -> isDouble ? MIN_DOUBLE : MIN;
            case MAX -> isDouble ? MAX_DOUBLE : MAX;
            case SINGLE_VALUE -> throw new IllegalArgumentException("SINGLE_VALUE runs on the CPU");
        };
    }

    /** The initial value of the second accumulator word (the running MIN or MAX; 0 otherwise). */
    long initial() {
        return switch (this) {
            case MIN -> Long.MAX_VALUE;
            case MAX -> Long.MIN_VALUE;
            case MIN_DOUBLE -> -1L; // all ones: above every ordered double
            default -> 0L;
        };
    }
}
