package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * The functions SQL can name: Calcite's standard operators plus the common functions of
 * PostgreSQL and DuckDB that the standard lacks (concat, strpos, left, lpad, split_part,
 * regexp_replace, datediff, date_trunc, ...), typed as DuckDB types them. SIGN and ROUND replace Calcite's
 * own: SIGN is an INTEGER, and ROUND (like TRUNC) of a DECIMAL keeps only the digits asked for
 * ({@code ROUND(2.567, 2)} is DECIMAL(4,2) 2.57, not 2.570); + and - also add days to dates
 * ({@link DateIntegerArithmetic}).
 */
public final class WarpOperatorTable {
    private static final SqlReturnTypeInference VARCHAR = ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.TO_NULLABLE);

    static final SqlFunction CONCAT = function("CONCAT", ReturnTypes.explicit(SqlTypeName.VARCHAR),
            OperandTypes.variadic(SqlOperandCountRanges.from(1)), SqlFunctionCategory.STRING);
    static final SqlFunction STRPOS = function("STRPOS", ReturnTypes.INTEGER_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction LENGTH = function("LENGTH", ReturnTypes.INTEGER_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction LEFT = stringFunction("LEFT", SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER);
    static final SqlFunction RIGHT = stringFunction("RIGHT", SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER);
    static final SqlFunction LPAD = stringFunction("LPAD", SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER);
    static final SqlFunction RPAD = stringFunction("RPAD", SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER);
    static final SqlFunction SPLIT_PART = stringFunction("SPLIT_PART", SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER,
            SqlTypeFamily.INTEGER);
    static final SqlFunction LTRIM = function("LTRIM", VARCHAR, optionalSecond(SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction RTRIM = function("RTRIM", VARCHAR, optionalSecond(SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction REGEXP_REPLACE = function("REGEXP_REPLACE", VARCHAR,
            OperandTypes.family(List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER,
                    SqlTypeFamily.CHARACTER), i -> i == 3), SqlFunctionCategory.STRING);
    static final SqlFunction REGEXP_MATCHES = function("REGEXP_MATCHES", ReturnTypes.BOOLEAN_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction STARTS_WITH = function("STARTS_WITH", ReturnTypes.BOOLEAN_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    static final SqlFunction SIGN = function("SIGN", ReturnTypes.INTEGER_NULLABLE,
            OperandTypes.family(SqlTypeFamily.NUMERIC), SqlFunctionCategory.NUMERIC);
    static final SqlFunction ROUND = function("ROUND", WarpOperatorTable::roundedType,
            optionalSecond(SqlTypeFamily.NUMERIC), SqlFunctionCategory.NUMERIC);
    static final SqlFunction TRUNC = function("TRUNC", WarpOperatorTable::roundedType,
            optionalSecond(SqlTypeFamily.NUMERIC), SqlFunctionCategory.NUMERIC);
    /**
     * datediff('day', start, end): the days from start to end. (DuckDB's other spelling, date_diff,
     * is taken by Calcite's grammar for BigQuery's DATE_DIFF(end, start, unit).)
     */
    static final SqlFunction DATEDIFF = function("DATEDIFF", ReturnTypes.BIGINT_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATE, SqlTypeFamily.DATE), SqlFunctionCategory.TIMEDATE);
    /** date_add(date, days). */
    static final SqlFunction DATE_ADD = function("DATE_ADD", ReturnTypes.DATE_NULLABLE,
            OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER), SqlFunctionCategory.TIMEDATE);
    /** date_trunc('unit', timestamp or date): a TIMESTAMP, as in DuckDB. */
    static final SqlFunction DATE_TRUNC = function("DATE_TRUNC",
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP).andThen(SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME), SqlFunctionCategory.TIMEDATE);

    private static final List<SqlOperator> OPERATORS = List.of(CONCAT, STRPOS, LENGTH, LEFT, RIGHT, LPAD, RPAD, SPLIT_PART, LTRIM,
            RTRIM, REGEXP_REPLACE, REGEXP_MATCHES, STARTS_WITH, SIGN, ROUND, TRUNC, DATEDIFF, DATE_ADD, DATE_TRUNC,
            DateIntegerArithmetic.PLUS, DateIntegerArithmetic.MINUS);
    private static final Set<String> REPLACED_FUNCTIONS = Set.of("SIGN", "ROUND");

    /** Calcite's standard operators, those replaced here left out, then WarpDB's. */
    public static final SqlOperatorTable INSTANCE = SqlOperatorTables.chain(new StandardWithoutReplaced(),
            SqlOperatorTables.of(OPERATORS));

    /** Calcite's standard table as it looks its operators up (COUNT(*) and other special forms), less those replaced. */
    private static final class StandardWithoutReplaced implements SqlOperatorTable {
        private final SqlOperatorTable standard = SqlStdOperatorTable.instance();

        private static boolean kept(SqlOperator op) {
            return !(op instanceof SqlFunction && REPLACED_FUNCTIONS.contains(op.getName()))
                    && op != SqlStdOperatorTable.PLUS && op != SqlStdOperatorTable.MINUS;
        }

        @Override
        public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
                List<SqlOperator> operators, SqlNameMatcher nameMatcher) {
            List<SqlOperator> found = new ArrayList<>();
            standard.lookupOperatorOverloads(name, category, syntax, found, nameMatcher);
            found.stream().filter(StandardWithoutReplaced::kept).forEach(operators::add);
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            return standard.getOperatorList().stream().filter(StandardWithoutReplaced::kept).toList();
        }
    }

    private WarpOperatorTable() {
    }

    private static SqlFunction function(String name, SqlReturnTypeInference returnType, SqlOperandTypeChecker operands,
            SqlFunctionCategory category) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, returnType, null, operands, category);
    }

    private static SqlFunction stringFunction(String name, SqlTypeFamily... operands) {
        return function(name, VARCHAR, OperandTypes.family(operands), SqlFunctionCategory.STRING);
    }

    /** (x) or (x, y): x of {@code first}, y an integer (ROUND's digits) or, for strings, characters. */
    private static SqlOperandTypeChecker optionalSecond(SqlTypeFamily first) {
        SqlTypeFamily second = first == SqlTypeFamily.NUMERIC ? SqlTypeFamily.INTEGER : SqlTypeFamily.CHARACTER;
        return OperandTypes.family(List.of(first, second), i -> i == 1);
    }

    /**
     * ROUND/TRUNC(x[, digits]): x's type, except that a DECIMAL keeps at most {@code digits}
     * fraction digits (none when negative or absent), as in DuckDB; digits must be a constant.
     */
    private static RelDataType roundedType(SqlOperatorBinding binding) {
        RelDataType x = binding.getOperandType(0);
        RelDataTypeFactory factory = binding.getTypeFactory();
        boolean nullable = binding.collectOperandTypes().stream().anyMatch(RelDataType::isNullable);
        if (x.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return factory.createTypeWithNullability(x, nullable);
        }
        Integer digits = binding.getOperandCount() < 2 ? Integer.valueOf(0) : binding.getOperandLiteralValue(1, Integer.class);
        int scale = digits == null ? x.getScale() : Math.max(0, Math.min(digits, x.getScale()));
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DECIMAL, x.getPrecision(), scale), nullable);
    }
}
