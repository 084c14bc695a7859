package io.warpdb.core.exec;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.Schema;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Evaluates expressions on the host with the reference semantics every executor matches. An
 * accelerator uses it for the work it leaves to the host by design, e.g. string functions
 * evaluated once per dictionary entry. Found through {@link ServiceLoader}
 * ({@code META-INF/services/io.warpdb.core.exec.HostEvaluator}); the CPU executor provides it.
 */
public interface HostEvaluator {
    /**
     * The values of {@code exprs} (over the columns of {@code rows}) for every row of
     * {@code rows}, in columns named and typed by {@code schema}; batches come from the context's
     * allocator and errors are raised as the CPU executor raises them.
     */
    BatchStream evaluate(TableSource rows, List<Expr> exprs, Schema schema, ExecContext context);

    /** The implementation on the class path; SQLSTATE XX000 when there is none. */
    static HostEvaluator load() {
        return ServiceLoader.load(HostEvaluator.class, HostEvaluator.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new WarpException(SqlState.INTERNAL_ERROR,
                        "no " + HostEvaluator.class.getName() + " on the class path (the CPU executor provides one)"));
    }
}
