package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Refuses window functions, which WarpDB cannot run yet, naming the call as the user wrote it
 * ({@code SUM(...) OVER (...)}, SQLSTATE 0A000). The check runs on the validated statement:
 * after conversion a windowed SUM or AVG has become COUNT and SUM0 windows, and an error there
 * would name functions the user never wrote.
 */
final class WindowCalls extends SqlShuttle {
    static void refuse(SqlNode validated) {
        validated.accept(new WindowCalls());
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.OVER) {
            String function = call.operand(0) instanceof SqlCall windowed ? windowed.getOperator().getName() : call.operand(0).toString();
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "window functions are not supported yet: " + function + "(...) OVER (...)");
        }
        return super.visit(call);
    }
}
