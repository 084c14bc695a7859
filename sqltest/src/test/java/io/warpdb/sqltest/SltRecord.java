package io.warpdb.sqltest;

import java.util.List;

/** One record of a sqllogictest script: a statement, a query or {@code halt}. */
public sealed interface SltRecord permits SltRecord.Statement, SltRecord.Query, SltRecord.Halt {

    /** 1-based line of the record's header ({@code statement ...}, {@code query ...}). */
    int line();

    /** The {@code skipif}/{@code onlyif} lines in front of the record. */
    List<Condition> conditions();

    /** The record's SQL, or null for {@code halt}. */
    String sql();

    /** Whether the record applies to the named target (executor): all conditions hold. */
    default boolean appliesTo(String target) {
        for (Condition c : conditions()) {
            if (!c.holdsFor(target)) {
                return false;
            }
        }
        return true;
    }

    /** {@code skipif NAME} (onlyIf false) or {@code onlyif NAME} (onlyIf true). */
    record Condition(boolean onlyIf, String name) {
        public boolean holdsFor(String target) {
            boolean same = name.equalsIgnoreCase(target);
            return onlyIf == same;
        }

        @Override
        public String toString() {
            return (onlyIf ? "onlyif " : "skipif ") + name;
        }
    }

    /**
     * {@code statement ok} or {@code statement error}. For an error, {@code expectedState} is the
     * SQLSTATE that must be reported (null: any) and {@code expectedMessage} a substring the
     * message must contain, compared case-insensitively (null: any).
     */
    record Statement(int line, List<Condition> conditions, boolean expectError, String sql,
                     String expectedState, String expectedMessage) implements SltRecord {
        public Statement {
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * {@code query <types> [sortmode] [label]}: the result must have one column per type letter
     * and, rendered and sorted as the sort mode says, equal {@code expected}: the lines under
     * {@code ----}, each split at tabs.
     */
    record Query(int line, List<Condition> conditions, String types, SortMode sortMode, String label,
                 String sql, List<List<String>> expected) implements SltRecord {
        public Query {
            conditions = List.copyOf(conditions);
            expected = expected.stream().map(List::copyOf).toList();
        }
    }

    /** {@code halt}: the rest of the file is not run. */
    record Halt(int line, List<Condition> conditions) implements SltRecord {
        public Halt {
            conditions = List.copyOf(conditions);
        }

        @Override
        public String sql() {
            return null;
        }
    }

    enum SortMode {
        /** Rows compared in the order the database returned them. */
        NOSORT,
        /** Rows sorted (on both sides) before comparing. */
        ROWSORT,
        /** All values of all rows sorted as one list before comparing. */
        VALUESORT
    }
}
