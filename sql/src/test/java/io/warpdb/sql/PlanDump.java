package io.warpdb.sql;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.translate.PlanTranslator;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;

public class PlanDump {
    public static void main(String[] args) {
        try (Database db = Database.inMemory("x")) {
            db.catalog().create("t", Schema.of(new Field("a", DataType.INTEGER), new Field("b", DataType.decimal(15, 2)),
                    new Field("s", DataType.varchar(10)), new Field("d", DataType.DATE), new Field("c", DataType.chars(10))), false);
            db.catalog().create("u", Schema.of(new Field("a", DataType.BIGINT), new Field("x", DataType.DOUBLE)), false);
            for (String q : args) {
                try {
                    CalcitePlanner p = new CalcitePlanner(db.catalog());
                    RelRoot root = p.toRel(p.validate(p.parse(q)));
                    RelNode rel = p.optimize(root.project());
                    System.out.println(q + "\n" + RelOptUtil.toString(rel));
                    var plan = io.warpdb.sql.translate.ColumnPruner.prune(new PlanTranslator(p.rexBuilder(), List.of(1, 2)).translate(rel));
                    System.out.println(Placement.of(plan, "cpu", new io.warpdb.core.exec.ExecutorRegistry(List.of(new Fake()))).explain(plan));
                } catch (Exception e) {
                    System.out.println(q + "\n  ERROR " + e);
                }
            }
        }
    }

    static class Fake implements io.warpdb.core.exec.ExecutorProvider {
        public String name() { return "cpu"; }
        public io.warpdb.core.exec.Support availability() { return io.warpdb.core.exec.Support.YES; }
        public io.warpdb.core.exec.Support supports(io.warpdb.core.plan.PlanNode n) { return io.warpdb.core.exec.Support.YES; }
        public io.warpdb.core.batch.BatchStream execute(io.warpdb.core.plan.PlanNode p, io.warpdb.core.exec.ExecContext c) { return null; }
    }
}
