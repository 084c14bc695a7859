package io.warpdb.fuzz;

import io.warpdb.fuzz.ExpressionGenerator.Context;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.CommonTableExpression;
import io.warpdb.fuzz.ast.DerivedTable;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.Exprs;
import io.warpdb.fuzz.ast.From;
import io.warpdb.fuzz.ast.Join;
import io.warpdb.fuzz.ast.OrderKey;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SetOperation;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.SqlType.Kind;
import io.warpdb.fuzz.ast.TableRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random queries over a {@link Dataset}, built as ASTs: SELECTs with joins of every kind
 * (including self-joins and joins of grouped or filtered derived tables over the same table),
 * WHERE, GROUP BY, HAVING, DISTINCT, aggregates with DISTINCT and FILTER, ORDER BY with LIMIT
 * and OFFSET, WITH, set operations and sub-queries (scalar, EXISTS, IN; correlated or not).
 * Table aliases are unique within everything one generator builds.
 */
public final class QueryGenerator {
    /** How many levels of sub-queries may nest in expressions. */
    private static final int SUBQUERY_DEPTH = 2;
    /** How deep expressions nest. */
    private static final int EXPRESSION_DEPTH = 3;

    /** The shapes of a SELECT. */
    public enum Shape { PLAIN, GROUPED, AGGREGATE }

    /**
     * A FROM clause, the columns it offers, and conditions that belong in the WHERE clause (the
     * join conditions of comma joins), or null.
     */
    public record Source(From from, Scope scope, Expr where) {
    }

    private final Random random;
    private final Dataset dataset;
    private final ExpressionGenerator expressions;
    /** The WITH queries the FROM items being generated may name. */
    private final List<CommonTableExpression> visibleCtes = new ArrayList<>();
    private int aliases;

    public QueryGenerator(Random random, Dataset dataset) {
        this.random = random;
        this.dataset = dataset;
        this.expressions = new ExpressionGenerator(random, dataset, this);
    }

    /** A random query for the differential oracle. */
    public Query query() {
        if (random.nextInt(7) == 0) {
            return setOperation(0);
        }
        List<CommonTableExpression> with = new ArrayList<>();
        if (random.nextInt(8) == 0) {
            Source src = source(null, 1);
            with.add(new CommonTableExpression("w" + (++aliases), select(src, randomShape(), null, 1, null)));
        }
        visibleCtes.addAll(with);
        Select s = select(source(null, 1), randomShape(), null, 0, null);
        visibleCtes.clear();
        return order(s.withCtes(with));
    }

    private Shape randomShape() {
        int r = random.nextInt(20);
        return r < 11 ? Shape.PLAIN : r < 17 ? Shape.GROUPED : Shape.AGGREGATE;
    }

    /** {@code left op right}, the right side producing the left side's column kinds. */
    private Query setOperation(int depth) {
        Query left = depth < 1 && random.nextInt(5) == 0 ? setOperation(depth + 1)
                : select(source(null, 1), random.nextInt(3) == 0 ? Shape.GROUPED : Shape.PLAIN, null, 1, null);
        List<Kind> kinds = left.columnTypes().stream().map(SqlType::kind).toList();
        Select right = select(source(null, 1), random.nextInt(3) == 0 ? Shape.GROUPED : Shape.PLAIN, kinds, 1, null);
        SetOperation.Op op = SetOperation.Op.values()[random.nextInt(3)];
        return new SetOperation(op, random.nextInt(3) == 0, left, right);
    }

    /**
     * A SELECT over {@code src}. {@code kinds} fixes the kinds of the result columns (for the right
     * side of a set operation), or is null. {@code outer} is the enclosing query's scope, for
     * correlated sub-queries.
     */
    public Select select(Source src, Shape shape, List<Kind> kinds, int depth, Scope outer) {
        Scope scope = outer == null ? src.scope() : src.scope().withOuter(outer);
        int subqueries = depth < SUBQUERY_DEPTH ? SUBQUERY_DEPTH - depth : 0;
        Context rows = new Context(scope, null, subqueries, EXPRESSION_DEPTH);
        Expr where = and(src.where(), random.nextInt(10) < 6 ? expressions.predicate(rows) : null);
        return switch (shape) {
            case PLAIN -> {
                Select s = Select.of(items(rows, kinds), src.from()).withWhere(where);
                yield random.nextInt(7) == 0 ? s.withDistinct(true) : s;
            }
            case AGGREGATE -> Select.of(items(new Context(scope, List.of(), 0, 2), kinds), src.from()).withWhere(where);
            case GROUPED -> {
                List<Expr> keys = groupKeys(src.scope());
                Context grouped = new Context(scope, keys, 0, 2);
                Select s = Select.of(items(grouped, kinds), src.from()).withWhere(where).withGroupBy(keys);
                yield random.nextInt(5) < 2 ? s.withHaving(expressions.predicate(grouped)) : s;
            }
        };
    }

    /** 1-3 grouping keys: mostly columns, sometimes expressions over them. */
    public List<Expr> groupKeys(Scope scope) {
        List<Expr> keys = new ArrayList<>();
        int n = 1 + random.nextInt(Math.min(3, Math.max(1, scope.columns().size())));
        List<Scope.Entry> columns = new ArrayList<>(scope.columns());
        Collections.shuffle(columns, random);
        for (int i = 0; i < n; i++) {
            Context rows = new Context(scope, null, 0, 1);
            Expr expression = random.nextInt(5) == 0 ? expressions.of(expressions.someKind(rows), rows) : null;
            // A constant key may be read as a column number (GROUP BY 2, or -5 in DuckDB).
            if (expression != null && !Exprs.isConstant(expression)) {
                keys.add(expression);
            } else if (i < columns.size()) {
                keys.add(columns.get(i).ref());
            }
        }
        return keys.isEmpty() ? List.of(columns.get(0).ref()) : keys;
    }

    private List<SelectItem> items(Context c, List<Kind> kinds) {
        List<SelectItem> items = new ArrayList<>();
        int n = kinds != null ? kinds.size() : 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            Kind kind = kinds != null ? kinds.get(i) : expressions.someKind(c);
            items.add(new SelectItem(expressions.of(kind, c), "x" + i));
        }
        return items;
    }

    /** Now and then an ORDER BY: over every column (rows then compare in order, and LIMIT/OFFSET may follow), or over some. */
    private Select order(Select s) {
        int r = random.nextInt(20);
        int n = s.items().size();
        if (r < 8) {
            List<Integer> ordinals = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                ordinals.add(i);
            }
            Collections.shuffle(ordinals, random);
            List<OrderKey> keys = ordinals.stream().map(o -> new OrderKey(o, random.nextBoolean(), random.nextBoolean())).toList();
            Integer limit = random.nextBoolean() ? random.nextInt(8) : null;
            Integer offset = random.nextInt(3) == 0 ? random.nextInt(5) : null;
            return s.withOrder(keys, limit, offset);
        }
        if (r < 11 && n > 1) {
            return s.withOrder(List.of(new OrderKey(1 + random.nextInt(n), random.nextBoolean(), random.nextBoolean())), null, null);
        }
        return s;
    }

    // ---- FROM

    /** A FROM clause of 1-3 items joined, or a join of two grouped derived tables over one table. */
    public Source source(Scope outer, int depth) {
        if (depth <= 1 && random.nextInt(8) == 0) {
            return groupedSelfJoin();
        }
        int items = 1 + (random.nextInt(10) < 4 ? 0 : random.nextInt(10) < 7 ? 1 : 2);
        Source first = fromItem(depth, null);
        From from = first.from();
        Scope scope = first.scope();
        Expr where = null;
        String firstTable = first.from() instanceof TableRef t && isBaseTable(t.table()) ? t.table() : null;
        boolean comma = false;
        for (int i = 1; i < items; i++) {
            Source next = fromItem(depth, random.nextInt(5) < 2 ? firstTable : null);
            Join.Kind kind = comma ? Join.Kind.COMMA : joinKind();
            comma = kind == Join.Kind.COMMA;
            Expr condition = null;
            if (kind.hasCondition()) {
                condition = joinCondition(scope, next.scope());
            } else if (random.nextInt(3) > 0) {
                where = and(where, equiCondition(scope, next.scope()));
            }
            from = new Join(kind, from, next.from(), condition);
            scope = scope.plus(next.scope());
        }
        return new Source(from, outer == null ? scope : scope.withOuter(outer), where);
    }

    private Join.Kind joinKind() {
        return switch (random.nextInt(10)) {
            case 0, 1, 2 -> Join.Kind.INNER;
            case 3, 4 -> Join.Kind.LEFT;
            case 5 -> Join.Kind.RIGHT;
            case 6 -> Join.Kind.FULL;
            case 7 -> Join.Kind.CROSS;
            default -> Join.Kind.COMMA;
        };
    }

    /** A table (this one if given, else any), a WITH query, or a derived table. */
    private Source fromItem(int depth, String table) {
        if (table == null && !visibleCtes.isEmpty() && random.nextInt(3) == 0) {
            CommonTableExpression cte = visibleCtes.get(random.nextInt(visibleCtes.size()));
            String alias = "a" + (++aliases);
            return new Source(new TableRef(cte.name(), alias), columnsOf(alias, cte.query()), null);
        }
        if (table == null && depth < SUBQUERY_DEPTH && random.nextInt(4) == 0) {
            return derivedTable(depth + 1, tableName(null));
        }
        return tableRef(tableName(table));
    }

    private boolean isBaseTable(String name) {
        return dataset.tables().stream().anyMatch(t -> t.name().equals(name));
    }

    private String tableName(String preferred) {
        return preferred != null ? preferred : dataset.tables().get(random.nextInt(dataset.tables().size())).name();
    }

    private Source tableRef(String table) {
        String alias = "a" + (++aliases);
        List<Scope.Entry> cols = dataset.table(table).columns().stream()
                .map(c -> new Scope.Entry(alias, c.name(), c.type(), table)).toList();
        Scope scope = Scope.of(cols);
        expressions.register(scope);
        return new Source(new TableRef(table, alias), scope, null);
    }

    /** {@code (SELECT ... FROM table [WHERE] [GROUP BY]) AS dN}. */
    private Source derivedTable(int depth, String table) {
        Source inner = tableRef(table);
        Select s = select(inner, random.nextInt(5) < 2 ? Shape.GROUPED : Shape.PLAIN, null, depth, null);
        String alias = "d" + (++aliases);
        return new Source(new DerivedTable(s, alias), columnsOf(alias, s), null);
    }

    private static Scope columnsOf(String alias, Query q) {
        List<Scope.Entry> cols = new ArrayList<>();
        for (int i = 0; i < q.columnNames().size(); i++) {
            cols.add(new Scope.Entry(alias, q.columnNames().get(i), q.columnTypes().get(i), null));
        }
        return Scope.of(cols);
    }

    /**
     * Two derived tables grouping one table on the same keys, each filtered differently, joined on
     * a key: the shape of a wrong-result bug WarpDB had (b.y came back as a.y).
     */
    private Source groupedSelfJoin() {
        String table = tableName(null);
        List<Scope.Entry> tableColumns = tableRef(table).scope().columns();
        int keyCount = 1 + random.nextInt(Math.min(2, tableColumns.size()));
        List<Source> sides = new ArrayList<>();
        for (int side = 0; side < 2; side++) {
            Source base = tableRef(table);
            List<Expr> keys = new ArrayList<>();
            List<SelectItem> items = new ArrayList<>();
            for (int k = 0; k < keyCount; k++) {
                Expr key = base.scope().columns().get(k).ref();
                keys.add(key);
                items.add(new SelectItem(key, "x" + k));
            }
            if (random.nextBoolean()) {
                items.add(new SelectItem(expressions.aggregate(Kind.BIGINT, base.scope()), "x" + keyCount));
            }
            Expr filtered = keys.get(random.nextInt(keyCount));
            Expr filter = new Binary(Binary.Op.EQ, filtered, expressions.literalFor(filtered), SqlType.BOOLEAN);
            if (random.nextBoolean()) {
                filter = expressions.predicate(new Context(base.scope(), null, 0, 2));
            }
            Select s = Select.of(items, base.from()).withWhere(filter).withGroupBy(keys);
            String alias = "d" + (++aliases);
            sides.add(new Source(new DerivedTable(s, alias), columnsOf(alias, s), null));
        }
        Scope left = sides.get(0).scope();
        Scope right = sides.get(1).scope();
        int joinKey = random.nextInt(keyCount);
        Expr equi = new Binary(Binary.Op.EQ, left.columns().get(joinKey).ref(), right.columns().get(joinKey).ref(), SqlType.BOOLEAN);
        boolean comma = random.nextBoolean();
        From from = new Join(comma ? Join.Kind.COMMA : joinKind() == Join.Kind.LEFT ? Join.Kind.LEFT : Join.Kind.INNER,
                sides.get(0).from(), sides.get(1).from(), comma ? null : equi);
        return new Source(from, left.plus(right), comma ? equi : null);
    }

    /** An ON condition: mostly an equality of same-family columns, sometimes with an extra (non-equi) conjunct, or only that. */
    private Expr joinCondition(Scope left, Scope right) {
        Context both = new Context(left.plus(right), null, 0, 1);
        Expr equi = equiCondition(left, right);
        int r = random.nextInt(10);
        if (equi == null || r == 0) {
            return expressions.predicate(both);
        }
        return r < 4 ? and(equi, expressions.predicate(both)) : equi;
    }

    /** {@code l = r} over a column of each side of the same family, or null where there is none. */
    private Expr equiCondition(Scope left, Scope right) {
        List<Scope.Entry> rights = new ArrayList<>(right.columns());
        Collections.shuffle(rights, random);
        for (Scope.Entry r : rights) {
            List<Scope.Entry> matches = left.columns().stream().filter(l -> l.type().kind() == r.type().kind()).toList();
            if (matches.isEmpty()) {
                matches = left.ofFamily(r.type().family());
            }
            if (!matches.isEmpty()) {
                return new Binary(Binary.Op.EQ, matches.get(random.nextInt(matches.size())).ref(), r.ref(), SqlType.BOOLEAN);
            }
        }
        return null;
    }

    // ---- sub-queries in expressions

    /**
     * A one-column SELECT for EXISTS (any column) or IN (a column of {@code kind}), over its own
     * FROM, filtered by a predicate that may reference {@code outer}'s columns.
     */
    Select subquery(Scope outer, int depth, Kind kind) {
        Source src = source(null, SUBQUERY_DEPTH);
        Scope scope = src.scope().withOuter(outer);
        Context rows = new Context(scope, null, depth, 2);
        Kind k = kind != null ? kind : expressions.someKind(rows);
        Expr where = and(src.where(), random.nextInt(10) < 8 ? expressions.predicate(rows) : null);
        return Select.of(List.of(new SelectItem(expressions.of(k, new Context(src.scope(), null, 0, 1)), "x0")), src.from())
                .withWhere(where);
    }

    /** {@code SELECT agg(...) FROM ... [WHERE ...]}: exactly one row, of {@code kind}. */
    Select aggregateSubquery(Scope outer, int depth, Kind kind) {
        Source src = source(null, SUBQUERY_DEPTH);
        Context rows = new Context(src.scope().withOuter(outer), null, depth, 2);
        Expr where = and(src.where(), random.nextInt(10) < 8 ? expressions.predicate(rows) : null);
        return Select.of(List.of(new SelectItem(expressions.aggregate(kind, src.scope()), "x0")), src.from()).withWhere(where);
    }

    // ---- pieces for the reference-free oracles

    /** A predicate over the scope's rows (sub-queries allowed). */
    public Expr predicate(Scope scope) {
        return expressions.predicate(new Context(scope, null, SUBQUERY_DEPTH - 1, EXPRESSION_DEPTH));
    }

    /** A predicate over groups: group keys and aggregates. */
    public Expr groupPredicate(Scope scope, List<Expr> keys) {
        return expressions.predicate(new Context(scope, keys, 0, 2));
    }

    /** Row-level result columns (no aggregates). */
    public List<SelectItem> rowItems(Scope scope) {
        return items(new Context(scope, null, SUBQUERY_DEPTH - 1, 2), null);
    }

    /** Result columns over groups. */
    public List<SelectItem> groupItems(Scope scope, List<Expr> keys) {
        return items(new Context(scope, keys, 0, 2), null);
    }

    /** An aggregate whose result is of the kind. */
    public Expr aggregate(Kind kind, Scope scope) {
        return expressions.aggregate(kind, scope);
    }

    /** A kind that the scope has values of. */
    public Kind someKind(Scope scope) {
        return expressions.someKind(new Context(scope, null, 0, 1));
    }

    /** {@code a AND b}, either of which may be null. */
    public static Expr and(Expr a, Expr b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : new Binary(Binary.Op.AND, a, b, SqlType.BOOLEAN);
    }
}
