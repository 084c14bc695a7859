package io.warpdb.exec.gpu.select;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.ArithmeticChain;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.expr.Program;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.Kernel;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * SELECT and PROJECT on the GPU (kernels in {@code cuda/select/filter_project.cu}): with a
 * predicate, one M-BSP pass keeps the matching rows in input order and writes the projected
 * columns for them; without one, a transform pass computes each expression for every row. A
 * projection that only renames or reorders input columns shares them without copying. Simple
 * predicates ({@link SimplePredicate}) and outputs that are input columns bypass the interpreter.
 * With the v2 kernels ({@link #KERNEL_PROPERTY}, the default) PROJECT outputs that are
 * {@link ArithmeticChain}s run in {@code project_chain}, their values in registers, and a simple
 * predicate with computed outputs is the lean SELECT of the columns they read, then that PROJECT
 * of the kept rows; v1 runs every case through the interpreter. Outputs that other outputs
 * contain are computed once, then read as columns.
 */
public final class FilterProject {
    private static final String MODULE = "select/filter_project";
    static final int BLOCK = 256;
    static final int TILE = BLOCK * 8;
    /** Rows one block of the project kernel evaluates per step (PROJECT_ROWS per thread). */
    private static final int PROJECT_GROUP = BLOCK * 4;
    /** Rows one block of project_chain evaluates per step (CHAIN_PAIRS pairs per thread). */
    private static final int CHAIN_GROUP = BLOCK * 2 * 2;
    private static final int OUTPUT_SPEC_INTS = 6;
    /** The most predicate terms the lean SELECT takes (the kernels' MAX_LEAN_TERMS). */
    private static final int MAX_LEAN_TERMS = 8;
    /** Rows per chunk of the lean SELECT (the kernels' CHUNK_ROWS). */
    private static final int CHUNK_ROWS = 1 << 16;
    /** Chooses the kernels: v2 (the default) or v1, the earlier ones, kept to compare them on the same GPU. */
    public static final String KERNEL_PROPERTY = "warpdb.gpu.select.kernel";
    /** Bytes of a wide DECIMAL's value on the device. */
    private static final int WIDE_BYTES = 16;

    private FilterProject() {
    }

    /**
     * The rows of {@code input} where {@code predicate} (null: all rows) is TRUE, as columns
     * {@code exprs} of types {@code schema}.
     */
    public static DeviceTable run(DeviceTable input, Expr predicate, List<Expr> exprs, Schema schema,
            EntryEvaluator entries, DeviceWork work) {
        if (predicate != null && !StringCombinations.find(null, exprs).isEmpty()) {
            // The combined calls' operands are computed for every row: only for the rows the predicate keeps.
            return selectThenProject(input, predicate, null, readColumns(exprs), exprs, schema, entries, work);
        }
        List<Call> combinations = StringCombinations.find(predicate, exprs);
        if (!combinations.isEmpty()) {
            // Calls over several string columns become columns first; the program reads them.
            int first = input.schema().size();
            try (DeviceTable extended = StringCombinations.append(input, combinations, entries, work)) {
                return run(extended, predicate == null ? null : StringCombinations.replace(predicate, combinations, first),
                        exprs.stream().map(e -> StringCombinations.replace(e, combinations, first)).toList(), schema, entries, work);
            }
        }
        if (predicate == null && allSharable(exprs, schema, input)) {
            List<DeviceColumn> shared = exprs.stream().map(e -> input.column(((ColumnRef) e).index()).share()).toList();
            return new DeviceTable(schema, input.rows(), shared);
        }
        if (predicate == null) {
            List<Call> contained = containedOutputs(exprs);
            if (contained.isEmpty()) {
                return compute(input, null, null, exprs, schema, entries, work);
            }
            // Computed once and read as columns: q01's charge is then a chain over its discounted price and the tax.
            int first = input.schema().size();
            try (DeviceTable extended = appendComputed(input, contained, entries, work)) {
                return run(extended, null, exprs.stream().map(e -> StringCombinations.replace(e, contained, first)).toList(), schema,
                        entries, work);
            }
        }
        predicate = Exprs.inEvaluationOrder(predicate);
        SimplePredicate simple = SimplePredicate.of(predicate, input.columns().stream().map(DeviceColumn::type).toList(), entries);
        if (simple != null && simple.terms().size() <= MAX_LEAN_TERMS && v2() && !allSharable(exprs, schema, input)) {
            TreeSet<Integer> read = readColumns(exprs);
            if (leanReads(input, read)) {
                // The lean SELECT and then PROJECT's kernels beat the interpreter evaluating the outputs of the kept rows.
                return selectThenProject(input, predicate, simple, read, exprs, schema, entries, work);
            }
        }
        return compute(input, predicate, simple, exprs, schema, entries, work);
    }

    /**
     * The kept rows of the input columns {@code exprs} read ({@code read}, each once), then {@code exprs} over them
     * as a PROJECT: direct columns shared, {@link ArithmeticChain}s in {@code project_chain}, other
     * outputs in the interpreter without a predicate. With a {@code simple} predicate the SELECT is
     * the lean one; TPC-H q01 (computed DECIMAL products of 98 % of the rows) moves fewer bytes per
     * kept row through the lean kernels and project_chain than the interpreter takes time for them.
     */
    private static DeviceTable selectThenProject(DeviceTable input, Expr predicate, SimplePredicate simple, TreeSet<Integer> read,
            List<Expr> exprs, Schema schema, EntryEvaluator entries, DeviceWork work) {
        int[] position = new int[input.schema().size()];
        List<Expr> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int c : read) {
            position[c] = columns.size();
            columns.add(new ColumnRef(c, input.column(c).type()));
            fields.add(new Field(input.schema().field(c).name(), input.column(c).type()));
        }
        Schema readSchema = new Schema(fields);
        try (DeviceTable kept = simple == null ? run(input, predicate, columns, readSchema, entries, work)
                : compute(input, predicate, simple, columns, readSchema, entries, work)) {
            return run(kept, null, exprs.stream().map(e -> Exprs.remap(e, c -> position[c])).toList(), schema, entries, work);
        }
    }

    /**
     * The computed outputs (not strings, which go by dictionary) that another output contains, as
     * TPC-H q01's {@code price * (1 - discount)} is contained in {@code price * (1 - discount) * (1 + tax)}.
     */
    private static List<Call> containedOutputs(List<Expr> exprs) {
        List<Call> contained = new ArrayList<>();
        for (Expr e : exprs) {
            if (e instanceof Call call && !call.type().kind().isString() && ProgramCompiler.readsColumn(call) && !contained.contains(call)
                    && exprs.stream().anyMatch(other -> containsProperly(other, call))) {
                contained.add(call);
            }
        }
        return contained;
    }

    private static boolean containsProperly(Expr outer, Expr inner) {
        return outer instanceof Call call && call.args().stream().anyMatch(a -> a.equals(inner) || containsProperly(a, inner));
    }

    /** {@code input}'s columns (shared) followed by the values of {@code calls}; the caller closes it. */
    private static DeviceTable appendComputed(DeviceTable input, List<Call> calls, EntryEvaluator entries, DeviceWork work) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            fields.add(new Field("contained" + i, calls.get(i).type()));
        }
        try (DeviceTable computed = compute(input, null, null, List.copyOf(calls), new Schema(fields), entries, work)) {
            List<DeviceColumn> columns = new ArrayList<>();
            input.columns().forEach(c -> columns.add(c.share()));
            computed.columns().forEach(c -> columns.add(c.share()));
            return new DeviceTable(input.schema().concat(computed.schema()), input.rows(), columns);
        }
    }

    /** The input columns {@code exprs} read, ascending. */
    private static TreeSet<Integer> readColumns(List<Expr> exprs) {
        TreeSet<Integer> read = new TreeSet<>();
        exprs.forEach(e -> Exprs.forEachColumn(e, read::add));
        return read;
    }

    /** Whether the outputs read at least one column and the lean SELECT moves every one they read (no 128-bit values). */
    private static boolean leanReads(DeviceTable input, TreeSet<Integer> read) {
        return !read.isEmpty() && read.stream().allMatch(c -> DeviceColumn.width(input.column(c).type()) != WIDE_BYTES);
    }

    private static boolean v2() {
        return !"v1".equals(System.getProperty(KERNEL_PROPERTY, "v2"));
    }

    /** The SELECT (with a predicate) or PROJECT kernels for {@code exprs}; {@code simple} is the predicate's terms, if it has them. */
    private static DeviceTable compute(DeviceTable input, Expr predicate, SimplePredicate simple, List<Expr> exprs, Schema schema,
            EntryEvaluator entries, DeviceWork work) {
        List<DataType> inputTypes = input.columns().stream().map(DeviceColumn::type).toList();
        ProgramCompiler compiler = new ProgramCompiler(inputTypes, input.columns().stream().map(DeviceColumn::dictionary).toList(),
                input.columns().stream().map(c -> c.validity() != null).toList(), entries);
        Program.Output condition = predicate == null || simple != null ? null : compiler.add(predicate);
        // Without a predicate, shared columns need no kernel output; with one, every column is compacted.
        List<Integer> computed = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            if (predicate != null || !sharable(exprs.get(i), schema.type(i), input)) {
                compiler.add(exprs.get(i), schema.type(i));
                computed.add(i);
            }
        }
        Program program = compiler.build();
        List<Program.Output> outputs = program.outputs().subList(condition == null ? 0 : 1, program.outputs().size());
        TreeSet<Integer> interpretedColumns = new TreeSet<>();
        boolean allOutputsDirect = true;
        // 128-bit values to compute or move: the kernels' wide variants (vm.cuh WIDE).
        boolean wide = program.wide();
        if (condition != null) {
            Exprs.forEachColumn(predicate, interpretedColumns::add);
        }

        List<DeviceBuffer> temporaries = new ArrayList<>();
        // Output buffers by expression index (null for shared input columns); values then validity.
        DeviceBuffer[][] outBuffers = new DeviceBuffer[exprs.size()][];
        try {
            int[] specs = new int[Math.max(1, outputs.size() * OUTPUT_SPEC_INTS)];
            long[] outValues = new long[Math.max(1, outputs.size())];
            long[] outValid = new long[Math.max(1, outputs.size())];
            for (int o = 0; o < outputs.size(); o++) {
                int i = computed.get(o);
                Program.Output out = outputs.get(o);
                int direct = sharable(exprs.get(i), schema.type(i), input) ? ((ColumnRef) exprs.get(i)).index() : -1;
                if (direct < 0) {
                    Exprs.forEachColumn(exprs.get(i), interpretedColumns::add);
                    allOutputsDirect = false;
                }
                boolean nullable = direct >= 0 ? input.column(direct).validity() != null : out.nullable();
                int width = DeviceColumn.width(schema.type(i));
                wide |= width == WIDE_BYTES;
                outBuffers[i] = new DeviceBuffer[2];
                DeviceBuffer values = outBuffers[i][0] = work.allocate((long) input.rows() * width, "projected values");
                DeviceBuffer valid = outBuffers[i][1] = nullable ? work.allocate(input.rows(), "projected validity") : null;
                outValues[o] = values.address();
                outValid[o] = valid == null ? 0 : valid.address();
                System.arraycopy(new int[] {out.start(), out.length(), out.resultSlot(), width, valid == null ? 0 : 1, direct}, 0,
                        specs, o * OUTPUT_SPEC_INTS, OUTPUT_SPEC_INTS);
            }
            int[] used = new int[Math.max(2, interpretedColumns.size() * 2)];
            int u = 0;
            for (int c : interpretedColumns) {
                used[u++] = c;
                used[u++] = DeviceColumn.width(input.column(c).type());
            }
            boolean v2 = v2();
            // Nothing interpreted and no 128-bit value: the lean kernels.
            boolean lean = simple != null && simple.terms().size() <= MAX_LEAN_TERMS && allOutputsDirect && !wide;
            // The kernels' outputs (each naming its own buffers) in the order the v2 kernels want them.
            List<Integer> order = new ArrayList<>();
            ArithmeticChain[] chains = new ArithmeticChain[outputs.size()];
            for (int o = 0; o < outputs.size(); o++) {
                boolean chainable = v2 && !wide && predicate == null && specs[o * OUTPUT_SPEC_INTS + 3] == Long.BYTES;
                chains[o] = chainable ? ArithmeticChain.of(program, outputs.get(o)) : null;
                order.add(o);
            }
            // project: the interpreter's outputs first, its kernel takes the leading ones.
            order.sort(java.util.Comparator.comparing(o -> chains[o] != null));
            DeviceBuffer code = track(temporaries, work.upload(nonEmpty(program.code()), "program code"));
            DeviceBuffer consts = track(temporaries, work.upload(nonEmpty(program.consts()), "program constants"));
            DeviceBuffer tables = track(temporaries, work.upload(program.tables(), "program tables"));
            DeviceBuffer colValues = track(temporaries, work.upload(addresses(input, false), "column addresses"));
            DeviceBuffer colValid = track(temporaries, work.upload(addresses(input, true), "validity addresses"));
            DeviceBuffer usedBuffer = track(temporaries, work.upload(used, "interpreted columns"));
            DeviceBuffer specBuffer = track(temporaries, work.upload(permuted(specs, order, OUTPUT_SPEC_INTS), "output specs"));
            DeviceBuffer outValuesBuffer = track(temporaries, work.upload(permuted(outValues, order), "output addresses"));
            DeviceBuffer outValidBuffer = track(temporaries, work.upload(permuted(outValid, order), "output validity addresses"));
            DeviceBuffer error = track(temporaries, work.allocateZeroed(4, "error word"));
            int rows;
            if (predicate == null) {
                int interpreted = 0;
                for (int o : order) {
                    if (chains[o] == null) {
                        interpreted++;
                        continue;
                    }
                    DeviceBuffer chain = track(temporaries, work.upload(chains[o].encode(), "arithmetic chain"));
                    Kernel kernel = work.kernel(MODULE, "project_chain");
                    long blocks = ((long) input.rows() + CHAIN_GROUP - 1) / CHAIN_GROUP;
                    int grid = (int) Math.min(blocks, (long) work.device().smCount() * kernel.residentBlocksPerSm(BLOCK, 0));
                    kernel.launch(work.stream(), grid, BLOCK, 0, colValues, colValid, chain, outValues[o], outValid[o],
                            (long) input.rows(), error);
                }
                if (interpreted > 0) {
                    int grid = (int) Math.min((input.rows() + PROJECT_GROUP - 1) / PROJECT_GROUP, work.device().smCount() * 16L);
                    work.kernel(MODULE, wide ? "project_wide" : "project").launch(work.stream(), grid, BLOCK, 0, code, consts,
                            tables, colValues, colValid, specBuffer, interpreted, outValuesBuffer, outValidBuffer, (long) input.rows(),
                            error);
                }
                rows = input.rows();
            } else {
                DeviceBuffer terms = track(temporaries, work.upload(simple == null ? new long[SimplePredicate.LONGS_PER_TERM]
                        : simple.encode(), "simple predicate"));
                DeviceBuffer count = track(temporaries, work.allocateZeroed(8, "selected count"));
                int numTerms = simple == null ? 0 : simple.terms().size();
                if (lean) {
                    selectLean(input.rows(), colValues, colValid, terms, numTerms, specBuffer, outputs.size(), outValuesBuffer,
                            outValidBuffer, count, temporaries, work);
                } else {
                    long tiles = (input.rows() + TILE - 1) / TILE;
                    DeviceBuffer status = track(temporaries, work.allocateZeroed(Math.max(8, tiles * 8), "tile status"));
                    DeviceBuffer ticket = track(temporaries, work.allocateZeroed(4, "tile ticket"));
                    // Blocks take tiles by ticket until none is left, so the grid only needs to fill the GPU.
                    Kernel kernel = work.kernel(MODULE, wide ? "filter_project_wide" : "filter_project");
                    int grid = (int) Math.min(Math.max(tiles, 1), work.device().smCount() * (long) kernel.residentBlocksPerSm(BLOCK, 0));
                    kernel.launch(work.stream(), grid, BLOCK, 0, code, consts, tables, colValues, colValid,
                            usedBuffer, interpretedColumns.size(), terms, numTerms, condition == null ? 0 : condition.start(),
                            condition == null ? 0 : condition.length(), condition == null ? 0 : condition.resultSlot(), specBuffer,
                            outputs.size(), outValuesBuffer, outValidBuffer, (long) input.rows(), status, ticket, count, error);
                }
                rows = (int) work.downloadLongs(count, 1)[0];
            }
            raiseError(work.downloadInts(error, 1)[0], program);
            List<DeviceColumn> columns = new ArrayList<>(exprs.size());
            for (int i = 0, o = 0; i < exprs.size(); i++) {
                columns.add(outBuffers[i] == null ? input.column(((ColumnRef) exprs.get(i)).index()).share()
                        : new DeviceColumn(schema.type(i), rows, outBuffers[i][0], outBuffers[i][1], outputs.get(o++).dictionary()));
            }
            return new DeviceTable(schema, rows, columns);
        } catch (RuntimeException e) {
            for (DeviceBuffer[] b : outBuffers) {
                if (b != null) {
                    for (DeviceBuffer buffer : b) {
                        if (buffer != null) {
                            buffer.close();
                        }
                    }
                }
            }
            throw e;
        } finally {
            work.synchronize();
            temporaries.forEach(DeviceBuffer::close);
        }
    }

    /**
     * The lean SELECT (a simple predicate, every output an input column) in three kernels: the predicate's bit per row
     * and each chunk's count, the chunks' output offsets, then the kept rows moved (filter_project.cu says why).
     */
    private static void selectLean(int rows, DeviceBuffer colValues, DeviceBuffer colValid, DeviceBuffer terms, int numTerms,
            DeviceBuffer specs, int numOutputs, DeviceBuffer outValues, DeviceBuffer outValid, DeviceBuffer count,
            List<DeviceBuffer> temporaries, DeviceWork work) {
        if (rows == 0) {
            return;
        }
        long chunks = (rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
        DeviceBuffer mask = track(temporaries, work.allocate(((long) rows + 31) / 32 * Integer.BYTES, "selection bits"));
        DeviceBuffer chunkCounts = track(temporaries, work.allocate(chunks * Integer.BYTES, "kept rows per chunk"));
        DeviceBuffer offsets = track(temporaries, work.allocate(chunks * Long.BYTES, "output offset per chunk"));
        Kernel maskKernel = work.kernel(MODULE, "select_mask");
        maskKernel.launch(work.stream(), gridFor(chunks, maskKernel, work), BLOCK, 0, colValues, colValid, terms, numTerms,
                (long) rows, mask, chunkCounts);
        work.kernel(MODULE, "select_offsets").launch(work.stream(), 1, BLOCK, 0, chunkCounts, chunks, offsets, count);
        Kernel gather = work.kernel(MODULE, "select_gather");
        gather.launch(work.stream(), gridFor(chunks, gather, work), BLOCK, 0, colValues, colValid, specs, numOutputs, outValues,
                outValid, (long) rows, mask, offsets);
    }

    /** One block per chunk, at most as many as the GPU holds at once (blocks then take further chunks in turn). */
    private static int gridFor(long chunks, Kernel kernel, DeviceWork work) {
        return (int) Math.min(chunks, (long) work.device().smCount() * kernel.residentBlocksPerSm(BLOCK, 0));
    }

    private static boolean allSharable(List<Expr> exprs, Schema schema, DeviceTable input) {
        for (int i = 0; i < exprs.size(); i++) {
            if (!sharable(exprs.get(i), schema.type(i), input)) {
                return false;
            }
        }
        return true;
    }

    /** A column reference whose input column already has the output type's physical form. */
    private static boolean sharable(Expr e, DataType type, DeviceTable input) {
        if (!(e instanceof ColumnRef ref)) {
            return false;
        }
        DataType in = input.column(ref.index()).type();
        boolean sameStrings = in.kind().isString() && type.kind().isString();
        return sameStrings || in.kind() == type.kind()
                && (in.kind() != TypeKind.DECIMAL || in.scale() == type.scale() && in.isWideDecimal() == type.isWideDecimal());
    }

    private static DeviceBuffer track(List<DeviceBuffer> list, DeviceBuffer b) {
        list.add(b);
        return b;
    }

    private static long[] addresses(DeviceTable input, boolean validity) {
        long[] out = new long[Math.max(1, input.columns().size())];
        for (int c = 0; c < input.columns().size(); c++) {
            DeviceColumn col = input.column(c);
            out[c] = validity ? col.validityAddress() : col.values().address();
        }
        return out;
    }

    /** Groups of {@code group} values of {@code a} in {@code order}. */
    private static int[] permuted(int[] a, List<Integer> order, int group) {
        int[] out = a.clone();
        for (int i = 0; i < order.size(); i++) {
            System.arraycopy(a, order.get(i) * group, out, i * group, group);
        }
        return out;
    }

    private static long[] permuted(long[] a, List<Integer> order) {
        long[] out = a.clone();
        for (int i = 0; i < order.size(); i++) {
            out[i] = a[order.get(i)];
        }
        return out;
    }

    private static long[] nonEmpty(long[] a) {
        return a.length == 0 ? new long[1] : a;
    }

    private static int[] nonEmpty(int[] a) {
        return a.length == 0 ? new int[Program.INSTRUCTION_INTS] : a;
    }

    /** The interpreter's error word as the CPU executor's errors (see vm.cuh ErrorCode). */
    static void raiseError(int code, Program program) {
        if (code >= Program.ENTRY_ERROR_BASE) {
            throw program.entryErrors().get(code - Program.ENTRY_ERROR_BASE);
        }
        switch (code) {
            case 0 -> {
            }
            case 1 -> throw Decimals.outOfRange();
            case 2 -> throw Decimals.divisionByZero();
            case 3 -> throw Timestamps.outOfRange();
            default -> throw new WarpException(SqlState.INTERNAL_ERROR, "GPU kernel reported error " + code);
        }
    }
}
