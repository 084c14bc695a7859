package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import java.util.List;

/**
 * Compiled expressions for the GPU interpreter: instructions (six ints each: opcode, dst, a, b,
 * c, imm), 64-bit constants, int lookup tables, and one {@link Output} per expression saying
 * where its instructions are and what its result is.
 */
public record Program(int[] code, long[] consts, int[] tables, List<Output> outputs) {
    public static final int INSTRUCTION_INTS = 6;

    /**
     * One expression: instructions [start, start + length), result in {@code resultSlot}, of
     * {@code type}; {@code nullable} when it can be NULL; string results carry their dictionary.
     */
    public record Output(int start, int length, int resultSlot, DataType type, boolean nullable, StringDictionary dictionary) {
    }
}
