package io.warpdb.exec.gpu.select;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.expr.Program;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * SELECT and PROJECT on the GPU (kernels in {@code cuda/select/filter_project.cu}): with a
 * predicate, one M-BSP pass keeps the matching rows in input order and writes the projected
 * columns for them; without one, a transform pass computes each expression for every row. A
 * projection that only renames or reorders input columns shares them without copying.
 */
public final class FilterProject {
    private static final String MODULE = "select/filter_project";
    static final int BLOCK = 256;
    static final int TILE = BLOCK * 8;
    private static final int OUTPUT_SPEC_INTS = 5;

    private FilterProject() {
    }

    /**
     * The rows of {@code input} where {@code predicate} (null: all rows) is TRUE, as columns
     * {@code exprs} of types {@code schema}.
     */
    public static DeviceTable run(DeviceTable input, Expr predicate, List<Expr> exprs, Schema schema,
            EntryEvaluator entries, DeviceWork work) {
        if (predicate == null && exprs.stream().allMatch(e -> sharable(e, input))) {
            List<DeviceColumn> shared = exprs.stream().map(e -> input.column(((ColumnRef) e).index()).share()).toList();
            return new DeviceTable(schema, input.rows(), shared);
        }
        ProgramCompiler compiler = new ProgramCompiler(input.columns().stream().map(DeviceColumn::type).toList(),
                input.columns().stream().map(DeviceColumn::dictionary).toList(),
                input.columns().stream().map(c -> c.validity() != null).toList(), entries);
        Program.Output condition = predicate == null ? null : compiler.add(predicate);
        List<Integer> computed = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            if (predicate != null || !sharable(exprs.get(i), input)) {
                compiler.add(exprs.get(i), schema.type(i));
                computed.add(i);
            }
        }
        Program program = compiler.build();
        List<Program.Output> outputs = program.outputs().subList(predicate == null ? 0 : 1, program.outputs().size());

        List<AutoCloseable> temporaries = new ArrayList<>();
        List<DeviceColumn> results = new ArrayList<>();
        try {
            DeviceBuffer code = keep(temporaries, work.upload(program.code(), "program code"));
            DeviceBuffer consts = keep(temporaries, work.upload(nonEmpty(program.consts()), "program constants"));
            DeviceBuffer tables = keep(temporaries, work.upload(nonEmpty(program.tables()), "program tables"));
            DeviceBuffer colValues = keep(temporaries, work.upload(addresses(input, false), "column addresses"));
            DeviceBuffer colValid = keep(temporaries, work.upload(addresses(input, true), "validity addresses"));

            int[] specs = new int[Math.max(1, outputs.size() * OUTPUT_SPEC_INTS)];
            long[] outValues = new long[Math.max(1, outputs.size())];
            long[] outValid = new long[Math.max(1, outputs.size())];
            List<DeviceBuffer[]> outBuffers = new ArrayList<>();
            for (int o = 0; o < outputs.size(); o++) {
                Program.Output out = outputs.get(o);
                int width = DeviceColumn.width(out.type());
                DeviceBuffer values = keep(temporaries, work.allocate((long) input.rows() * width, "projected values"));
                DeviceBuffer valid = out.nullable() ? keep(temporaries, work.allocate(input.rows(), "projected validity")) : null;
                outBuffers.add(new DeviceBuffer[] {values, valid});
                outValues[o] = values.address();
                outValid[o] = valid == null ? 0 : valid.address();
                System.arraycopy(new int[] {out.start(), out.length(), out.resultSlot(), width, valid == null ? 0 : 1}, 0,
                        specs, o * OUTPUT_SPEC_INTS, OUTPUT_SPEC_INTS);
            }
            DeviceBuffer specBuffer = keep(temporaries, work.upload(specs, "output specs"));
            DeviceBuffer outValuesBuffer = keep(temporaries, work.upload(outValues, "output addresses"));
            DeviceBuffer outValidBuffer = keep(temporaries, work.upload(outValid, "output validity addresses"));
            DeviceBuffer error = keep(temporaries, work.allocateZeroed(4, "error word"));

            int rows;
            if (condition == null) {
                Kernel k = work.kernel(MODULE, "project");
                int grid = (int) Math.min((input.rows() + BLOCK - 1) / BLOCK, work.device().smCount() * 16L);
                k.launch(work.stream(), grid, BLOCK, 0, code, consts, tables, colValues, colValid, specBuffer,
                        outputs.size(), outValuesBuffer, outValidBuffer, (long) input.rows(), error);
                rows = input.rows();
            } else {
                long tiles = (input.rows() + TILE - 1) / TILE;
                DeviceBuffer status = keep(temporaries, work.allocateZeroed(Math.max(8, tiles * 8), "tile status"));
                DeviceBuffer ticket = keep(temporaries, work.allocateZeroed(4, "tile ticket"));
                DeviceBuffer count = keep(temporaries, work.allocateZeroed(8, "selected count"));
                Kernel k = work.kernel(MODULE, "filter_project");
                // Blocks take tiles by ticket until none is left, so the grid only needs to fill the GPU.
                int grid = (int) Math.min(Math.max(tiles, 1), work.device().smCount() * 4L);
                k.launch(work.stream(), grid, BLOCK, 0, code, consts, tables, colValues, colValid,
                        condition.start(), condition.length(), condition.resultSlot(), specBuffer, outputs.size(),
                        outValuesBuffer, outValidBuffer, (long) input.rows(), status, ticket, count, error);
                rows = (int) work.downloadLongs(count, 1)[0];
            }
            raiseError(work.downloadInts(error, 1)[0]);
            int next = 0;
            for (int i = 0; i < exprs.size(); i++) {
                if (!computed.isEmpty() && next < computed.size() && computed.get(next) == i) {
                    DeviceBuffer[] b = outBuffers.get(next);
                    temporaries.remove(b[0]);
                    temporaries.remove(b[1]);
                    Program.Output out = outputs.get(next);
                    results.add(new DeviceColumn(schema.type(i), rows, b[0], b[1], out.dictionary()));
                    next++;
                } else {
                    results.add(input.column(((ColumnRef) exprs.get(i)).index()).share());
                }
            }
            return new DeviceTable(schema, rows, results);
        } catch (RuntimeException e) {
            results.forEach(DeviceColumn::close);
            throw e;
        } finally {
            work.synchronize();
            for (AutoCloseable t : temporaries) {
                if (t != null) {
                    try {
                        t.close();
                    } catch (Exception ignored) {
                        // DeviceBuffer.close does not throw
                    }
                }
            }
        }
    }

    /** A column reference whose input column already has the output's physical form. */
    private static boolean sharable(Expr e, DeviceTable input) {
        if (!(e instanceof ColumnRef ref)) {
            return false;
        }
        DataType in = input.column(ref.index()).type();
        return in.kind() == ref.type().kind() && (!in.kind().equals(io.warpdb.core.types.TypeKind.DECIMAL) || in.scale() == ref.type().scale());
    }

    private static <T extends AutoCloseable> T keep(List<AutoCloseable> list, T resource) {
        list.add(resource);
        return resource;
    }

    private static long[] addresses(DeviceTable input, boolean validity) {
        long[] out = new long[Math.max(1, input.columns().size())];
        for (int c = 0; c < input.columns().size(); c++) {
            DeviceColumn col = input.column(c);
            out[c] = validity ? (col.validity() == null ? 0 : col.validity().address()) : col.values().address();
        }
        return out;
    }

    private static long[] nonEmpty(long[] a) {
        return a.length == 0 ? new long[1] : a;
    }

    private static int[] nonEmpty(int[] a) {
        return a.length == 0 ? new int[1] : a;
    }

    /** The interpreter's error word as the CPU executor's errors (see vm.cuh ErrorCode). */
    static void raiseError(int code) {
        switch (code) {
            case 0 -> {
            }
            case 1 -> throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric value out of range");
            case 2 -> throw new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero");
            default -> throw new WarpException(SqlState.INTERNAL_ERROR, "GPU kernel reported error " + code);
        }
    }
}
