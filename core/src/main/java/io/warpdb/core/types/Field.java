package io.warpdb.core.types;

/** A named column of a schema. */
public record Field(String name, DataType type) {
    @Override
    public String toString() {
        return name + " " + type;
    }
}
