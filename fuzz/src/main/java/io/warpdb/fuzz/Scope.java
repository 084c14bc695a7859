package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns an expression may reference at one query level, and the enclosing levels'
 * columns (for correlated sub-queries).
 */
public record Scope(List<Scope.Entry> columns, Scope outer) {
    /**
     * A visible column. {@code table} names the base table it comes from (so that literals can be
     * sampled from its values), or is null for columns of derived tables.
     */
    public record Entry(String qualifier, String name, SqlType type, String table) {
        public ColumnRef ref() {
            return new ColumnRef(qualifier, name, type);
        }
    }

    public static Scope of(List<Entry> columns) {
        return new Scope(List.copyOf(columns), null);
    }

    /** This level's columns followed by {@code other}'s (a join). */
    public Scope plus(Scope other) {
        List<Entry> all = new ArrayList<>(columns);
        all.addAll(other.columns);
        return new Scope(all, outer);
    }

    public Scope withOuter(Scope enclosing) {
        return new Scope(columns, enclosing);
    }

    public List<Entry> ofFamily(SqlType.Family family) {
        return columns.stream().filter(c -> c.type().family() == family).toList();
    }
}
