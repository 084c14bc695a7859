package io.warpdb.exec.gpu.decode;

/** The kernels of decode/decode.cu, and how each is launched over its task table. */
enum DecodeKernel {
    RUN_ENDS("decode_run_ends", true),
    RUN_EXPAND("decode_run_expand", false),
    DELTAS("decode_deltas", true),
    VALIDITY("decode_validity", false),
    STORE("decode_store", false);

    static final String MODULE = "decode/decode";

    final String function;
    /**
     * A block per task looping over the task's tiles (the scans: the paper's thread block per
     * buffer), else flat: each task gets a block per tile and blocks find their task.
     */
    final boolean blockPerTask;

    DecodeKernel(String function, boolean blockPerTask) {
        this.function = function;
        this.blockPerTask = blockPerTask;
    }
}
