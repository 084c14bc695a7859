package io.warpdb.exec.gpu.decode;

/** The kernels of decode/decode.cu, and how each is launched over its task table. */
enum DecodeKernel {
    RUN_ENDS("decode_run_ends", "decode_run_end_tiles"),
    RUN_EXPAND("decode_run_expand", null),
    DELTAS("decode_deltas", "decode_delta_tiles"),
    VALIDITY("decode_validity", null),
    STORE("decode_store", null);

    static final String MODULE = "decode/decode";
    /** A scan's second launch, shared by the scans: each task's tile sums into prefixes, a block per task. */
    static final String TILE_PREFIXES = "decode_tile_prefixes";

    /**
     * The kernel, flat like every decode kernel but decode_tile_prefixes: each task gets a block per
     * tile and blocks find their task. For a scan, its last launch.
     */
    final String function;
    /**
     * For a scan (its launch then reduces, then scans, over all tiles of all tasks), the first
     * launch, which sums each tile's terms; null for the kernels that are one launch.
     */
    final String tileSums;

    DecodeKernel(String function, String tileSums) {
        this.function = function;
        this.tileSums = tileSums;
    }

    boolean isScan() {
        return tileSums != null;
    }
}
