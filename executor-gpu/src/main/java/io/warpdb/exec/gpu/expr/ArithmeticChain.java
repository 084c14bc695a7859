package io.warpdb.exec.gpu.expr;

import io.warpdb.core.value.Pow10;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled output that is a chain of exact integer arithmetic: {@code t = leaf0 op leaf1}, then
 * {@code t = t op leaf} or {@code leaf op t} for each further step, each leaf an INTEGER-width or
 * 8-byte column or a constant (scaled up to a DECIMAL's scale), each op ADD_I, SUB_I or MUL_I ({@code a + b}, {@code price * (1 -
 * discount)}, {@code x * 3 - y}). The projection kernel {@code project_chain} evaluates it in
 * registers instead of the interpreter's slots; recognised from the program's instructions (not
 * the expression tree), so its values, NULLs and errors are those instructions'.
 */
public record ArithmeticChain(List<Leaf> leaves, List<Step> steps) {
    /** The kernel's CHAIN_LEAVES (vm ops: at most CHAIN_LEAVES - 1 steps). */
    static final int MAX_LEAVES = 4;
    /** Longs of the kernel's ArithmeticChain struct. */
    static final int ENCODED_LONGS = MAX_LEAVES * 2 + (MAX_LEAVES - 1) + 1;

    /** A column ({@code column >= 0}, {@code width} 4 or 8 bytes) or a constant. */
    public record Leaf(int column, int width, long constant) {
    }

    /** {@code leafFirst}: {@code leaf op t}, else {@code t op leaf} (the first step: leaf0 op leaf1). */
    public record Step(int opcode, boolean leafFirst) {
    }

    /** The chain {@code output} of {@code program} is, or null when it is anything else. */
    public static ArithmeticChain of(Program program, Program.Output output) {
        int[] code = program.code();
        Map<Integer, Leaf> leafSlots = new HashMap<>();
        int chainSlot = -1;
        List<Leaf> leaves = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        for (int i = output.start(); i < output.start() + output.length(); i++) {
            int at = i * Program.INSTRUCTION_INTS;
            Opcode op = Opcode.of(code[at]);
            int dst = code[at + 1];
            int a = code[at + 2];
            int b = code[at + 3];
            switch (op) {
                case COL_I32, COL_I64 -> leafSlots.put(dst, new Leaf(a, op == Opcode.COL_I32 ? 4 : 8, 0));
                case CONST -> leafSlots.put(dst, new Leaf(-1, 8, program.consts()[a]));
                case SCALE_UP -> {
                    // A constant at a DECIMAL operand's scale (1 - discount), folded; 22003 stays the interpreter's.
                    Leaf constant = a == chainSlot ? null : leafSlots.get(a);
                    int imm = code[at + 5];
                    if (constant == null || constant.column() >= 0 || imm > Pow10.MAX_EXPONENT) {
                        return null;
                    }
                    long scaled;
                    try {
                        scaled = Math.multiplyExact(constant.constant(), Pow10.of(imm));
                    } catch (ArithmeticException e) {
                        return null;
                    }
                    leafSlots.put(dst, new Leaf(-1, 8, scaled));
                }
                case ADD_I, SUB_I, MUL_I -> {
                    Leaf x = a == chainSlot ? null : leafSlots.get(a);
                    Leaf y = b == chainSlot ? null : leafSlots.get(b);
                    if (steps.isEmpty() && x != null && y != null) {
                        leaves.add(x);
                        leaves.add(y);
                        steps.add(new Step(op.code(), false));
                    } else if (!steps.isEmpty() && (x == null) != (y == null) && (x != null || a == chainSlot)
                            && (y != null || b == chainSlot)) {
                        leaves.add(x != null ? x : y);
                        steps.add(new Step(op.code(), x != null));
                    } else {
                        return null;
                    }
                    chainSlot = dst;
                }
                default -> {
                    return null;
                }
            }
            if (op != Opcode.ADD_I && op != Opcode.SUB_I && op != Opcode.MUL_I) {
                if (dst == chainSlot) {
                    chainSlot = -1;  // the chain's slot now holds a leaf
                }
            } else {
                leafSlots.remove(dst);
            }
            if (leaves.size() > MAX_LEAVES) {
                return null;
            }
        }
        return chainSlot >= 0 && chainSlot == output.resultSlot() ? new ArithmeticChain(List.copyOf(leaves), List.copyOf(steps)) : null;
    }

    /** As the kernel's ArithmeticChain struct: leaves (int column, int width, long constant), steps (int op, int leafFirst), int count, pad. */
    public long[] encode() {
        long[] out = new long[ENCODED_LONGS];
        for (int l = 0; l < MAX_LEAVES; l++) {
            Leaf leaf = l < leaves.size() ? leaves.get(l) : new Leaf(-1, 8, 0);
            out[l * 2] = (long) leaf.width() << 32 | (leaf.column() & 0xffffffffL);
            out[l * 2 + 1] = leaf.constant();
        }
        for (int s = 0; s < steps.size(); s++) {
            out[MAX_LEAVES * 2 + s] = (steps.get(s).leafFirst() ? 1L : 0L) << 32 | steps.get(s).opcode();
        }
        out[ENCODED_LONGS - 1] = steps.size();
        return out;
    }
}
