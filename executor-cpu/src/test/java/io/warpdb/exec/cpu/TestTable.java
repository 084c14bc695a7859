package io.warpdb.exec.cpu;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * An in-memory table for tests: batches of Java rows (Integer/Long, BigDecimal, Double, String,
 * Boolean, LocalDate or Date, null), turned into Arrow batches from the scan's allocator. With
 * {@link #nonUniqueDictionaries()} every string column gets a dictionary in which each value
 * appears twice (rows alternate between the copies) plus an unused entry, as dictionaries derived
 * entry-wise may look; operators must then compare values, never codes.
 */
public final class TestTable implements TableSource {
    private final String name;
    private final Schema schema;
    private final List<List<List<Object>>> batches = new ArrayList<>();
    private boolean nonUnique;

    private TestTable(String name, Schema schema) {
        this.name = name;
        this.schema = schema;
    }

    /** A table with columns given as name, type, name, type, ... */
    public static TestTable of(String name, Object... namesAndTypes) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(new Field((String) namesAndTypes[i], (DataType) namesAndTypes[i + 1]));
        }
        return new TestTable(name, new Schema(fields));
    }

    /** Appends one batch holding these rows (none: an empty batch). */
    @SafeVarargs
    public final TestTable batch(List<Object>... rows) {
        List<List<Object>> batch = new ArrayList<>();
        for (List<Object> row : rows) {
            batch.add(row);
        }
        batches.add(batch);
        return this;
    }

    /** Appends the rows split into batches of the given sizes (0 for an empty batch). */
    public TestTable batches(List<List<Object>> rows, int... sizes) {
        int at = 0;
        for (int size : sizes) {
            batches.add(rows.subList(at, at + size));
            at += size;
        }
        if (at != rows.size()) {
            throw new IllegalArgumentException("sizes cover " + at + " of " + rows.size() + " rows");
        }
        return this;
    }

    public TestTable nonUniqueDictionaries() {
        nonUnique = true;
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return batches.stream().mapToLong(List::size).sum();
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        Schema out = schema.select(columns);
        List<Batch> result = new ArrayList<>();
        try {
            for (List<List<Object>> rows : batches) {
                result.add(toBatch(out, columns, rows, allocator));
            }
        } catch (RuntimeException e) {
            result.forEach(Batch::close);
            throw e;
        }
        return Batches.of(out, result);
    }

    /** One part per batch, made when first pulled, as storage's segments are decoded (parallel scans read them on several threads). */
    @Override
    public List<BatchStream> scanParts(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        Schema out = schema.select(columns);
        List<BatchStream> parts = new ArrayList<>();
        for (List<List<Object>> rows : batches) {
            parts.add(new BatchStream() {
                private boolean pulled;

                @Override
                public Schema schema() {
                    return out;
                }

                @Override
                public Batch next() {
                    if (pulled) {
                        return null;
                    }
                    pulled = true;
                    return toBatch(out, columns, rows, allocator);
                }

                @Override
                public void close() {
                }
            });
        }
        return parts;
    }

    private Batch toBatch(Schema out, List<Integer> columns, List<List<Object>> rows, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            DataType type = out.type(c);
            int source = columns.get(c);
            FieldVector v = Vectors.allocate(out.field(c).name(), type, rows.size(), allocator);
            vectors.add(v);
            StringDictionary dictionary = null;
            List<String> distinct = new ArrayList<>();
            if (type.kind().isString()) {
                LinkedHashSet<String> values = new LinkedHashSet<>();
                rows.forEach(r -> {
                    if (r.get(source) != null) {
                        values.add((String) r.get(source));
                    }
                });
                distinct.addAll(values);
                dictionary = dictionaryOf(distinct);
            }
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r).get(source);
                Object normalized = value == null ? null : type.kind().isString()
                        ? codeOf(distinct, (String) value, r) : normalize(value, type);
                Vectors.setNormalized(v, type, r, normalized);
            }
            v.setValueCount(rows.size());
            dictionaries.add(dictionary);
        }
        return new Batch(out, vectors, dictionaries, rows.size());
    }

    /** Unique: the values in order. Non-unique: an unused entry, then each value twice. */
    private StringDictionary dictionaryOf(List<String> distinct) {
        if (!nonUnique) {
            return StringDictionary.ofDistinct(distinct);
        }
        List<String> entries = new ArrayList<>();
        entries.add("<unused>");
        for (String s : distinct) {
            entries.add(s);
            entries.add(s);
        }
        return StringDictionary.ofValues(entries.toArray(new String[0]));
    }

    private int codeOf(List<String> distinct, String value, int row) {
        int index = distinct.indexOf(value);
        return nonUnique ? 1 + 2 * index + (row % 2) : index;
    }

    static Object normalize(Object value, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> value;
            case INTEGER, BIGINT -> ((Number) value).longValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> type.isWideDecimal() ? ((BigDecimal) value).setScale(type.scale()).unscaledValue()
                    : ((BigDecimal) value).setScale(type.scale()).unscaledValue().longValueExact();
            case DATE -> value instanceof Date d ? d.toLocalDate().toEpochDay() : ((LocalDate) value).toEpochDay();
            case TIMESTAMP -> io.warpdb.core.value.Timestamps.of((java.time.LocalDateTime) value);
            case INTERVAL -> ((Number) value).longValue();
            case VARCHAR, CHAR -> throw new IllegalArgumentException("strings are coded by the caller");
        };
    }
}
