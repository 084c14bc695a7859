package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.column.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;

/**
 * A conjunct of a filter tested straight on the Arrow buffers of a batch, narrowing a selection
 * vector (the ascending positions of the rows still in) without copying any column: {@code
 * column <op> constant} and {@code column <op> column} over exact numbers and dates, and any
 * condition on a single string column, computed per dictionary entry. The
 * comparisons with constants on one column merge into one range ({@code l_shipdate >= d AND
 * l_shipdate < d + 1 year} reads the column once), so TPC-H's scans of lineitem touch each
 * filtered column once, and later conjuncts only at the rows earlier ones kept. NULLs are never
 * selected, as a comparison with NULL is never TRUE. Every other conjunct is left to the
 * {@link Evaluator}s.
 */
public abstract class BufferPredicate {
    /** Bit i set: the comparison holds when sign(left - right) + 1 == i (LT 1, EQ 2, GT 4). */
    private static final Map<Op, Integer> SIGN_MASKS = Map.of(Op.LT, 1, Op.EQ, 2, Op.GT, 4, Op.LE, 3, Op.GE, 6, Op.NE, 5);

    /**
     * Splits {@code conjuncts} into the predicates this class tests, returned, and the rest,
     * added to {@code others} in their order.
     */
    public static List<BufferPredicate> extract(List<Expr> conjuncts, List<Expr> others) {
        Map<Integer, Range> ranges = new LinkedHashMap<>();
        List<BufferPredicate> predicates = new ArrayList<>();
        for (Expr conjunct : conjuncts) {
            ColumnRef string = soleStringColumn(conjunct);
            if (string != null) {
                predicates.add(new DictionaryPredicate(string, conjunct));
                continue;
            }
            if (!(conjunct instanceof Call call) || !SIGN_MASKS.containsKey(call.op())) {
                others.add(conjunct);
                continue;
            }
            Expr a = call.arg(0);
            Expr b = call.arg(1);
            if (a instanceof ColumnRef x && b instanceof ColumnRef y && comparable(x.type(), y.type())
                    && Decimals.scaleOf(x.type()) == Decimals.scaleOf(y.type())) {
                predicates.add(new ColumnPair(x.index(), y.index(), SIGN_MASKS.get(call.op())));
            } else if (a instanceof ColumnRef x && isConstant(b) && comparable(x.type(), b.type()) && call.op() != Op.NE) {
                ranges.computeIfAbsent(x.index(), c -> new Range(x)).add(call.op(), b);
            } else if (b instanceof ColumnRef x && isConstant(a) && comparable(x.type(), a.type()) && call.op() != Op.NE) {
                ranges.computeIfAbsent(x.index(), c -> new Range(x)).add(call.op().mirrored(), a);
            } else {
                others.add(conjunct);
            }
        }
        List<BufferPredicate> all = new ArrayList<>(ranges.values());
        all.addAll(predicates);
        return all;
    }

    /** The one column {@code e} reads, when that is a string column; else null. */
    private static ColumnRef soleStringColumn(Expr e) {
        ColumnRef[] found = new ColumnRef[1];
        boolean[] several = new boolean[1];
        forEachColumnRef(e, ref -> {
            several[0] |= found[0] != null && found[0].index() != ref.index();
            found[0] = ref;
        });
        return found[0] != null && !several[0] && found[0].type().kind().isString() ? found[0] : null;
    }

    private static void forEachColumnRef(Expr e, java.util.function.Consumer<ColumnRef> action) {
        if (e instanceof ColumnRef ref) {
            action.accept(ref);
        } else if (e instanceof Call call) {
            call.args().forEach(a -> forEachColumnRef(a, action));
        }
    }

    /** Whether a comparison of these types runs here: 64-bit exact numbers (a wide DECIMAL is the evaluators'), or dates. */
    private static boolean comparable(DataType a, DataType b) {
        boolean exact = a.kind().isExactNumeric() && b.kind().isExactNumeric() && !a.isWideDecimal() && !b.isWideDecimal();
        return exact || a.kind() == b.kind() && a.kind().isDatetime();
    }

    private static boolean isConstant(Expr e) {
        boolean[] reads = new boolean[1];
        Exprs.forEachColumn(e, c -> reads[0] = true);
        return !reads[0];
    }

    /**
     * Keeps in {@code selection[0 .. count)} (or, when {@code selection} is null, among all rows
     * of the batch, written to {@code out}) the rows where the predicate holds; returns how many.
     */
    public abstract int select(Batch batch, int[] selection, int count, int[] out);

    /** Reads value {@code row} of a fixed-width exact column as a long. */
    private static long value(long address, boolean wide, int row) {
        return wide ? MemoryUtil.getLong(address + ((long) row << 3)) : MemoryUtil.getInt(address + ((long) row << 2));
    }

    private static boolean isNull(long validity, int row) {
        return (MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7) & 1) == 0;
    }

    /** Column values within [low, high] at the column's scale, built from the comparisons with constants on one column. */
    private static final class Range extends BufferPredicate {
        private final ColumnRef column;
        private final List<Op> ops = new ArrayList<>();
        private final List<Expr> constants = new ArrayList<>();
        /** Computed at the first batch with rows, so that a failing constant (1 / 0) fails only where rows need it. */
        private boolean resolved;
        private long low = Long.MIN_VALUE;
        private long high = Long.MAX_VALUE;

        Range(ColumnRef column) {
            this.column = column;
        }

        void add(Op op, Expr constant) {
            ops.add(op);
            constants.add(constant);
        }

        private void resolve() {
            resolved = true;
            int scale = Decimals.scaleOf(column.type());
            BigInteger lowest = BigInteger.valueOf(Long.MIN_VALUE);
            BigInteger highest = BigInteger.valueOf(Long.MAX_VALUE);
            BigInteger lo = lowest;
            BigInteger hi = highest;
            for (int i = 0; i < ops.size(); i++) {
                Column c = ExprCompiler.compile(constants.get(i)).evaluate(new ColumnsInput(1));
                if (c.isNull(0)) {
                    lo = BigInteger.ONE;
                    hi = BigInteger.ZERO; // a comparison with NULL holds for no row
                    continue;
                }
                BigDecimal v = BigDecimal.valueOf(c.longs()[0], Decimals.scaleOf(constants.get(i).type()));
                // Bounds as unscaled values of the column's scale: at scale 2, x < 2.505 is x <= 2.50 and x >= 2.505 is x >= 2.51.
                BigInteger floor = v.setScale(scale, RoundingMode.FLOOR).unscaledValue();
                BigInteger ceiling = v.setScale(scale, RoundingMode.CEILING).unscaledValue();
                switch (ops.get(i)) {
                    case LT -> hi = hi.min(ceiling.subtract(BigInteger.ONE));
                    case LE -> hi = hi.min(floor);
                    case GT -> lo = lo.max(floor.add(BigInteger.ONE));
                    case GE -> lo = lo.max(ceiling);
                    case EQ -> {
                        lo = lo.max(ceiling);
                        hi = hi.min(floor); // empty when v has more digits than the column
                    }
                    default -> throw new IllegalStateException(ops.get(i).name());
                }
            }
            if (lo.compareTo(hi) > 0 || hi.compareTo(lowest) < 0 || lo.compareTo(highest) > 0) {
                low = 1;
                high = 0;
            } else {
                low = lo.max(lowest).longValue();
                high = hi.min(highest).longValue();
            }
        }

        @Override
        public int select(Batch batch, int[] selection, int count, int[] out) {
            if (!resolved) {
                resolve();
            }
            FieldVector vector = batch.vector(column.index());
            long address = vector.getDataBuffer().memoryAddress();
            boolean wide = ValueLayout.of(column.type()) == ValueLayout.INT64;
            long validity = vector.getNullCount() == 0 ? 0 : vector.getValidityBuffer().memoryAddress();
            long lo = low;
            // One unsigned comparison tests lo <= v <= hi.
            long span = high - lo;
            if (high < lo) {
                return 0;
            }
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int row = selection == null ? i : selection[i];
                long v = value(address, wide, row);
                out[kept] = row;
                boolean in = Long.compareUnsigned(v - lo, span) <= 0 && (validity == 0 || !isNull(validity, row));
                kept += in ? 1 : 0;
            }
            return kept;
        }
    }

    /** Two columns of one scale compared with each other. */
    private static final class ColumnPair extends BufferPredicate {
        private final int left;
        private final int right;
        private final int signMask;

        ColumnPair(int left, int right, int signMask) {
            this.left = left;
            this.right = right;
            this.signMask = signMask;
        }

        @Override
        public int select(Batch batch, int[] selection, int count, int[] out) {
            FieldVector a = batch.vector(left);
            FieldVector b = batch.vector(right);
            long aAddress = a.getDataBuffer().memoryAddress();
            long bAddress = b.getDataBuffer().memoryAddress();
            boolean aWide = ValueLayout.of(batch.schema().type(left)) == ValueLayout.INT64;
            boolean bWide = ValueLayout.of(batch.schema().type(right)) == ValueLayout.INT64;
            long aValidity = a.getNullCount() == 0 ? 0 : a.getValidityBuffer().memoryAddress();
            long bValidity = b.getNullCount() == 0 ? 0 : b.getValidityBuffer().memoryAddress();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int row = selection == null ? i : selection[i];
                int sign = Long.compare(value(aAddress, aWide, row), value(bAddress, bWide, row));
                out[kept] = row;
                boolean holds = (signMask >> (sign + 1) & 1) != 0
                        && (aValidity == 0 || !isNull(aValidity, row)) && (bValidity == 0 || !isNull(bValidity, row));
                kept += holds ? 1 : 0;
            }
            return kept;
        }
    }

    /**
     * A condition on one string column (=, IN, LIKE, SUBSTRING(...) IN ...): computed once per
     * dictionary entry, only for the entries the selected rows use (so an unused entry that would
     * fail raises nothing), then looked up by each row's code.
     */
    private static final class DictionaryPredicate extends BufferPredicate {
        private static final byte UNKNOWN = 0;
        private static final byte TRUE = 1;
        private static final byte NOT_TRUE = 2;
        private static final byte PENDING = 3;

        private final ColumnRef column;
        /** The condition over a one-column input whose rows are dictionary entries. */
        private final Evaluator perEntry;
        private StringDictionary dictionary;
        /** Per code: UNKNOWN, TRUE or NOT_TRUE. */
        private byte[] entryStates;
        private byte nullState = UNKNOWN;

        DictionaryPredicate(ColumnRef column, Expr condition) {
            this.column = column;
            this.perEntry = ExprCompiler.compile(Exprs.remap(condition, i -> 0));
        }

        @Override
        public int select(Batch batch, int[] selection, int count, int[] out) {
            FieldVector vector = batch.vector(column.index());
            long address = vector.getDataBuffer().memoryAddress();
            long validity = vector.getNullCount() == 0 ? 0 : vector.getValidityBuffer().memoryAddress();
            StringDictionary used = batch.dictionary(column.index());
            if (used != dictionary) {
                dictionary = used;
                entryStates = new byte[used.size()];
            }
            if (validity != 0 && nullState == UNKNOWN) {
                nullState = isTrue(perEntry.evaluate(new ColumnsInput(1, Column.allNull(column.type(), 1))), 0);
            }
            resolveEntries(address, validity, selection, count);
            byte[] states = entryStates;
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int row = selection == null ? i : selection[i];
                byte state = validity != 0 && isNull(validity, row) ? nullState : states[MemoryUtil.getInt(address + ((long) row << 2))];
                out[kept] = row;
                kept += state == TRUE ? 1 : 0;
            }
            return kept;
        }

        /** Computes the condition for the entries the selected rows use that are not known yet. */
        private void resolveEntries(long address, long validity, int[] selection, int count) {
            int[] pending = null;
            int pendingCount = 0;
            for (int i = 0; i < count; i++) {
                int row = selection == null ? i : selection[i];
                if (validity != 0 && isNull(validity, row)) {
                    continue;
                }
                int code = MemoryUtil.getInt(address + ((long) row << 2));
                if (entryStates[code] == UNKNOWN) {
                    if (pending == null) {
                        pending = new int[Math.min(count, entryStates.length)];
                    }
                    entryStates[code] = PENDING;
                    pending[pendingCount++] = code;
                }
            }
            if (pendingCount == 0) {
                return;
            }
            long[] codes = new long[pendingCount];
            for (int i = 0; i < pendingCount; i++) {
                codes[i] = pending[i];
            }
            Column results = perEntry.evaluate(new ColumnsInput(pendingCount, Column.ofCodes(column.type(), codes, null, dictionary)));
            for (int i = 0; i < pendingCount; i++) {
                entryStates[pending[i]] = isTrue(results, i);
            }
        }

        private static byte isTrue(Column condition, int row) {
            return condition.isTrue(row) ? TRUE : NOT_TRUE;
        }
    }
}
