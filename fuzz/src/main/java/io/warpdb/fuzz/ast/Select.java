package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code [WITH ...] SELECT [DISTINCT] items FROM from [WHERE] [GROUP BY] [HAVING] [ORDER BY]
 * [LIMIT] [OFFSET]}. Optional parts are null or empty. LIMIT and OFFSET only come with an ORDER
 * BY over every result column, so that the rows they keep are determined.
 */
public record Select(List<CommonTableExpression> with, boolean distinct, List<SelectItem> items, From from, Expr where,
        List<Expr> groupBy, Expr having, List<OrderKey> orderBy, Integer limit, Integer offset) implements Query {

    /** {@code SELECT items FROM from}. */
    public static Select of(List<SelectItem> items, From from) {
        return new Select(List.of(), false, items, from, null, List.of(), null, List.of(), null, null);
    }

    public Select withWhere(Expr w) {
        return new Select(with, distinct, items, from, w, groupBy, having, orderBy, limit, offset);
    }

    public Select withHaving(Expr h) {
        return new Select(with, distinct, items, from, where, groupBy, h, orderBy, limit, offset);
    }

    public Select withDistinct(boolean d) {
        return new Select(with, d, items, from, where, groupBy, having, orderBy, limit, offset);
    }

    public Select withItems(List<SelectItem> i) {
        return new Select(with, distinct, i, from, where, groupBy, having, orderBy, limit, offset);
    }

    public Select withGroupBy(List<Expr> g) {
        return new Select(with, distinct, items, from, where, g, having, orderBy, limit, offset);
    }

    public Select withOrder(List<OrderKey> o, Integer newLimit, Integer newOffset) {
        return new Select(with, distinct, items, from, where, groupBy, having, o, newLimit, newOffset);
    }

    public Select withCtes(List<CommonTableExpression> w) {
        return new Select(w, distinct, items, from, where, groupBy, having, orderBy, limit, offset);
    }

    @Override
    public String render(Dialect dialect) {
        StringBuilder sb = new StringBuilder();
        if (!with.isEmpty()) {
            sb.append("WITH ").append(with.stream().map(c -> c.name() + " AS (" + c.query().render(dialect) + ")")
                    .collect(Collectors.joining(", "))).append(' ');
        }
        sb.append(distinct ? "SELECT DISTINCT " : "SELECT ");
        sb.append(items.stream().map(i -> i.expr().render(dialect) + " AS " + i.alias()).collect(Collectors.joining(", ")));
        sb.append(" FROM ").append(from.render(dialect));
        if (where != null) {
            sb.append(" WHERE ").append(where.render(dialect));
        }
        if (!groupBy.isEmpty()) {
            sb.append(" GROUP BY ").append(groupBy.stream().map(g -> g.render(dialect)).collect(Collectors.joining(", ")));
        }
        if (having != null) {
            sb.append(" HAVING ").append(having.render(dialect));
        }
        if (!orderBy.isEmpty()) {
            sb.append(" ORDER BY ").append(orderBy.stream().map(OrderKey::render).collect(Collectors.joining(", ")));
        }
        if (limit != null) {
            sb.append(" LIMIT ").append(limit);
        }
        if (offset != null) {
            sb.append(" OFFSET ").append(offset);
        }
        return sb.toString();
    }

    @Override
    public List<String> columnNames() {
        return items.stream().map(SelectItem::alias).toList();
    }

    @Override
    public List<SqlType> columnTypes() {
        return items.stream().map(i -> i.expr().type()).toList();
    }

    @Override
    public boolean totallyOrdered() {
        return orderBy.stream().map(OrderKey::ordinal).distinct().count() == items.size();
    }

    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>();
        with.forEach(c -> out.add(c.query()));
        items.forEach(i -> out.add(i.expr()));
        out.add(from);
        if (where != null) {
            out.add(where);
        }
        out.addAll(groupBy);
        if (having != null) {
            out.add(having);
        }
        return out;
    }

    @Override
    public Node withChildren(List<Node> children) {
        Nodes.Reader r = new Nodes.Reader(children);
        List<CommonTableExpression> w = with.stream().map(c -> new CommonTableExpression(c.name(), r.<Query>next())).toList();
        List<SelectItem> i = items.stream().map(item -> item.withExpr(r.next())).toList();
        From f = r.next();
        Expr wh = r.nextIf(where != null);
        List<Expr> g = r.next(groupBy.size());
        Expr h = r.nextIf(having != null);
        return new Select(w, distinct, i, f, wh, g, h, orderBy, limit, offset);
    }

    @Override
    public List<Node> simplifications() {
        List<Node> out = new ArrayList<>();
        if (where != null) {
            out.add(withWhere(null));
        }
        if (having != null) {
            out.add(withHaving(null));
        }
        if (distinct) {
            out.add(withDistinct(false));
        }
        if (offset != null) {
            out.add(withOrder(orderBy, limit, null));
        }
        if (limit != null) {
            out.add(withOrder(orderBy, null, offset));
        }
        if (!orderBy.isEmpty()) {
            out.add(withOrder(List.of(), null, null));
        }
        if (!groupBy.isEmpty()) {
            out.add(withGroupBy(List.of()));
            for (int g = 0; groupBy.size() > 1 && g < groupBy.size(); g++) {
                List<Expr> fewer = new ArrayList<>(groupBy);
                fewer.remove(g);
                out.add(withGroupBy(fewer));
            }
        }
        for (int c = 0; c < with.size(); c++) {
            List<CommonTableExpression> fewer = new ArrayList<>(with);
            fewer.remove(c);
            out.add(withCtes(fewer));
        }
        for (int i = 0; items.size() > 1 && i < items.size(); i++) {
            out.add(withoutItem(i));
        }
        return out;
    }

    /** Without result column {@code index}; sort keys on later columns are renumbered. */
    private Select withoutItem(int index) {
        List<SelectItem> fewer = new ArrayList<>(items);
        fewer.remove(index);
        int ordinal = index + 1;
        List<OrderKey> keys = orderBy.stream().filter(k -> k.ordinal() != ordinal)
                .map(k -> k.ordinal() > ordinal ? new OrderKey(k.ordinal() - 1, k.descending(), k.nullsFirst()) : k).toList();
        boolean stillTotal = keys.stream().map(OrderKey::ordinal).distinct().count() == fewer.size();
        return new Select(with, distinct, fewer, from, where, groupBy, having, keys, stillTotal ? limit : null,
                stillTotal ? offset : null);
    }

    /** Sort keys 1..n, all ascending with NULLs last. */
    public static List<OrderKey> ascendingOn(int columns) {
        return IntStream.rangeClosed(1, columns).mapToObj(o -> new OrderKey(o, false, false)).toList();
    }
}
