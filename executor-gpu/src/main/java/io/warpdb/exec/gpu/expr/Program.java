package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.util.List;
import java.util.Map;

/**
 * Compiled expressions for the GPU interpreter: instructions (six ints each: opcode, dst, a, b,
 * c, imm), 64-bit constants, int lookup tables (one buffer on the device, made of these pieces,
 * which programs may share and nobody changes), one {@link Output} per expression saying where
 * its instructions are and what its result is, and the errors of dictionary entries by table
 * position: a kernel that meets one reports {@link #ENTRY_ERROR_BASE} + position.
 */
public record Program(int[] code, long[] consts, List<int[]> tables, List<Output> outputs, Map<Integer, WarpException> entryErrors) {
    public static final int INSTRUCTION_INTS = 6;
    /** Kernel error words from here on name a dictionary entry's error (vm.cuh ERR_ENTRY_BASE). */
    public static final int ENTRY_ERROR_BASE = 16;

    /**
     * Whether an instruction computes with DECIMALs of more than 18 digits (128-bit values): the
     * program then runs in the kernels' wide interpreter, which holds a second word per register.
     */
    public boolean wide() {
        for (int i = 0; i < code.length; i += INSTRUCTION_INTS) {
            if (Opcode.of(code[i]).isWide()) {
                return true;
            }
        }
        return false;
    }

    /**
     * One expression: instructions [start, start + length), result in {@code resultSlot}, of
     * {@code type}; {@code nullable} when it can be NULL; string results carry their dictionary.
     */
    public record Output(int start, int length, int resultSlot, DataType type, boolean nullable, StringDictionary dictionary) {
    }
}
