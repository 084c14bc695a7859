package io.warpdb.exec.gpu.expr;

/** Instructions of the GPU expression interpreter; the numbering is that of {@code cuda/common/vm.cuh}. */
enum Opcode {
    COL_I32, COL_I64, COL_F64, COL_U8, CONST, NULL,
    ADD_I, SUB_I, MUL_I, NEG_I, MOD_I,
    ADD_F, SUB_F, MUL_F, DIV_F, MOD_F, NEG_F,
    SCALE_UP, RESCALE, MUL_RESCALE, DIV_SCALED,
    CHECK_INT32, CHECK_PRECISION, I2F, F2DEC,
    CMP_I, CMP_F, AND, OR, NOT, TRUTH, SELECT, COALESCE,
    LOOKUP_BOOL, MAP_CODE, LOOKUP_I64,
    EXTRACT, ADD_DAYS, ADD_MONTHS, DISTINCT_I, DISTINCT_F;

    /** The number the kernel switches on (the CUDA enum starts at 1). */
    int code() {
        return ordinal() + 1;
    }
}
