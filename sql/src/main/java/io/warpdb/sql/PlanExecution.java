package io.warpdb.sql;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CatalogSnapshot;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * Runs the core plans of a session's statements: places each plan's nodes on executors, gives
 * the statement an allocator under the session's memory limit and an {@link ExecContext} (made
 * in {@link #newContext} only, closed with the statement: it owns the results of shared subplans),
 * lets the session cancel it, and reports memory running out as SQLSTATE 53200.
 */
final class PlanExecution {
    private final Session session;
    private final Database database;

    PlanExecution(Session session) {
        this.session = session;
        this.database = session.database();
    }

    /** Where each node of the plan runs, for the session's executor setting. */
    Placement place(PlanNode plan) {
        return Placement.of(plan, session.executor(), database.executors());
    }

    /**
     * Starts a query: the result streams its rows and owns the snapshot the plan reads, which it
     * releases when closed.
     */
    StatementResult stream(PlanNode plan, Schema schema, CatalogSnapshot snapshot) {
        Placement placement = place(plan);
        BufferAllocator allocator = statementAllocator("query");
        ExecContext context = newContext(allocator, placement);
        try {
            session.started(context);
            BatchStream stream = context.run(plan);
            return StatementResult.query(schema, new StatementStream(stream, context, snapshot), allocator);
        } catch (RuntimeException | Error e) {
            // The statement's own failure is what the client sees: what its cleanup reports (e.g.
            // buffers a failed operator left open, "Memory was leaked") rides along, suppressed.
            try {
                context.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            } finally {
                session.finished(context);
                try {
                    allocator.close();
                } catch (RuntimeException leaked) {
                    e.addSuppressed(leaked);
                }
            }
            if (e instanceof OutOfMemoryError heap) {
                throw heapExhausted(heap);
            }
            throw e;
        }
    }

    /** Runs a plan and hands its stream to {@code commit} (which consumes it), e.g. an append. */
    long runToEnd(PlanNode plan, Function<BatchStream, Long> commit) {
        return runToEnd(plan, place(plan), (stream, context) -> commit.apply(stream));
    }

    /**
     * Runs a placed plan to its end: {@code consume} gets the stream, which is closed (and its
     * statistics complete) once {@code consume} returns, and the context it runs in.
     */
    <T> T runToEnd(PlanNode plan, Placement placement, BiFunction<BatchStream, ExecContext, T> consume) {
        try (BufferAllocator allocator = statementAllocator("statement")) {
            ExecContext context = newContext(allocator, placement);
            session.started(context);
            try (BatchStream stream = context.run(plan)) {
                return consume.apply(stream, context);
            } catch (OutOfMemoryException e) {
                throw memoryLimitExceeded(e);
            } catch (OutOfMemoryError e) {
                throw heapExhausted(e);
            } finally {
                try {
                    context.close();
                } finally {
                    session.finished(context);
                }
            }
        }
    }

    private ExecContext newContext(BufferAllocator allocator, Placement placement) {
        ExecContext context = new ExecContext(allocator, database.executors(), placement.executors(), placement.fallbacks());
        context.setParallelism(session.parallelism());
        context.setTimeout(session.queryTimeoutMillis());
        return context;
    }

    /** The allocator of one statement, limited to the session's memory limit. */
    private BufferAllocator statementAllocator(String name) {
        return database.allocator().newChildAllocator(name, 0, session.memoryLimit());
    }

    /** Arrow's allocation failure as the SQL error it is: the statement exceeded its memory limit. */
    private WarpException memoryLimitExceeded(OutOfMemoryException e) {
        return new WarpException(SqlState.OUT_OF_MEMORY, "the statement needs more memory than its limit of "
                + session.memoryLimit() + " bytes (SET memory_limit): " + e.getMessage(), e);
    }

    /**
     * The Java heap exhausted while the statement ran: its hash tables and evaluated columns live
     * on the heap, outside the Arrow memory {@code SET memory_limit} counts. The statement fails
     * with 53200; once it is closed its memory is garbage and the server goes on.
     */
    private static WarpException heapExhausted(OutOfMemoryError e) {
        return new WarpException(SqlState.OUT_OF_MEMORY,
                "the statement ran out of Java heap (" + e.getMessage() + "); give the server more (-Xmx) or the statement less data", e);
    }

    /**
     * A query's stream as the session sees it: cancellable, and on close it tells the session
     * the statement is over and releases the catalog snapshot the query read.
     */
    private final class StatementStream implements BatchStream {
        private final BatchStream inner;
        private final ExecContext context;
        private final CatalogSnapshot snapshot;

        StatementStream(BatchStream inner, ExecContext context, CatalogSnapshot snapshot) {
            this.inner = inner;
            this.context = context;
            this.snapshot = snapshot;
        }

        @Override
        public Schema schema() {
            return inner.schema();
        }

        @Override
        public Batch next() {
            context.checkCancelled();
            try {
                return inner.next();
            } catch (OutOfMemoryException e) {
                throw memoryLimitExceeded(e);
            } catch (OutOfMemoryError e) {
                throw heapExhausted(e);
            }
        }

        @Override
        public ResidentRows takeResident() {
            context.checkCancelled();
            return inner.takeResident();
        }

        @Override
        public void close() {
            try {
                inner.close();
            } finally {
                try {
                    context.close();
                } finally {
                    session.finished(context);
                    snapshot.close();
                }
            }
        }
    }
}
