package io.warpdb.sql;

import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;

/** A test executor, named {@code name}, that takes aggregations only (the CPU executor runs the rest), to fail them as a test needs. */
abstract class AggregationOnlyExecutor implements ExecutorProvider {
    private final String name;

    AggregationOnlyExecutor(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Support availability() {
        return Support.YES;
    }

    @Override
    public Support supports(PlanNode node) {
        return node instanceof AggregateNode ? Support.YES : Support.no("it runs aggregations only");
    }
}
