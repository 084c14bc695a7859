package io.warpdb.exec.gpu.expr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The text of vm.cuh and the headers beside it, for the tests that check them against the host without a GPU. */
final class VmSource {
    private VmSource() {
    }

    /** vm.cuh from the module directory (Maven) or the project root (the GPU bundle's test run). */
    static String read() throws IOException {
        return read("vm.cuh");
    }

    /** A header of cuda/common, from the module directory (Maven) or the project root. */
    static String read(String header) throws IOException {
        Path inModule = Path.of("src/main/cuda/common", header);
        return Files.readString(Files.exists(inModule) ? inModule : Path.of("executor-gpu/src/main/cuda/common", header));
    }
}
