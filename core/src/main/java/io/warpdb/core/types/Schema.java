package io.warpdb.core.types;

import java.util.ArrayList;
import java.util.List;

/** An ordered, immutable list of fields. */
public record Schema(List<Field> fields) {
    public Schema {
        fields = List.copyOf(fields);
    }

    public static Schema of(Field... fields) {
        return new Schema(List.of(fields));
    }

    public int size() {
        return fields.size();
    }

    public Field field(int i) {
        return fields.get(i);
    }

    public DataType type(int i) {
        return fields.get(i).type();
    }

    /** Index of the field with this name (case-insensitive), or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The fields at the given positions, in that order. */
    public Schema select(List<Integer> columns) {
        List<Field> out = new ArrayList<>(columns.size());
        for (int c : columns) {
            out.add(fields.get(c));
        }
        return new Schema(out);
    }

    /** This schema's fields followed by the other's. */
    public Schema concat(Schema other) {
        List<Field> out = new ArrayList<>(fields);
        out.addAll(other.fields);
        return new Schema(out);
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
