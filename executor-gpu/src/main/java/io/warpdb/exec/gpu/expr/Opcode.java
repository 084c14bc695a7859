package io.warpdb.exec.gpu.expr;

import java.util.EnumSet;
import java.util.Set;

/**
 * Instructions of the GPU expression interpreter; the numbering is that of {@code cuda/common/vm.cuh}
 * ({@code OpcodeTableTest} checks it).
 * GUARD, UNGUARD, CASE_THEN and CASE_ELSE implement lazy evaluation (see vm.cuh): errors are
 * raised only by rows that evaluate the operand.
 */
enum Opcode {
    COL_I32, COL_I64, COL_F64, COL_U8, CONST, NULL,
    ADD_I, SUB_I, MUL_I, NEG_I, MOD_I,
    ADD_F, SUB_F, MUL_F, DIV_F, MOD_F, NEG_F,
    SCALE_UP, RESCALE, MUL_RESCALE, DIV_SCALED,
    CHECK_BITS, CHECK_PRECISION, I2F, F2DEC,
    CMP_I, CMP_F, AND, OR, NOT, TRUTH, COALESCE,
    LOOKUP_BOOL, MAP_CODE, LOOKUP_I64,
    EXTRACT, ADD_DAYS, ADD_MONTHS, DISTINCT_I, DISTINCT_F,
    GUARD, UNGUARD, CASE_THEN, CASE_ELSE,
    ABS_I, ABS_F, ROUND_F,
    ROUND_I, SIGN_I, MATH_F, POW_F,
    TS_TO_DATE, DATE_TO_TS, TS_PART, TS_TRUNC, TS_ADD_MICROS, TS_ADD_MONTHS,
    ROUND_FLOAT, CMP_SCALED, DISTINCT_SCALED,
    COL_W, CONST_W, WIDEN, NARROW, ADD_W, SUB_W, MUL_W, NEG_W, ABS_W,
    SCALE_UP_W, RESCALE_W, CHECK_PRECISION_W, CMP_W, DISTINCT_W, W2F;

    private static final Opcode[] BY_CODE = values();

    /** The instructions whose vm.cuh case calls {@code fail} (overflow, division by zero, a timestamp out of range). */
    private static final Set<Opcode> RAISING = EnumSet.of(ADD_I, SUB_I, MUL_I, NEG_I, MOD_I, DIV_F, MOD_F, SCALE_UP,
            MUL_RESCALE, DIV_SCALED, CHECK_BITS, CHECK_PRECISION, F2DEC, ADD_DAYS, ADD_MONTHS, ABS_I, ROUND_I,
            TS_TO_DATE, DATE_TO_TS, TS_TRUNC, TS_ADD_MICROS, TS_ADD_MONTHS, ROUND_FLOAT,
            NARROW, ADD_W, SUB_W, MUL_W, NEG_W, ABS_W, SCALE_UP_W, CHECK_PRECISION_W);

    /** The instructions on 128-bit values: a program with one runs in the kernels' wide interpreter (vm.cuh vmWideStep). */
    private static final Set<Opcode> WIDE = EnumSet.range(COL_W, W2F);

    /** The lookups, which raise the error of a failing dictionary entry (a table may have none). */
    private static final Set<Opcode> LOOKUPS = EnumSet.of(LOOKUP_BOOL, MAP_CODE, LOOKUP_I64);

    /** The number the kernel switches on (the CUDA enum starts at 1). */
    int code() {
        return ordinal() + 1;
    }

    static Opcode of(int code) {
        return BY_CODE[code - 1];
    }

    /** Whether the instruction can raise an error whatever its operands' tables hold. */
    boolean raises() {
        return RAISING.contains(this);
    }

    boolean isWide() {
        return WIDE.contains(this);
    }

    boolean isLookup() {
        return LOOKUPS.contains(this);
    }
}
