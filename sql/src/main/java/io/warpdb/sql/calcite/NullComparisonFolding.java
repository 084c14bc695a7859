package io.warpdb.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A RexBuilder that builds a comparison ({@code =, <>, <, <=, >, >=}) with a NULL literal operand
 * as the NULL literal it always evaluates to. Calcite's simplifier checks an original comparison
 * for NULL operands before it simplifies them, so {@code CASE WHEN FALSE THEN 'a' END >= 'x'}
 * comes out as {@code NULL >= 'x'}; inside an AND it then becomes a pulled-up predicate, and
 * {@code RelOptPredicateList} throws "Comparison with NULL in pulledUpPredicates" (while the
 * converter builds a projection, before any of WarpDB's metadata is asked). Folding when the
 * comparison is built is exact: a comparison with NULL is NULL for every row.
 */
final class NullComparisonFolding extends RexBuilder {
    NullComparisonFolding(RelDataTypeFactory typeFactory) {
        super(typeFactory);
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, SqlOperator op, List<? extends RexNode> exprs) {
        RexNode call = super.makeCall(pos, op, exprs);
        return comparesWithNull(op, exprs) ? makeNullLiteral(call.getType()) : call;
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, RelDataType returnType, SqlOperator op, List<RexNode> exprs) {
        return comparesWithNull(op, exprs) ? makeNullLiteral(returnType) : super.makeCall(pos, returnType, op, exprs);
    }

    private static boolean comparesWithNull(SqlOperator op, List<? extends RexNode> exprs) {
        return op.getKind().belongsTo(SqlKind.BINARY_COMPARISON)
                && op.getKind() != SqlKind.IS_DISTINCT_FROM && op.getKind() != SqlKind.IS_NOT_DISTINCT_FROM
                && exprs.stream().anyMatch(e -> e instanceof RexLiteral literal && literal.isNull());
    }
}
