package io.warpdb.exec.gpu.expr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The text of vm.cuh, for the tests that check it against the host without a GPU. */
final class VmSource {
    private VmSource() {
    }

    /** vm.cuh from the module directory (Maven) or the project root (the GPU bundle's test run). */
    static String read() throws IOException {
        Path inModule = Path.of("src/main/cuda/common/vm.cuh");
        return Files.readString(Files.exists(inModule) ? inModule : Path.of("executor-gpu/src/main/cuda/common/vm.cuh"));
    }
}
