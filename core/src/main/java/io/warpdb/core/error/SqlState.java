package io.warpdb.core.error;

/** SQLSTATE codes WarpDB reports (PostgreSQL's spelling of the SQL standard classes). */
public enum SqlState {
    SYNTAX_ERROR("42601"),
    UNDEFINED_TABLE("42P01"),
    UNDEFINED_COLUMN("42703"),
    UNDEFINED_FUNCTION("42883"),
    DUPLICATE_TABLE("42P07"),
    DUPLICATE_COLUMN("42701"),
    DATATYPE_MISMATCH("42804"),
    INVALID_SQL_STATEMENT("42000"),
    DIVISION_BY_ZERO("22012"),
    NUMERIC_VALUE_OUT_OF_RANGE("22003"),
    INVALID_TEXT_REPRESENTATION("22P02"),
    INVALID_PARAMETER_VALUE("22023"),
    STRING_DATA_RIGHT_TRUNCATION("22001"),
    CARDINALITY_VIOLATION("21000"),
    NOT_NULL_VIOLATION("23502"),
    FEATURE_NOT_SUPPORTED("0A000"),
    QUERY_CANCELED("57014"),
    OUT_OF_MEMORY("53200"),
    INSUFFICIENT_RESOURCES("53000"),
    CONNECTION_EXCEPTION("08000"),
    UNABLE_TO_CONNECT("08001"),
    CONNECTION_FAILURE("08006"),
    INVALID_AUTHORIZATION("28000"),
    INVALID_PASSWORD("28P01"),
    INTERNAL_ERROR("XX000");

    private final String code;

    SqlState(String code) {
        this.code = code;
    }

    /** The five-character SQLSTATE. */
    public String code() {
        return code;
    }
}
