package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.expr.JoinedInput;
import io.warpdb.exec.cpu.expr.SubsetInput;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * All six join kinds by hashing. The right input is the {@link JoinBuild} (read whole, rows
 * grouped by key; rows with a NULL key join nothing). Each left batch (the probe side) is then
 * matched row by row against the rows of its key, producing candidate pairs in chunks of up to
 * {@link #MAX_BATCH_ROWS}; the residual condition, if any, is evaluated over a chunk at once and
 * keeps the pairs where it is TRUE. With no keys every pair is a candidate, which makes this a
 * nested-loop join.
 *
 * <p>INNER/LEFT/RIGHT/FULL emit the kept pairs; after a probe batch, LEFT/FULL emit its rows that
 * matched nothing (right side NULL), SEMI/ANTI its rows that matched something / nothing; after
 * the last probe batch RIGHT/FULL emit the build rows that matched nothing (left side NULL).
 * The build may be shared by several probing operators (the copies of a parallel pipeline), for
 * every kind: RIGHT and FULL probers flag the build rows they match in the build's shared flags,
 * and the last prober to finish emits the rows nobody matched.
 *
 * <p>In a pipeline the join may run the filter and the projection of columns below it itself
 * (with the pipeline's {@link JoinKeyFilter} where they read the scan): it looks up the keys of
 * the passing rows only and gathers its output straight from the input batch, which no operator
 * copies in between (TPC-H Q3: lineitem's rows are gathered once, for the 30 K that join, instead
 * of once more for the 550 K that pass the filters).
 */
final class HashJoinOperator extends Operator {
    private final JoinKind kind;
    private final Schema leftSchema;
    private final Schema rightSchema;
    private final List<Integer> leftKeys;
    private final List<KeyEncoder> probeEncoders;
    /** The residual condition over left ++ right columns; null when there is none. */
    private final Evaluator residual;
    private final JoinBuild build;
    /** Whether this operator closes the build (false when the copies of a pipeline share it). */
    private final boolean ownsBuild;
    /** The filter this join runs on its input batches first; null when there is none. */
    private final FusedFilter probeFilter;
    /** Per left column, the input column it is (a projection this join runs itself); null: the same column. */
    private final int[] probeColumns;
    private final NodeStats projectionStats;

    private boolean built;
    /** For RIGHT/FULL: build rows that joined something, shared by all probers of the build. */
    private boolean[] buildMatched;
    /** For RIGHT/FULL: whether this prober, the last to finish, emits the unmatched build rows. */
    private boolean emitsUnmatched;
    private boolean leftExhausted;
    private int nextUnmatchedBuildRow;

    /**
     * The input batch being joined; its columns as the left side's ({@code probe}, the same
     * batch unless this join runs a projection); the probe rows, those of {@code probeRows}
     * (null: all), read through {@code probeInput}; where the probe rows' matches are (see
     * {@link JoinBuild#match}) and which of them joined something.
     */
    private Batch probeSource;
    private Batch probe;
    private int[] probeRows;
    private EvalInput probeInput;
    private int[] matchStarts;
    private int[] matchCounts;
    private boolean[] probeMatched;
    /** Where the next chunk of candidate pairs starts: a probe row and a position among its key's build rows. */
    private int cursorRow;
    private int cursorMatch;
    /** Scratch space for a chunk of candidate pairs. */
    private final int[] pairLeft = new int[MAX_BATCH_ROWS];
    private final int[] pairRight = new int[MAX_BATCH_ROWS];

    HashJoinOperator(JoinNode node, BatchStream left, JoinBuild build, boolean ownsBuild, ExecContext context) {
        this(node, left, null, null, build, ownsBuild, context);
    }

    /**
     * A join whose left rows are those of {@code input} that pass {@code filter}, projected by
     * {@code projection} (a projection of columns only); either may be null.
     */
    HashJoinOperator(JoinNode node, BatchStream input, ProjectNode projection, FusedFilter filter, JoinBuild build,
            boolean ownsBuild, ExecContext context) {
        super(context, node.schema(), input);
        this.probeFilter = filter;
        this.probeColumns = projection == null ? null
                : projection.exprs().stream().mapToInt(e -> ((ColumnRef) e).index()).toArray();
        this.projectionStats = projection == null ? null : context.stats(projection);
        if (projectionStats != null) {
            projectionStats.setExecutor(CpuExecutorProvider.NAME);
        }
        this.kind = node.kind();
        this.leftSchema = node.left().schema();
        this.rightSchema = node.right().schema();
        this.leftKeys = node.leftKeys();
        this.build = build;
        this.ownsBuild = ownsBuild;
        this.probeEncoders = build.probeEncoders();
        this.residual = node.residual() == null ? null : ExprCompiler.compile(node.residual());
        if (keepsUnmatchedBuildRows()) {
            build.registerProber();
        }
    }

    private boolean keepsUnmatchedBuildRows() {
        return kind == JoinKind.RIGHT || kind == JoinKind.FULL;
    }

    @Override
    public Batch next() {
        if (!built) {
            buildSide();
        }
        while (true) {
            if (probe == null) {
                if (leftExhausted || !nextProbeBatch()) {
                    if (!leftExhausted && buildMatched != null) {
                        emitsUnmatched = build.finishProbing() != null;
                    }
                    leftExhausted = true;
                    return unmatchedBuildRows();
                }
            }
            Batch out = advanceProbe();
            if (out != null) {
                if (out.rowCount() > 0) {
                    return out;
                }
                out.close();
            }
        }
    }

    private void buildSide() {
        build.ensureBuilt();
        built = true;
        int rows = build.rows().rowCount();
        buildMatched = keepsUnmatchedBuildRows() ? build.matchedFlags() : null;
        // With nothing to build on, INNER, SEMI and RIGHT get no row out of the left side.
        leftExhausted = rows == 0 && (kind == JoinKind.INNER || kind == JoinKind.SEMI || kind == JoinKind.RIGHT);
    }

    /** Pulls the next non-empty left batch and looks its keys up; false at the end of the left input. */
    private boolean nextProbeBatch() {
        Batch in;
        int[] passing;
        do {
            if ((in = pullNonEmpty(input(0))) == null) {
                return false;
            }
            try {
                passing = probeFilter == null ? null : probeFilter.passing(in);
            } catch (RuntimeException e) {
                in.close();
                throw e;
            }
            if (passing != null && passing.length == 0) {
                in.close();
                in = null;
            }
        } while (in == null);
        probeSource = in;
        probe = probeColumns == null ? in : leftColumnsOf(in);
        probeRows = passing;
        probeInput = passing == null ? new BatchInput(probe) : new SubsetInput(new BatchInput(probe), passing);
        int rows = probeInput.rowCount();
        if (projectionStats != null) {
            projectionStats.addRows(rows);
        }
        EncodedJoinKeys keys = EncodedJoinKeys.encode(probeInput, leftKeys, probeEncoders);
        matchStarts = new int[rows];
        matchCounts = new int[rows];
        build.match(keys, matchStarts, matchCounts);
        probeMatched = new boolean[rows];
        cursorRow = 0;
        cursorMatch = 0;
        if (residual == null && !kind.outputsRight()) {
            // SEMI/ANTI without a residual: a row matches exactly when its key is on the build side.
            for (int row = 0; row < rows; row++) {
                probeMatched[row] = matchCounts[row] > 0;
            }
            cursorRow = rows;
        }
        return true;
    }

    /**
     * The projected columns of an input batch, as a batch that shares its vectors; never closed
     * itself (closing the input batch releases them).
     */
    private Batch leftColumnsOf(Batch in) {
        List<FieldVector> vectors = new ArrayList<>(probeColumns.length);
        List<StringDictionary> dictionaries = new ArrayList<>(probeColumns.length);
        for (int column : probeColumns) {
            vectors.add(in.vector(column));
            dictionaries.add(in.dictionary(column));
        }
        return new Batch(leftSchema, vectors, dictionaries, in.rowCount());
    }

    /**
     * Joins the next chunk of candidate pairs of the probe batch and returns the rows to emit
     * (may be null or empty); once all pairs are done, returns the probe rows LEFT/FULL/SEMI/ANTI
     * emit on their own and releases the probe batch.
     */
    private Batch advanceProbe() {
        if (cursorRow < probeInput.rowCount()) {
            int[][] pairs = nextCandidatePairs();
            int[] leftRows = pairs[0];
            int[] rightRows = pairs[1];
            if (residual != null) {
                Column condition = residual.evaluate(new JoinedInput(new SubsetInput(probeInput, leftRows), leftSchema.size(),
                        new SubsetInput(build.rowInput(), rightRows)));
                int[] kept = condition.trueRows();
                leftRows = select(leftRows, kept);
                rightRows = select(rightRows, kept);
            }
            for (int i = 0; i < leftRows.length; i++) {
                probeMatched[leftRows[i]] = true;
            }
            if (buildMatched != null) {
                for (int row : rightRows) {
                    buildMatched[row] = true;
                }
            }
            return kind.outputsRight() ? joinedBatch(leftRows, rightRows, leftRows.length) : null;
        }
        try {
            return probeRowsOnTheirOwn();
        } finally {
            probeSource.close();
            probeSource = null;
            probe = null;
            probeRows = null;
            probeInput = null;
        }
    }

    /** Up to {@link #MAX_BATCH_ROWS} (probe row, build row) pairs with equal keys, from the cursor on. */
    private int[][] nextCandidatePairs() {
        int count = 0;
        int rows = probeInput.rowCount();
        while (cursorRow < rows && count < MAX_BATCH_ROWS) {
            int matches = matchCounts[cursorRow];
            // SEMI/ANTI need one match per row: skip the rest of a row's candidates once it has one.
            if (matches == 0 || !kind.outputsRight() && probeMatched[cursorRow]) {
                cursorRow++;
                cursorMatch = 0;
                continue;
            }
            int start = matchStarts[cursorRow] + cursorMatch;
            int take = Math.min(matches - cursorMatch, MAX_BATCH_ROWS - count);
            for (int t = 0; t < take; t++, count++) {
                pairLeft[count] = cursorRow;
                pairRight[count] = build.buildRow(start + t);
            }
            cursorMatch += take;
            if (cursorMatch == matches) {
                cursorRow++;
                cursorMatch = 0;
            }
        }
        return new int[][] {Arrays.copyOf(pairLeft, count), Arrays.copyOf(pairRight, count)};
    }

    /** After all pairs of a probe batch: its unmatched rows for LEFT/FULL and ANTI, its matched rows for SEMI. */
    private Batch probeRowsOnTheirOwn() {
        if (kind == JoinKind.INNER || kind == JoinKind.RIGHT) {
            return null;
        }
        boolean wantMatched = kind == JoinKind.SEMI;
        int count = 0;
        for (boolean matched : probeMatched) {
            count += matched == wantMatched ? 1 : 0;
        }
        int[] rows = new int[count];
        for (int row = 0, at = 0; row < probeMatched.length; row++) {
            if (probeMatched[row] == wantMatched) {
                rows[at++] = row;
            }
        }
        return count == 0 ? null : joinedBatch(rows, null, count);
    }

    /** After the last probe batch: the next build rows that joined nothing, for RIGHT/FULL; null when done. */
    private Batch unmatchedBuildRows() {
        if (!emitsUnmatched) {
            return null;
        }
        int[] rows = new int[MAX_BATCH_ROWS];
        int count = 0;
        while (nextUnmatchedBuildRow < buildMatched.length && count < MAX_BATCH_ROWS) {
            int row = nextUnmatchedBuildRow++;
            if (!buildMatched[row]) {
                rows[count++] = row;
            }
        }
        return count == 0 ? null : joinedBatch(null, Arrays.copyOf(rows, count), count);
    }

    /**
     * Output rows pairing probe row leftRows[i] with build row rightRows[i]; a null array makes that
     * side NULL. SEMI and ANTI output the left side only.
     */
    private Batch joinedBatch(int[] leftRows, int[] rightRows, int count) {
        List<FieldVector> vectors = new ArrayList<>(schema().size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema().size());
        try {
            addSide(vectors, dictionaries, probe, leftSchema, leftRows == null || probeRows == null ? leftRows : select(probeRows, leftRows),
                    count);
            if (kind.outputsRight()) {
                addSide(vectors, dictionaries, build.rows(), rightSchema, rightRows, count);
            }
            return new Batch(schema(), vectors, dictionaries, count);
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
    }

    private void addSide(List<FieldVector> vectors, List<StringDictionary> dictionaries, Batch source, Schema side,
            int[] rows, int count) {
        for (int c = 0; c < side.size(); c++) {
            DataType type = side.type(c);
            String name = schema().field(vectors.size()).name();
            if (rows == null) {
                vectors.add(ArrowColumns.nullVector(type, name, count, allocator()));
                dictionaries.add(type.kind().isString() ? StringDictionary.EMPTY : null);
            } else {
                vectors.add(BatchRows.gather(source.vector(c), type, rows, allocator()));
                dictionaries.add(source.dictionary(c));
            }
        }
    }

    private static int[] select(int[] values, int[] positions) {
        int[] out = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            out[i] = values[positions[i]];
        }
        return out;
    }

    @Override
    protected void releaseState() {
        try {
            if (probeSource != null) {
                probeSource.close();
            }
        } finally {
            if (ownsBuild) {
                build.close();
            }
        }
    }
}
