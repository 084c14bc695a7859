package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;

/**
 * The labels of a query's result columns as PostgreSQL gives them, instead of Calcite's
 * {@code EXPR$1}: an alias as written; a column its name ({@code n_name}); a function call the
 * function's name in lower case ({@code count} for COUNT(*) too, {@code sum}, {@code upper});
 * a CAST its operand's label; CASE {@code case}; any other expression {@code ?column?}; a VALUES
 * column {@code column1}, {@code column2}, ... Two columns may have the same label (Calcite
 * would have renamed the second {@code sum0}). A set operation takes the labels of its first query.
 */
public final class ResultLabels {
    private static final String ANONYMOUS = "?column?";

    /**
     * The label of each item of the select list as written, null for a star; null when the query
     * has no select list. Read before validation, which expands stars, renames duplicate aliases and
     * rewrites some calls (COALESCE becomes CASE).
     */
    private final List<String> written;

    private ResultLabels(List<String> written) {
        this.written = written;
    }

    /** Reads the labels written in {@code parsed}, which validation is about to change in place. */
    public static ResultLabels before(SqlNode parsed) {
        SqlNodeList items = selectList(parsed);
        if (items == null) {
            return new ResultLabels(null);
        }
        List<String> labels = new ArrayList<>();
        for (SqlNode item : items) {
            labels.add(item instanceof SqlIdentifier id && id.isStar() ? null : itemLabel(item));
        }
        return new ResultLabels(labels);
    }

    /** The labels of {@code validated}'s columns, whose row type is {@code rowType}. */
    public List<String> of(SqlNode validated, RelDataType rowType) {
        List<String> calcite = rowType.getFieldList().stream().map(RelDataTypeField::getName).toList();
        if (query(validated).getKind() == SqlKind.VALUES) {
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= calcite.size(); i++) {
                labels.add("column" + i);
            }
            return labels;
        }
        if (written == null) {
            return calcite;
        }
        long stars = written.stream().filter(Objects::isNull).count();
        if (stars > 1 || written.size() - stars > calcite.size()) {
            return calcite; // where each star's columns are is not known here
        }
        // The one star stands for the columns the others leave; they keep their names.
        int starColumns = calcite.size() - (written.size() - (int) stars);
        List<String> labels = new ArrayList<>(calcite.size());
        for (String label : written) {
            if (label != null) {
                labels.add(label);
            } else {
                labels.addAll(calcite.subList(labels.size(), labels.size() + starColumns));
            }
        }
        return labels;
    }

    private static String itemLabel(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(1).toString() : label(item);
    }

    private static String label(SqlNode e) {
        if (e instanceof SqlIdentifier id) {
            return id.names.get(id.names.size() - 1);
        }
        if (!(e instanceof SqlCall call)) {
            return ANONYMOUS;
        }
        if (call.getKind() == SqlKind.CAST) {
            return label(call.operand(0));
        }
        if (call.getKind() == SqlKind.CASE) {
            return "case";
        }
        if (call.getOperator() instanceof SqlFunction || call.getKind() == SqlKind.EXTRACT) {
            return call.getOperator().getName().toLowerCase(Locale.ROOT);
        }
        return ANONYMOUS;
    }

    /** The select list whose items name the result's columns, or null when there is none. */
    private static SqlNodeList selectList(SqlNode node) {
        SqlNode query = query(node);
        return query instanceof SqlSelect select ? select.getSelectList() : null;
    }

    /** The query that shapes the result: inside ORDER BY and WITH, the first of a set operation. */
    private static SqlNode query(SqlNode node) {
        if (node instanceof SqlOrderBy orderBy) {
            return query(orderBy.query);
        }
        if (node instanceof SqlWith with) {
            return query(with.body);
        }
        if (node instanceof SqlBasicCall call && call.getKind().belongsTo(SqlKind.SET_QUERY)) {
            return query(call.operand(0));
        }
        return node;
    }
}
