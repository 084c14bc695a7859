package io.warpdb.sql.calcite;

import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;

/**
 * Calcite's validator with HAVING checked against the GROUP BY list on equal terms. Calcite 1.42
 * checks that HAVING uses only grouped expressions before it coerces HAVING's operands, while
 * the GROUP BY expressions are coerced by then: {@code GROUP BY 3 <= d HAVING 3 <= d} over a
 * DOUBLE {@code d} compares {@code CAST(3 AS DOUBLE) <= d} with {@code 3 <= d} and reports
 * "Expression 'd' is not being grouped". When that check fails, HAVING's type is derived (which
 * coerces it as the GROUP BY list was) and the check runs again.
 */
final class WarpValidator extends SqlValidatorImpl {
    WarpValidator(SqlOperatorTable operators, SqlValidatorCatalogReader catalogReader, RelDataTypeFactory typeFactory,
            Config config) {
        super(operators, catalogReader, typeFactory, config);
    }

    @Override
    protected void validateHavingClause(SqlSelect select) {
        try {
            super.validateHavingClause(select);
        } catch (CalciteContextException e) {
            SqlNode having = select.getHaving();
            if (having == null || !String.valueOf(e.getMessage()).contains("is not being grouped")) {
                throw e;
            }
            deriveType(getSelectScope(select), having);
            super.validateHavingClause(select);
        }
    }
}
