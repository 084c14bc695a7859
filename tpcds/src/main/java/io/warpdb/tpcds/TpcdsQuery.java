package io.warpdb.tpcds;

import io.warpdb.tpch.AnswerChecker;
import io.warpdb.tpch.OrderByClause;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.SuiteQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One of the 99 TPC-DS queries with its qualification parameters; {@code orderBy} is its
 * top-level ORDER BY and LIMIT, {@code tables} the TPC-DS tables it reads.
 * <p>
 * Its answer is compared with the reference's on the rows' order only as far as the ORDER BY
 * decides it: the sort items that name a result column (by its name, possibly qualified, or by
 * position), up to the first that does not (an expression), are the sort keys; rows that tie on
 * them may come in any order. When a LIMIT may have cut the answer, the rows of its last group
 * of ties are any of the tied rows, and only their keys are compared.
 */
public record TpcdsQuery(int number, String sql, OrderByClause orderBy, List<TpcdsSchema.Table> tables) implements SuiteQuery {
    private static final Pattern POSITION = Pattern.compile("\\d+");
    private static final Pattern NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*\\.)?([A-Za-z_][A-Za-z0-9_]*)");

    public TpcdsQuery {
        tables = List.copyOf(tables);
    }

    @Override
    public AnswerChecker.Verdict check(ResultTable expected, ResultTable actual) {
        boolean limitCut = orderBy.limit().isPresent() && expected.rowCount() >= orderBy.limit().getAsLong();
        return AnswerChecker.check(expected, actual, sortKeys(expected.columns()), limitCut);
    }

    /** The positions of the result columns the ORDER BY sorts by, up to its first item that is no result column. */
    int[] sortKeys(List<String> columns) {
        List<Integer> keys = new ArrayList<>();
        for (String item : orderBy.items()) {
            int column = resultColumn(item, columns);
            if (column < 0) {
                break;
            }
            keys.add(column);
        }
        return keys.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The result column an ORDER BY item names, or -1: a position, or a name (its qualifier dropped) that one column has. */
    private static int resultColumn(String item, List<String> columns) {
        if (POSITION.matcher(item).matches()) {
            int position = Integer.parseInt(item);
            return position >= 1 && position <= columns.size() ? position - 1 : -1;
        }
        var name = NAME.matcher(item);
        if (!name.matches()) {
            return -1;
        }
        int found = -1;
        for (int c = 0; c < columns.size(); c++) {
            if (columns.get(c).equalsIgnoreCase(name.group(2))) {
                if (found >= 0) {
                    return -1; // two result columns of this name: which one is meant is not known
                }
                found = c;
            }
        }
        return found;
    }
}
