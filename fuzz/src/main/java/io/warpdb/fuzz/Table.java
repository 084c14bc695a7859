package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Literal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A generated table: its columns and its rows (values as {@link Literal} describes them). */
public record Table(String name, List<Column> columns, List<List<Object>> rows) {
    /** Rows per INSERT statement. */
    static final int INSERT_BATCH = 25;

    public Table withRows(List<List<Object>> newRows) {
        return new Table(name, columns, newRows);
    }

    /** The table without column {@code index} (and its values). */
    public Table withoutColumn(int index) {
        List<Column> cols = new ArrayList<>(columns);
        cols.remove(index);
        List<List<Object>> newRows = new ArrayList<>();
        for (List<Object> r : rows) {
            List<Object> row = new ArrayList<>(r);
            row.remove(index);
            newRows.add(row);
        }
        return new Table(name, cols, newRows);
    }

    public String createStatement() {
        return "CREATE TABLE " + name + " ("
                + columns.stream().map(c -> c.name() + " " + c.type().sql()).collect(Collectors.joining(", ")) + ")";
    }

    /** INSERT ... VALUES statements of up to {@link #INSERT_BATCH} rows each (none for an empty table). */
    public List<String> insertStatements() {
        List<String> out = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += INSERT_BATCH) {
            List<List<Object>> batch = rows.subList(from, Math.min(rows.size(), from + INSERT_BATCH));
            out.add("INSERT INTO " + name + " VALUES " + batch.stream().map(this::tuple).collect(Collectors.joining(", ")));
        }
        return out;
    }

    private String tuple(List<Object> row) {
        List<String> values = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            Object v = row.get(c);
            values.add(v == null ? "NULL" : Literal.sql(v, columns.get(c).type()));
        }
        return "(" + String.join(", ", values) + ")";
    }
}
