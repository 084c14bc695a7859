package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The schema of a table to create from a file (COPY ... (CREATE true), {@code warpdb load
 * --create}). Arrow and Parquet files say their types; a CSV file's types are the narrowest
 * that every one of its first {@link #SAMPLE_ROWS} values parses as, and its names come from
 * the header (else c1, c2, ...). Columns are nullable.
 */
public final class SchemaInference {
    /** Rows of a CSV file whose values decide its column types. */
    public static final int SAMPLE_ROWS = 1000;
    private static final int SAMPLE_BYTES = 1 << 20;
    /** Compiled once: {@link String#matches} compiled it for every sampled value, most of a small load's inference. */
    /** The types a CSV column may get, narrowest first (a decimal's place is DOUBLE's, see {@link #csvType}). */
    private static final List<DataType> CANDIDATES = List.of(DataType.BOOLEAN, DataType.INTEGER, DataType.BIGINT, DataType.DATE,
            DataType.TIMESTAMP, DataType.DOUBLE);
    private static final Pattern DECIMAL_DIGITS = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    private SchemaInference() {
    }

    static Schema csv(Path file, CsvDialect dialect) {
        InputFiles.CountingStream counted = InputFiles.open(file);
        try (InputStream in = InputFiles.content(file, counted)) {
            CsvChunker.Chunk chunk = new CsvChunker(in, dialect, SAMPLE_BYTES).next();
            List<String[]> records = chunk == null ? List.of() : new CsvParser(file.toString(), dialect)
                    .records(chunk, SAMPLE_ROWS + 1);
            if (records.isEmpty()) {
                throw new WarpException(SqlState.BAD_COPY_FILE_FORMAT, file + ": no rows to infer a schema from");
            }
            String[] first = records.get(0);
            List<String[]> sample = dialect.header() ? records.subList(1, records.size()) : records;
            List<Field> fields = new ArrayList<>();
            for (int c = 0; c < first.length; c++) {
                String name = dialect.header() && first[c] != null && !first[c].isBlank() ? first[c].strip() : "c" + (c + 1);
                fields.add(new Field(name, csvType(sample, c)));
            }
            return new Schema(fields);
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    /**
     * The narrowest type every sampled value of column {@code c} parses as; VARCHAR when none.
     * The candidates are tried in order, each on the values until one fails it (the next then
     * starts over): a column of dates is never parsed as timestamps, nor integers as doubles,
     * which made inference most of a small load's time.
     */
    private static DataType csvType(List<String[]> sample, int c) {
        List<String> values = new ArrayList<>(sample.size());
        for (String[] record : sample) {
            if (c < record.length && record[c] != null) {
                values.add(record[c]);
            }
        }
        int first = 0;
        for (int v = 0; v < values.size() && first < CANDIDATES.size(); v++) {
            if (!parses(CANDIDATES.get(first), values.get(v))) {
                first++;
                v = -1;
            }
        }
        if (first < CANDIDATES.size() && CANDIDATES.get(first) != DataType.DOUBLE) {
            return CANDIDATES.get(first);
        }
        int scale = 0;
        int integerDigits = 0;
        boolean decimal = true;
        for (String value : values) {
            int point = value.indexOf('.');
            String digits = value.startsWith("-") || value.startsWith("+") ? value.substring(1) : value;
            if (!DECIMAL_DIGITS.matcher(digits).matches()) {
                decimal = false;
                break;
            }
            int dot = digits.indexOf('.');
            scale = Math.max(scale, point < 0 ? 0 : digits.length() - dot - 1);
            integerDigits = Math.max(integerDigits, dot < 0 ? digits.length() : dot);
        }
        if (decimal && scale > 0 && integerDigits + scale <= DataType.MAX_DECIMAL_PRECISION) {
            return DataType.decimal(DataType.MAX_DECIMAL_PRECISION, scale); // exact, as money columns need
        }
        return first < CANDIDATES.size() ? DataType.DOUBLE : DataType.VARCHAR;
    }

    private static boolean parses(DataType type, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        try {
            switch (type.kind()) {
                case BOOLEAN -> {
                    return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
                }
                case INTEGER -> TextValueParser.parseInteger(b, 0, b.length);
                case BIGINT -> TextValueParser.parseBigint(b, 0, b.length);
                case DATE -> TextValueParser.parseDate(b, 0, b.length);
                case TIMESTAMP -> TextValueParser.parseTimestamp(value);
                case DOUBLE -> TextValueParser.parseDouble(value);
                default -> throw new IllegalArgumentException("not a candidate: " + type);
            }
            return true;
        } catch (BadValueException e) {
            return false;
        }
    }

    static Schema arrow(Path file, org.apache.arrow.vector.types.pojo.Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
            fields.add(new Field(f.getName(), arrowType(file, f)));
        }
        return new Schema(fields);
    }

    private static DataType arrowType(Path file, org.apache.arrow.vector.types.pojo.Field field) {
        ArrowType t = field.getType();
        if (t instanceof ArrowType.Int i) {
            int bits = i.getIsSigned() ? i.getBitWidth() : i.getBitWidth() + 1; // an unsigned value needs a sign bit more
            return bits <= DataType.TINYINT_BITS ? DataType.TINYINT : bits <= DataType.SMALLINT_BITS ? DataType.SMALLINT
                    : bits <= Integer.SIZE ? DataType.INTEGER : DataType.BIGINT;
        }
        if (t instanceof ArrowType.FloatingPoint f) {
            return f.getPrecision() == FloatingPointPrecision.DOUBLE ? DataType.DOUBLE : DataType.REAL;
        }
        if (t instanceof ArrowType.Decimal d && d.getPrecision() <= DataType.MAX_WIDE_DECIMAL_PRECISION) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        }
        if (t instanceof ArrowType.Date) {
            return DataType.DATE;
        }
        if (t instanceof ArrowType.Timestamp ts && ts.getTimezone() == null) {
            return DataType.TIMESTAMP;
        }
        if (t instanceof ArrowType.Bool) {
            return DataType.BOOLEAN;
        }
        if (t instanceof ArrowType.Utf8 || t instanceof ArrowType.LargeUtf8 || t instanceof ArrowType.Utf8View) {
            return DataType.VARCHAR;
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, file + ": column " + field.getName() + " has Arrow type " + t
                + ", which WarpDB cannot store; create the table first with the types to convert to");
    }
}
