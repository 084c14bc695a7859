package io.warpdb.cluster;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** The cluster's background threads: daemons, so that none keeps a node's JVM alive, named for thread dumps and profiles. */
final class DaemonThreads {
    private DaemonThreads() {
    }

    /** Makes daemon threads named {@code name}. */
    static ThreadFactory named(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A pool that starts a daemon thread named {@code name} whenever none is idle. */
    static ExecutorService cachedPool(String name) {
        return Executors.newCachedThreadPool(named(name));
    }
}
