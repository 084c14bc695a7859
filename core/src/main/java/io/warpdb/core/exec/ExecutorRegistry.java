package io.warpdb.core.exec;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The executor providers on the class path, in ServiceLoader order. */
public final class ExecutorRegistry {
    private final List<ExecutorProvider> providers;

    public ExecutorRegistry(List<ExecutorProvider> providers) {
        this.providers = List.copyOf(providers);
    }

    /** Every provider registered in {@code META-INF/services/io.warpdb.core.exec.ExecutorProvider}. */
    public static ExecutorRegistry load() {
        List<ExecutorProvider> found = new ArrayList<>();
        ServiceLoader.load(ExecutorProvider.class, ExecutorRegistry.class.getClassLoader()).forEach(found::add);
        return new ExecutorRegistry(found);
    }

    public List<ExecutorProvider> providers() {
        return providers;
    }

    /** The provider with this name; SQLSTATE 22023 if none is registered or it cannot run here. */
    public ExecutorProvider require(String name) {
        ExecutorProvider p = find(name).orElseThrow(() -> new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                "unknown executor '" + name + "'; registered: " + providers.stream().map(ExecutorProvider::name).toList()));
        Support s = p.availability();
        if (!s.supported()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "executor '" + name + "' is not available: " + s.reason());
        }
        return p;
    }

    /** The provider with this name (ignoring case), available here or not. */
    public Optional<ExecutorProvider> find(String name) {
        return providers.stream().filter(p -> p.name().equalsIgnoreCase(name)).findFirst();
    }
}
