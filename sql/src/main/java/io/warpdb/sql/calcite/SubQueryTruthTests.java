package io.warpdb.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

/**
 * Truth tests of conditions that hold a sub-query, rewritten before validation into COALESCE,
 * which means the same: {@code e IS TRUE} is {@code COALESCE(e, FALSE)}, {@code e IS NOT FALSE}
 * {@code COALESCE(e, TRUE)}, IS NOT TRUE and IS FALSE their negations, and a CASE's
 * {@code WHEN e} is {@code WHEN COALESCE(e, FALSE)}. Calcite's simplifier counts an IN sub-query
 * among the comparisons, which are NULL only for a NULL operand
 * ({@code RelOptPredicateList.isEffectivelyNotNull}): for a non-NULL {@code x} it folds
 * {@code (x IN (...)) IS NOT TRUE} into {@code NOT (x IN (...))} and loses the UNKNOWN of a
 * sub-query that holds a NULL. It leaves COALESCE alone.
 */
final class SubQueryTruthTests extends SqlShuttle {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCase caseCall) {
            SqlNodeList whens = caseCall.getWhenOperands();
            for (int i = 0; i < whens.size(); i++) {
                if (holdsQuery(whens.get(i))) {
                    whens.set(i, coalesce(whens.get(i), false));
                }
            }
            return caseCall;
        }
        if (!(visited instanceof SqlCall test) || test.operandCount() != 1 || !holdsQuery(test.operand(0))) {
            return visited;
        }
        SqlNode e = test.operand(0);
        SqlParserPos pos = test.getParserPosition();
        return switch (test.getKind()) {
            case IS_TRUE -> coalesce(e, false);
            case IS_NOT_FALSE -> coalesce(e, true);
            case IS_NOT_TRUE -> SqlStdOperatorTable.NOT.createCall(pos, coalesce(e, false));
            case IS_FALSE -> SqlStdOperatorTable.NOT.createCall(pos, coalesce(e, true));
            default -> visited;
        };
    }

    private static SqlNode coalesce(SqlNode e, boolean whenUnknown) {
        SqlParserPos pos = e.getParserPosition();
        return SqlStdOperatorTable.COALESCE.createCall(pos, e, SqlLiteral.createBoolean(whenUnknown, pos));
    }

    private static boolean holdsQuery(SqlNode e) {
        try {
            e.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall call) {
                    if (call.getKind() == SqlKind.SELECT || call.getKind().belongsTo(SqlKind.QUERY)) {
                        throw Util.FoundOne.NULL;
                    }
                    return super.visit(call);
                }
            });
            return false;
        } catch (Util.FoundOne found) {
            return true;
        }
    }
}
