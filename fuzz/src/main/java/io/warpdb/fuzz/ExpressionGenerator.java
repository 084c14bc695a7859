package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.Between;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.CaseWhen;
import io.warpdb.fuzz.ast.Cast;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.DateShift;
import io.warpdb.fuzz.ast.Exists;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.Extract;
import io.warpdb.fuzz.ast.FunctionCall;
import io.warpdb.fuzz.ast.InList;
import io.warpdb.fuzz.ast.InSubquery;
import io.warpdb.fuzz.ast.Like;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.ScalarSubquery;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.SqlType.Family;
import io.warpdb.fuzz.ast.SqlType.Kind;
import io.warpdb.fuzz.ast.Substring;
import io.warpdb.fuzz.ast.Trim;
import io.warpdb.fuzz.ast.TypeRules;
import io.warpdb.fuzz.ast.Unary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Random typed expressions: arithmetic, CASE, COALESCE, NULLIF, CAST, string and date functions,
 * predicates with three-valued logic, aggregates, and sub-query predicates and values (asked of
 * the {@link QueryGenerator}). Every expression is built for a requested type kind and typed
 * with {@link TypeRules}.
 */
final class ExpressionGenerator {
    private static final Kind[] NUMERIC_KINDS = {Kind.INTEGER, Kind.BIGINT, Kind.DECIMAL, Kind.DOUBLE};
    private static final Kind[] ALL_KINDS = {Kind.BOOLEAN, Kind.INTEGER, Kind.BIGINT, Kind.DOUBLE, Kind.DECIMAL, Kind.DATE,
        Kind.VARCHAR};

    /**
     * Where an expression goes. {@code groupKeys} is null at row level; in a grouped query (or an
     * ungrouped aggregate, with no keys) expressions are built from the keys, aggregates and
     * literals. {@code subqueryDepth} is how many more levels of sub-queries may nest.
     */
    record Context(Scope scope, List<Expr> groupKeys, int subqueryDepth, int depth) {
        Context deeper() {
            return new Context(scope, groupKeys, subqueryDepth, depth - 1);
        }

        boolean grouped() {
            return groupKeys != null;
        }

        boolean subqueries() {
            return subqueryDepth > 0 && !grouped();
        }
    }

    private final Random random;
    private final Dataset dataset;
    private final QueryGenerator queries;
    private final DataGenerator values;
    /** Every base-table column a scope has offered, to find the table behind a column reference. */
    private final List<Scope.Entry> knownColumns = new ArrayList<>();

    ExpressionGenerator(Random random, Dataset dataset, QueryGenerator queries) {
        this.random = random;
        this.dataset = dataset;
        this.queries = queries;
        this.values = new DataGenerator(random);
    }

    /** A value of {@code kind} (CHAR and VARCHAR alike: any string). */
    Expr of(Kind kind, Context c) {
        if (c.depth() <= 0 || random.nextInt(10) < 3) {
            return leaf(kind, c);
        }
        return switch (family(kind)) {
            case BOOLEAN -> predicate(c);
            case NUMBER -> number(kind, c);
            case DATE -> date(c);
            case STRING -> string(c);
        };
    }

    /** A kind that the scope (or the group keys) has values of, or now and then any kind. */
    Kind someKind(Context c) {
        List<SqlType> seen = new ArrayList<>();
        if (c.grouped()) {
            c.groupKeys().forEach(k -> seen.add(k.type()));
        } else {
            c.scope().columns().forEach(e -> seen.add(e.type()));
        }
        if (!seen.isEmpty() && random.nextInt(10) < 7) {
            return seen.get(random.nextInt(seen.size())).kind();
        }
        return ALL_KINDS[random.nextInt(ALL_KINDS.length)];
    }

    // ---- leaves

    private Expr leaf(Kind kind, Context c) {
        if (c.grouped()) {
            List<Expr> keys = c.groupKeys().stream().filter(k -> sameKind(k.type().kind(), kind)).toList();
            int r = random.nextInt(10);
            if (!keys.isEmpty() && r < 5) {
                return keys.get(random.nextInt(keys.size()));
            }
            if (r < 9) {
                return aggregate(kind, c.scope());
            }
            return literal(kind);
        }
        List<Scope.Entry> columns = columnsOf(kind, c.scope());
        if (!columns.isEmpty() && random.nextInt(10) < 8) {
            return columns.get(random.nextInt(columns.size())).ref();
        }
        return literal(kind);
    }

    /** Columns of the kind at this level, and sometimes those of the enclosing query (correlation). */
    private List<Scope.Entry> columnsOf(Kind kind, Scope scope) {
        Scope from = scope.outer() != null && random.nextInt(4) == 0 ? scope.outer() : scope;
        return from.columns().stream().filter(e -> sameKind(e.type().kind(), kind)).toList();
    }

    private static boolean sameKind(Kind a, Kind b) {
        return a == b || (family(a) == Family.STRING && family(b) == Family.STRING);
    }

    static Family family(Kind kind) {
        return switch (kind) {
            case BOOLEAN -> Family.BOOLEAN;
            case INTEGER, BIGINT, DOUBLE, DECIMAL -> Family.NUMBER;
            case DATE -> Family.DATE;
            case CHAR, VARCHAR -> Family.STRING;
        };
    }

    /** A constant of the kind; now and then a typed NULL. */
    Literal literal(Kind kind) {
        SqlType type = switch (kind) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case INTEGER -> SqlType.INTEGER;
            case BIGINT -> SqlType.BIGINT;
            case DOUBLE -> SqlType.DOUBLE;
            case DECIMAL -> SqlType.decimal(6, random.nextInt(3));
            case DATE -> SqlType.DATE;
            case CHAR, VARCHAR -> SqlType.varchar(6);
        };
        if (random.nextInt(20) == 0) {
            return Literal.nullOf(type);
        }
        Object v = smallValue(type);
        return type.isString() ? new Literal(v, SqlType.charOf(Math.max(1, ((String) v).length()))) : new Literal(v, type);
    }

    private Object smallValue(SqlType type) {
        return switch (type.kind()) {
            case INTEGER -> random.nextInt(4) == 0 ? values.value(type) : random.nextInt(-5, 21);
            case BIGINT -> random.nextInt(4) == 0 ? values.value(type) : (long) random.nextInt(-5, 21);
            // Extremes and doubles that are no multiple of 1/4096 come as constants only (not summed, see exactlySummable).
            case DOUBLE -> random.nextInt(8) == 0 ? pick(Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, -1e-300, 3.0e9, -99999.9)
                    : values.value(type);
            default -> values.value(type);
        };
    }

    /** A constant to compare {@code e} with: mostly a value of e's column, if e is a table column. */
    Literal literalFor(Expr e) {
        if (e instanceof ColumnRef ref && random.nextInt(10) < 7) {
            Object sampled = sample(ref);
            if (sampled != null) {
                return new Literal(sampled, ref.type().isString() ? SqlType.charOf(Math.max(1, ((String) sampled).length()))
                        : ref.type());
            }
        }
        Kind kind = e.type().kind();
        if (kind == Kind.DECIMAL && random.nextBoolean()) {
            // A decimal of the expression's own scale.
            return new Literal(values.value(SqlType.decimal(Math.min(6, e.type().precision()), e.type().scale())),
                    SqlType.decimal(Math.min(6, e.type().precision()), e.type().scale()));
        }
        return literal(kind);
    }

    /** A non-NULL value of the table column behind {@code ref}, or null. */
    private Object sample(ColumnRef ref) {
        String table = tableOf(ref);
        if (table == null) {
            return null;
        }
        Table t = dataset.table(table);
        int col = columnIndex(t, ref.name());
        List<Object> present = t.rows().stream().map(r -> r.get(col)).filter(Objects::nonNull).toList();
        return present.isEmpty() ? null : present.get(random.nextInt(present.size()));
    }

    /** Remembers base-table columns, so that literals can be sampled for references to them. */
    void register(Scope scope) {
        knownColumns.addAll(scope.columns());
    }

    private String tableOf(ColumnRef ref) {
        for (Scope.Entry e : knownColumns) {
            if (e.qualifier().equals(ref.qualifier()) && e.name().equals(ref.name())) {
                return e.table();
            }
        }
        return null;
    }

    private static int columnIndex(Table t, String name) {
        for (int i = 0; i < t.columns().size(); i++) {
            if (t.columns().get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(t.name() + " has no column " + name);
    }

    // ---- numbers

    private Expr number(Kind kind, Context c) {
        Context d = c.deeper();
        return switch (kind) {
            case INTEGER -> switch (random.nextInt(12)) {
                case 0, 1, 2 -> arithmetic(kind, of(Kind.INTEGER, d), Kind.INTEGER, d);
                case 3 -> call("ABS", kind, of(Kind.INTEGER, d));
                case 4 -> new FunctionCall("CHAR_LENGTH", List.of(of(Kind.VARCHAR, d)), SqlType.INTEGER);
                case 5 -> new Unary(Unary.Op.NEGATE, of(Kind.INTEGER, d), SqlType.INTEGER);
                case 6 -> new Cast(of(pick(Kind.BIGINT, Kind.DECIMAL, Kind.DOUBLE), d), SqlType.INTEGER);
                case 7 -> subqueryValue(kind, c);
                default -> conditional(kind, c);
            };
            case BIGINT -> switch (random.nextInt(11)) {
                case 0, 1, 2 -> random.nextBoolean() ? arithmetic(kind, of(Kind.BIGINT, d), pick(Kind.INTEGER, Kind.BIGINT), d)
                        : arithmetic(kind, of(Kind.INTEGER, d), Kind.BIGINT, d);
                case 3 -> new Extract(Extract.Field.values()[random.nextInt(Extract.Field.values().length)], of(Kind.DATE, d));
                case 4 -> new Cast(of(pick(Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE), d), SqlType.BIGINT);
                case 5 -> call("ABS", kind, of(Kind.BIGINT, d));
                case 6 -> subqueryValue(kind, c);
                default -> conditional(kind, c);
            };
            case DECIMAL -> switch (random.nextInt(11)) {
                case 0, 1, 2 -> {
                    Expr left = of(Kind.DECIMAL, d);
                    Expr right = of(pick(Kind.DECIMAL, Kind.INTEGER), d);
                    Binary.Op op = pick(Binary.Op.ADD, Binary.Op.SUBTRACT, Binary.Op.MULTIPLY);
                    yield random.nextBoolean() ? binary(op, left, right) : binary(op, right, left);
                }
                case 3 -> {
                    Expr arg = of(Kind.DECIMAL, d);
                    yield new FunctionCall("ROUND", List.of(arg, new Literal(random.nextInt(3), SqlType.INTEGER)), arg.type());
                }
                case 4 -> {
                    Expr arg = of(Kind.DECIMAL, d);
                    yield new FunctionCall(pick("FLOOR", "CEIL"), List.of(arg), SqlType.decimal(arg.type().precision(), 0));
                }
                case 5 -> decimalCast(d);
                case 6 -> call("ABS", kind, of(Kind.DECIMAL, d));
                case 7 -> subqueryValue(kind, c);
                default -> conditional(kind, c);
            };
            default -> switch (random.nextInt(11)) {
                case 0, 1 -> {
                    Expr left = of(Kind.DOUBLE, d);
                    Expr right = of(NUMERIC_KINDS[random.nextInt(NUMERIC_KINDS.length)], d);
                    Binary.Op op = pick(Binary.Op.ADD, Binary.Op.SUBTRACT, Binary.Op.MULTIPLY, Binary.Op.DIVIDE);
                    yield random.nextBoolean() || op == Binary.Op.DIVIDE ? binary(op, left, right) : binary(op, right, left);
                }
                // WarpDB divides decimals in DOUBLE.
                case 2 -> binary(Binary.Op.DIVIDE, of(Kind.DECIMAL, d), divisor(pick(Kind.DECIMAL, Kind.INTEGER), d));
                case 3 -> new Cast(of(pick(Kind.INTEGER, Kind.BIGINT, Kind.DECIMAL), d), SqlType.DOUBLE);
                case 4 -> new FunctionCall("ROUND", List.of(of(Kind.DOUBLE, d), new Literal(random.nextInt(3), SqlType.INTEGER)),
                        SqlType.DOUBLE);
                case 5 -> call(pick("FLOOR", "CEIL"), kind, of(Kind.DOUBLE, d));
                case 6 -> call("ABS", kind, of(Kind.DOUBLE, d));
                case 7 -> subqueryValue(kind, c);
                default -> conditional(kind, c);
            };
        };
    }

    /** {@code left op right} for an integer kind; divisors are mostly non-zero constants. */
    private Expr arithmetic(Kind kind, Expr left, Kind rightKind, Context d) {
        Binary.Op op = pick(Binary.Op.ADD, Binary.Op.SUBTRACT, Binary.Op.MULTIPLY, Binary.Op.DIVIDE, Binary.Op.MOD);
        Expr right = op == Binary.Op.DIVIDE || op == Binary.Op.MOD ? divisor(rightKind, d) : of(rightKind, d);
        return random.nextBoolean() || op == Binary.Op.DIVIDE || op == Binary.Op.MOD ? binary(op, left, right)
                : binary(op, right, left);
    }

    private Expr divisor(Kind kind, Context d) {
        if (random.nextInt(10) < 7) {
            // A constant zero divisor would only make both engines fail.
            Literal l = literal(kind);
            while (l.value() == null || isZero(l.value())) {
                l = literal(kind);
            }
            return l;
        }
        return of(kind, d);
    }

    /** A cast to DECIMAL of an exact or a DOUBLE value. */
    private Expr decimalCast(Context d) {
        int precision = 1 + random.nextInt(SqlType.MAX_DECIMAL_PRECISION);
        int scale = random.nextInt(Math.min(precision, 4) + 1);
        return new Cast(of(pick(Kind.INTEGER, Kind.BIGINT, Kind.DECIMAL, Kind.DOUBLE), d), SqlType.decimal(precision, scale));
    }

    private Expr binary(Binary.Op op, Expr left, Expr right) {
        SqlType type = op == Binary.Op.CONCAT ? SqlType.VARCHAR : TypeRules.arithmetic(op, left.type(), right.type());
        return new Binary(op, left, right, type);
    }

    private static FunctionCall call(String name, Kind kind, Expr arg) {
        return new FunctionCall(name, List.of(arg), arg.type().kind() == kind ? arg.type() : new SqlType(kind, 0, 0, 0));
    }

    // ---- CASE, COALESCE, NULLIF (any kind)

    private Expr conditional(Kind kind, Context c) {
        Context d = c.deeper();
        switch (random.nextInt(4)) {
            case 0: {
                Expr a = of(kind, d);
                Expr b = of(kind, d);
                return new FunctionCall("COALESCE", List.of(a, b), TypeRules.common(a.type(), b.type()));
            }
            case 1: {
                Expr a = of(kind, d);
                return new FunctionCall("NULLIF", List.of(a, random.nextBoolean() ? literalFor(a) : of(kind, d)), a.type());
            }
            case 2: {
                // CASE x WHEN v THEN ... : the WHEN values are compared with x.
                Kind operandKind = someKind(d);
                Expr operand = of(operandKind, d);
                List<Expr> whens = new ArrayList<>();
                List<Expr> thens = new ArrayList<>();
                int n = 1 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    whens.add(literalFor(operand));
                    thens.add(of(kind, d));
                }
                return caseOf(operand, whens, thens, random.nextBoolean() ? of(kind, d) : null);
            }
            default: {
                List<Expr> whens = new ArrayList<>();
                List<Expr> thens = new ArrayList<>();
                int n = 1 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    whens.add(predicate(d));
                    thens.add(of(kind, d));
                }
                return caseOf(null, whens, thens, random.nextInt(3) > 0 ? of(kind, d) : null);
            }
        }
    }

    private static Expr caseOf(Expr operand, List<Expr> whens, List<Expr> thens, Expr otherwise) {
        SqlType type = thens.get(0).type();
        for (Expr t : thens) {
            type = TypeRules.common(type, t.type());
        }
        if (otherwise != null) {
            type = TypeRules.common(type, otherwise.type());
        }
        return new CaseWhen(operand, whens, thens, otherwise, type);
    }

    // ---- strings and dates

    private Expr string(Context c) {
        Context d = c.deeper();
        return switch (random.nextInt(10)) {
            case 0, 1 -> binary(Binary.Op.CONCAT, of(Kind.VARCHAR, d), of(Kind.VARCHAR, d));
            case 2 -> call(pick("UPPER", "LOWER"), Kind.VARCHAR, of(Kind.VARCHAR, d));
            case 3 -> new Substring(of(Kind.VARCHAR, d), new Literal(1 + random.nextInt(4), SqlType.INTEGER),
                    random.nextInt(4) > 0 ? new Literal(random.nextInt(5), SqlType.INTEGER) : null);
            case 4 -> new Trim(Trim.Side.values()[random.nextInt(3)],
                    random.nextBoolean() ? new Literal(pick("a", "b", "x", " "), SqlType.charOf(1)) : null, of(Kind.VARCHAR, d));
            case 5 -> {
                // Dates and decimals as text only from a column or a constant: a shifted date may leave 0001..9999,
                // where the engines write years differently, and a computed decimal's scale (which its text shows)
                // follows each engine's own typing rules (fuzz/README.md).
                Kind kind = pick(Kind.INTEGER, Kind.BIGINT, Kind.DECIMAL, Kind.DATE);
                yield new Cast(kind == Kind.DATE || kind == Kind.DECIMAL ? leaf(kind, d) : of(kind, d), SqlType.VARCHAR);
            }
            case 6 -> subqueryValue(Kind.VARCHAR, c);
            default -> conditional(Kind.VARCHAR, c);
        };
    }

    private Expr date(Context c) {
        Context d = c.deeper();
        return switch (random.nextInt(6)) {
            case 0, 1, 2 -> {
                DateShift.Unit unit = DateShift.Unit.values()[random.nextInt(3)];
                int limit = switch (unit) {
                    case DAY -> 400;
                    case MONTH -> 30;
                    case YEAR -> 10;
                };
                int amount = random.nextInt(1, limit + 1) * (random.nextBoolean() ? 1 : -1);
                yield new DateShift(of(Kind.DATE, d), amount, unit);
            }
            case 3 -> subqueryValue(Kind.DATE, c);
            default -> conditional(Kind.DATE, c);
        };
    }

    // ---- predicates

    /** A BOOLEAN expression: comparisons, AND/OR/NOT, NULL tests, LIKE, IN, BETWEEN, sub-query predicates. */
    Expr predicate(Context c) {
        if (c.depth() <= 0) {
            return random.nextInt(4) == 0 ? nullTest(c) : comparison(c);
        }
        Context d = c.deeper();
        int choices = c.subqueries() ? 17 : 14;
        return switch (random.nextInt(choices)) {
            case 0, 1, 2, 3 -> comparison(c);
            case 4 -> new Binary(Binary.Op.AND, predicate(d), predicate(d), SqlType.BOOLEAN);
            case 5 -> new Binary(Binary.Op.OR, predicate(d), predicate(d), SqlType.BOOLEAN);
            case 6 -> new Unary(Unary.Op.NOT, predicate(d), SqlType.BOOLEAN);
            case 7 -> nullTest(c);
            case 8 -> like(c);
            case 9 -> inList(c);
            case 10 -> between(c);
            case 11 -> {
                Kind kind = someKind(c);
                Expr a = of(kind, d);
                yield new Binary(pick(Binary.Op.IS_DISTINCT_FROM, Binary.Op.IS_NOT_DISTINCT_FROM), a,
                        random.nextBoolean() ? literalFor(a) : of(kind, d), SqlType.BOOLEAN);
            }
            case 12 -> new Unary(pick(Unary.Op.IS_TRUE, Unary.Op.IS_NOT_TRUE, Unary.Op.IS_FALSE, Unary.Op.IS_NOT_FALSE),
                    predicate(d), SqlType.BOOLEAN);
            case 13 -> leaf(Kind.BOOLEAN, c);
            case 14 -> exists(c);
            case 15 -> inSubquery(c);
            default -> {
                Kind kind = someKind(c);
                yield new Binary(comparisonOp(), of(kind, d), subqueryValue(kind, c), SqlType.BOOLEAN);
            }
        };
    }

    private Expr comparison(Context c) {
        Kind kind = someKind(c);
        Context d = c.deeper();
        Expr left = of(kind, d);
        Expr right;
        if (random.nextInt(10) < 6) {
            right = literalFor(left);
        } else {
            right = of(family(kind) == Family.NUMBER ? NUMERIC_KINDS[random.nextInt(NUMERIC_KINDS.length)] : kind, d);
        }
        return new Binary(comparisonOp(), left, right, SqlType.BOOLEAN);
    }

    private Binary.Op comparisonOp() {
        return pick(Binary.Op.EQ, Binary.Op.EQ, Binary.Op.NE, Binary.Op.LT, Binary.Op.LE, Binary.Op.GT, Binary.Op.GE);
    }

    private Expr nullTest(Context c) {
        Expr arg = of(someKind(c), c.deeper());
        return new Unary(random.nextBoolean() ? Unary.Op.IS_NULL : Unary.Op.IS_NOT_NULL, arg, SqlType.BOOLEAN);
    }

    private Expr like(Context c) {
        Expr s = of(Kind.VARCHAR, c.deeper());
        Literal sample = literalFor(s);
        String base = sample.value() instanceof String v ? v : "a";
        String pattern = switch (random.nextInt(5)) {
            case 0 -> base.substring(0, random.nextInt(base.length() + 1)) + "%";
            case 1 -> "%" + base.substring(random.nextInt(base.length() + 1));
            case 2 -> base.isEmpty() ? "_" : "_" + base.substring(1);
            case 3 -> "%" + (base.isEmpty() ? "" : base.substring(0, 1)) + "%";
            default -> base;
        };
        return new Like(s, new Literal(pattern.stripTrailing(), SqlType.charOf(Math.max(1, pattern.length()))),
                random.nextInt(4) == 0);
    }

    private Expr inList(Context c) {
        Expr arg = of(someKind(c), c.deeper());
        List<Expr> list = new ArrayList<>();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            list.add(random.nextInt(10) == 0 ? Literal.nullOf(arg.type()) : literalFor(arg));
        }
        return new InList(arg, list, random.nextInt(3) == 0);
    }

    private Expr between(Context c) {
        Kind kind = someKind(c);
        Expr arg = of(kind, c.deeper());
        return new Between(arg, literalFor(arg), random.nextInt(4) == 0 ? of(kind, c.deeper()) : literalFor(arg),
                random.nextInt(4) == 0);
    }

    // ---- sub-queries

    private Expr exists(Context c) {
        return new Exists(queries.subquery(c.scope(), c.subqueryDepth() - 1, null), random.nextInt(3) == 0);
    }

    private Expr inSubquery(Context c) {
        Kind kind = someKind(c);
        Expr arg = of(kind, c.deeper());
        return new InSubquery(arg, queries.subquery(c.scope(), c.subqueryDepth() - 1, kind), random.nextInt(3) == 0);
    }

    /** A scalar sub-query (an ungrouped aggregate, so one row) of the kind, or a plain value where none may nest. */
    private Expr subqueryValue(Kind kind, Context c) {
        if (!c.subqueries()) {
            return leaf(kind, c);
        }
        return new ScalarSubquery(queries.aggregateSubquery(c.scope(), c.subqueryDepth() - 1, kind));
    }

    // ---- aggregates

    /**
     * A DOUBLE that SUM and AVG add up exactly in any order, or null where the scope has none: a
     * base table's DOUBLE column (multiples of 1/4096 below 2^24, see DataGenerator), negated or
     * under ABS, FLOOR or CEIL. Both engines add doubles in an order of their own (DuckDB across
     * threads), so only exact sums compare (fuzz/README.md, dialect difference 14).
     */
    private Expr exactlySummable(Context c) {
        List<Scope.Entry> columns = c.scope().columns().stream()
                .filter(e -> e.table() != null && e.type().kind() == Kind.DOUBLE)
                .toList();
        if (columns.isEmpty()) {
            return null;
        }
        Expr column = columns.get(random.nextInt(columns.size())).ref();
        return switch (random.nextInt(6)) {
            case 0 -> new Unary(Unary.Op.NEGATE, column, SqlType.DOUBLE);
            case 1 -> call("ABS", Kind.DOUBLE, column);
            case 2 -> call(pick("FLOOR", "CEIL"), Kind.DOUBLE, column);
            default -> column;
        };
    }

    /** An aggregate over the scope's rows whose result is of {@code kind}. */
    Aggregate aggregate(Kind kind, Scope scope) {
        // Arguments reference this level only: an aggregate of outer columns would belong to the outer query.
        Context arg = new Context(new Scope(scope.columns(), null), null, 0, 1);
        Aggregate.Function fn;
        Expr argument;
        switch (kind) {
            case BIGINT -> {
                int r = random.nextInt(6);
                fn = r < 3 ? Aggregate.Function.COUNT : r < 5 ? Aggregate.Function.SUM : pick(Aggregate.Function.MIN,
                        Aggregate.Function.MAX);
                argument = switch (fn) {
                    case COUNT -> random.nextBoolean() ? null : of(someKind(arg), arg);
                    case SUM -> of(pick(Kind.INTEGER, Kind.BIGINT), arg);
                    default -> of(Kind.BIGINT, arg);
                };
            }
            case DOUBLE -> {
                fn = pick(Aggregate.Function.AVG, Aggregate.Function.AVG, Aggregate.Function.SUM, Aggregate.Function.MIN,
                        Aggregate.Function.MAX);
                Kind argumentKind = fn == Aggregate.Function.AVG ? NUMERIC_KINDS[random.nextInt(NUMERIC_KINDS.length)] : Kind.DOUBLE;
                boolean summed = fn == Aggregate.Function.SUM || fn == Aggregate.Function.AVG;
                argument = summed && argumentKind == Kind.DOUBLE ? exactlySummable(arg) : of(argumentKind, arg);
                if (argument == null) {
                    fn = pick(Aggregate.Function.MIN, Aggregate.Function.MAX);
                    argument = of(Kind.DOUBLE, arg);
                }
            }
            case DECIMAL -> {
                fn = pick(Aggregate.Function.SUM, Aggregate.Function.MIN, Aggregate.Function.MAX);
                argument = of(Kind.DECIMAL, arg);
            }
            default -> {
                fn = pick(Aggregate.Function.MIN, Aggregate.Function.MAX);
                argument = of(kind, arg);
            }
        }
        boolean distinct = argument != null && random.nextInt(5) == 0;
        Expr filter = random.nextInt(5) == 0 ? predicate(arg) : null;
        return new Aggregate(fn, distinct, argument, filter,
                TypeRules.aggregate(fn, argument == null ? null : argument.type()));
    }

    // ---- choices

    @SafeVarargs
    final <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }

    private static boolean isZero(Object v) {
        return v instanceof BigDecimal b ? b.signum() == 0 : v instanceof Number n && n.doubleValue() == 0;
    }
}
