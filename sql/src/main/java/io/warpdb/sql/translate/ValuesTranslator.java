package io.warpdb.sql.translate;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexLiteral;

/** Constant rows; each literal is converted to its column's type. */
final class ValuesTranslator implements NodeTranslator<Values> {
    @Override
    public PlanNode translate(Values rel, PlanTranslator translator) {
        Schema schema = PlanTranslator.schemaOf(rel);
        List<List<Literal>> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : rel.getTuples()) {
            List<Literal> row = new ArrayList<>(tuple.size());
            for (int c = 0; c < tuple.size(); c++) {
                row.add(LiteralConverter.toLiteral(LiteralConverter.javaValue(tuple.get(c)), schema.type(c)));
            }
            rows.add(row);
        }
        return new ValuesNode(schema, rows);
    }
}
