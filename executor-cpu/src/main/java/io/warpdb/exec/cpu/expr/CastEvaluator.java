package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.TextValues;

/**
 * CAST to a non-string type: between numeric types (exact rescaling and DOUBLE to exact round
 * HALF_UP; the declared TINYINT, SMALLINT or INTEGER range or DECIMAL precision is checked, 22003;
 * REAL rounds to float32), parsing strings
 * (22P02 for bad text; {@link ExprCompiler} runs this once per dictionary entry), DATE to
 * TIMESTAMP and back, and the identity on DATE, TIMESTAMP and BOOLEAN. Casts to strings are {@link StringFunctionEvaluator}s or
 * {@link DictionaryMapEvaluator}s.
 */
final class CastEvaluator implements Evaluator {
    private final Evaluator arg;
    private final DataType type;

    CastEvaluator(Evaluator arg, DataType type) {
        if (!isSupported(arg.type(), type)) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "cannot cast " + arg.type().sqlName() + " to " + type.sqlName());
        }
        this.arg = arg;
        this.type = type;
    }

    static boolean isSupported(DataType from, DataType to) {
        TypeKind f = from.kind();
        TypeKind t = to.kind();
        return !t.isString() && (f.isString() || f == t || f.isNumeric() && t.isNumeric() || f.isDatetime() && t.isDatetime());
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = arg.evaluate(input);
        TypeKind from = a.type().kind();
        if (from.isString()) {
            return parse(a);
        }
        if (from != type.kind() && from.isDatetime()) {
            return betweenDatetimes(a);
        }
        if (type.kind() == TypeKind.DOUBLE) {
            return type.isReal() ? toReal(a) : Column.ofDoubles(type, a.toDoubles(), a.nulls());
        }
        if (from == TypeKind.DOUBLE) {
            return fromDouble(a);
        }
        if (!type.kind().isExactNumeric()) {
            return a.withType(type); // DATE to DATE, TIMESTAMP to TIMESTAMP, BOOLEAN to BOOLEAN
        }
        int fromScale = Decimals.scaleOf(a.type());
        int toScale = Decimals.scaleOf(type);
        long[] x = a.longs();
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Decimals.checkDeclared(Decimals.rescale(x[i], fromScale, toScale), type);
        }
        return Column.ofLongs(type, out, a.nulls());
    }

    /** DATE to TIMESTAMP (midnight) or TIMESTAMP to DATE (the day it falls on). */
    private Column betweenDatetimes(Column a) {
        boolean toTimestamp = type.kind() == TypeKind.TIMESTAMP;
        long[] x = a.longs();
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            if (!a.isNull(i)) {
                out[i] = toTimestamp ? Timestamps.ofEpochDay(x[i]) : Dates.checkDate(Timestamps.epochDay(x[i]));
            }
        }
        return Column.ofLongs(type, out, a.nulls());
    }

    /** Rounded to float32; 22003 for a finite value beyond REAL's range. */
    private Column toReal(Column a) {
        double[] x = a.toDoubles();
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            if (!a.isNull(i)) {
                out[i] = type.convertToDeclared(x[i]);
            }
        }
        return Column.ofDoubles(type, out, a.nulls());
    }

    private Column fromDouble(Column a) {
        int scale = Decimals.scaleOf(type);
        double[] x = a.doubles();
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            if (!a.isNull(i)) {
                out[i] = Decimals.checkDeclared(Decimals.fromDouble(x[i], scale), type);
            }
        }
        return Column.ofLongs(type, out, a.nulls());
    }

    private Column parse(Column a) {
        int rows = a.size();
        if (type.kind() == TypeKind.DOUBLE) {
            double[] out = new double[rows];
            for (int i = 0; i < rows; i++) {
                if (!a.isNull(i)) {
                    out[i] = TextValues.parseDouble(a.string(i), type);
                }
            }
            return Column.ofDoubles(type, out, a.nulls());
        }
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (!a.isNull(i)) {
                out[i] = TextValues.parseLong(a.string(i), type);
            }
        }
        return Column.ofLongs(type, out, a.nulls());
    }
}
