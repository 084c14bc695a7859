package io.warpdb.core.exec;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** Background threads: daemons, so that none keeps the JVM alive, named for thread dumps and profiles. */
public final class DaemonThreads {
    private DaemonThreads() {
    }

    /** Makes daemon threads named {@code name}. */
    public static ThreadFactory named(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A pool that starts a daemon thread named {@code name} whenever none is idle. */
    public static ExecutorService cachedPool(String name) {
        return Executors.newCachedThreadPool(named(name));
    }
}
