package io.warpdb.exec.gpu.decode;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.encoded.ChunkValidity;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.MergedDictionary;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.runtime.PinnedStaging;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a column's stored chunks on the device into the {@link DeviceColumn} that uploading the
 * same chunks decoded on the host ({@code HostToDevice}) would give, byte for byte: values of the
 * type's device width, validity bytes when any row is NULL, strings as codes into the merged
 * dictionary of the chunks' dictionaries (0 under NULL rows when renumbered, as booleans).
 *
 * <p>The chunks travel as stored (a fraction of their decoded size), through pinned staging, into
 * one device buffer per batch (below); only the parts the kernels read travel (a string chunk's
 * dictionary entries stay on the host, where the merged dictionary holds them). The decoder follows seed paper 000 (section 4), adapted to
 * chunks of up to 2^20 rows: one launch per layer step serves every chunk of a batch (a table of
 * tasks, one per stream of a chunk), never a launch per chunk. Bit-unpacking and the frame of reference are fused
 * into whichever kernel consumes the innermost stream (run expansion, delta scan, dictionary
 * gather, the final store), so packed words are read once and never written out. Delta is a scan
 * of the differences seeded with the first value; RLE a scan of the run lengths into run ends and
 * an expansion in which every output position finds its run by binary search; numeric dictionary
 * codes are gathered through their entries, string codes kept (renumbered through a code map when
 * the chunks' dictionaries differ); validity bitmaps are widened to bytes and validity runs expanded
 * as RLE of alternating values.
 *
 * <p>Why not the paper's single fused kernel with intermediate layers in shared memory: its
 * buffers are the small pieces of an all-to-all exchange, ours are chunks of a million rows whose
 * intermediate streams (up to 8 MiB) do not fit in a block's shared memory. Nor the paper's thread
 * block per buffer for the scans (run ends, deltas): a chunk's block would loop over its 512 tiles
 * while a column of few chunks leaves most SMs idle. The scans reduce, then scan, over all tiles of
 * all chunks (each tile's sum, each chunk's tile sums into prefixes, each tile rescanned from its
 * prefix: three launches and no cross-block look-back); like the expansions and stores, they are
 * spread over all blocks. Layers other than the outermost go
 * through global memory (scratch freed after the batch); the outermost writes the column directly
 * unless a dictionary or NULL zeroing needs a final store.
 *
 * <p>A column's chunks go in batches of at least {@link #BATCH_BYTES} bytes to copy (the last may
 * be smaller), each one transfer and one series of launches: a batch's bytes (with its code maps
 * and task tables) are copied on the work's transfer stream while the kernels of the batch before,
 * of this column or of the one decoded before it, run on the work's stream. Nothing here waits for
 * the device; temporaries are freed as soon as their kernels are queued.
 */
public final class DeviceDecoder {
    /** Threads per block of every decode kernel (decode.cu's BLOCK). */
    private static final int BLOCK = 256;
    /**
     * Bytes to copy after which a column's next chunk starts a new batch: large enough that a batch's
     * launches fill the GPU, small enough that a large column's first kernels start while the rest
     * is still being copied.
     */
    static final long BATCH_BYTES = 64L << 20;

    private DeviceDecoder() {
    }

    /**
     * The chunks of one column (in row order) as one device column; returns without waiting for the
     * device. Kernels that read the column must run on {@code work}'s stream or wait for it.
     */
    public static DeviceColumn decode(DataType type, List<EncodedColumnChunk> chunks, DeviceWork work) {
        long total = chunks.stream().mapToLong(EncodedColumnChunk::rowCount).sum();
        if (total > Integer.MAX_VALUE) {
            throw new GpuOutOfMemoryException("a GPU column holds at most 2^31-1 rows, not " + total);
        }
        int width = DeviceColumn.width(type);
        boolean hasNulls = chunks.stream().anyMatch(c -> !(c.validity() instanceof ChunkValidity.NoNulls));
        MergedDictionary merged = type.kind().isString() ? MergedDictionary.of(dictionaries(chunks)) : null;
        List<DecodePlan> batches = batches(type, width, hasNulls, merged != null && merged.renumbers() ? merged : null, chunks);
        int rows = (int) total;
        DeviceBuffer values = work.allocate((long) rows * width, "decoded column values");
        DeviceBuffer validity = null;
        try {
            Map<Location.Region, Long> bases = new EnumMap<>(Location.Region.class);
            bases.put(Location.Region.VALUES, values.address());
            if (hasNulls) {
                validity = work.allocate(rows, "decoded column validity");
                bases.put(Location.Region.VALIDITY, validity.address());
            }
            for (DecodePlan batch : batches) {
                run(batch, bases, work);
            }
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
        return new DeviceColumn(type, rows, values, validity, merged == null ? null : merged.dictionary());
    }

    /** Per chunk with rows, its string dictionary (the empty one for a chunk of NULLs), as a scan hands them over. */
    private static List<StringDictionary> dictionaries(List<EncodedColumnChunk> chunks) {
        List<StringDictionary> dictionaries = new ArrayList<>(chunks.size());
        for (EncodedColumnChunk chunk : chunks) {
            if (chunk.rowCount() == 0) {
                continue;
            }
            dictionaries.add(chunk.values() instanceof ChunkValues.Dictionary d && d.entries() instanceof ChunkValues.StringEntries s
                    ? s.strings() : StringDictionary.EMPTY);
        }
        return dictionaries;
    }

    /** The chunks planned in batches of consecutive chunks, each closed once it holds {@link #BATCH_BYTES} bytes to copy. */
    private static List<DecodePlan> batches(DataType type, int width, boolean hasNulls, MergedDictionary renumbering,
            List<EncodedColumnChunk> chunks) {
        List<DecodePlan> batches = new ArrayList<>();
        DecodePlan batch = null;
        long row = 0;
        for (EncodedColumnChunk chunk : chunks) {
            if (batch == null || batch.sliceBytes() >= BATCH_BYTES) {
                batch = new DecodePlan(type.kind(), width, hasNulls, renumbering, row);
                batches.add(batch);
            }
            batch.add(chunk);
            row += chunk.rowCount();
        }
        return batches;
    }

    /**
     * Copies one batch's input on the transfer stream (its chunks' slices, then its code maps, then its task
     * tables, in one device buffer) and queues its launches on the work's stream behind that copy.
     */
    private static void run(DecodePlan batch, Map<Location.Region, Long> columnBases, DeviceWork work) {
        List<DecodePlan.Launch> launches = batch.launches();
        if (launches.isEmpty()) {
            return;
        }
        int[] codeMaps = batch.codeMaps();
        long codeMapsAt = batch.sliceBytes();
        long tablesAt = codeMapsAt + DecodePlan.roundUp8((long) codeMaps.length * Integer.BYTES);
        int taskCount = launches.stream().mapToInt(l -> l.tasks().size()).sum();
        List<DeviceBuffer> temporaries = new ArrayList<>();
        try {
            DeviceBuffer input = temporary(temporaries, work, tablesAt + (long) taskCount * DecodeTask.LONGS * Long.BYTES,
                    "encoded chunks");
            Map<Location.Region, Long> bases = new EnumMap<>(columnBases);
            bases.put(Location.Region.CHUNKS, input.address());
            bases.put(Location.Region.CODE_MAPS, input.address() + codeMapsAt);
            if (batch.scratchBytes() > 0) {
                bases.put(Location.Region.SCRATCH, temporary(temporaries, work, batch.scratchBytes(), "decode scratch").address());
            }
            // One tile sum per block of the largest scan; the scans run one after another on the work's stream.
            long tileSumBytes = launches.stream().filter(l -> l.kernel().isScan()).mapToLong(l -> (long) l.blocks() * Long.BYTES)
                    .max().orElse(0);
            DeviceBuffer tileSums = tileSumBytes > 0 ? temporary(temporaries, work, tileSumBytes, "decode tile sums") : null;
            long[] tables = taskTables(launches, taskCount, bases);
            work.countToDevice(upload(batch.slices(), codeMaps, tables, input, work));
            work.awaitTransfers();
            launch(launches, input.address() + tablesAt, tileSums, work);
        } finally {
            // Freed with the kernels queued: the pool reuses the memory only after they have run.
            temporaries.forEach(DeviceBuffer::close);
        }
    }

    private static DeviceBuffer temporary(List<DeviceBuffer> temporaries, DeviceWork work, long bytes, String owner) {
        DeviceBuffer b = work.allocate(bytes, owner);
        temporaries.add(b);
        return b;
    }

    /** Every launch's task table, back to back in launch order. */
    private static long[] taskTables(List<DecodePlan.Launch> launches, int taskCount, Map<Location.Region, Long> bases) {
        long[] tables = new long[taskCount * DecodeTask.LONGS];
        int task = 0;
        for (DecodePlan.Launch launch : launches) {
            int firstBlock = 0;
            for (DecodeTask t : launch.tasks()) {
                t.write(tables, task++, firstBlock, bases);
                firstBlock += t.blocks();
            }
        }
        return tables;
    }

    /**
     * Queues the copy of the chunks' slices (back to back, each padded to 8 bytes), the code maps
     * (padded to 8 bytes) and the task tables through pinned staging on the transfer stream;
     * returns the bytes copied.
     */
    private static long upload(List<ByteBuffer> slices, int[] codeMaps, long[] tables, DeviceBuffer target, DeviceWork work) {
        PinnedStaging staging = work.device().staging();
        synchronized (staging) {
            PinnedStaging.Upload upload = staging.upload(target, work.transfers());
            for (ByteBuffer slice : slices) {
                ByteBuffer whole = slice.duplicate();
                whole.clear();
                upload.put(whole);
                padTo8(upload, whole.capacity());
            }
            upload.putInts(codeMaps);
            padTo8(upload, (long) codeMaps.length * Integer.BYTES);
            upload.putLongs(tables);
            return upload.finish();
        }
    }

    private static void padTo8(PinnedStaging.Upload upload, long bytes) {
        for (long pad = DecodePlan.roundUp8(bytes) - bytes; pad > 0; pad--) {
            upload.putByte((byte) 0);
        }
    }

    /**
     * Launches the kernels in order on the work's stream; their task tables lie back to back from
     * {@code tables}. A scan is three launches (decode.cu's sumTile, decode_tile_prefixes,
     * rescanTile) through {@code tileSums}, which holds a value per block of the largest scan.
     */
    private static void launch(List<DecodePlan.Launch> launches, long tables, DeviceBuffer tileSums, DeviceWork work) {
        long address = tables;
        for (DecodePlan.Launch launch : launches) {
            DecodeKernel kernel = launch.kernel();
            int tasks = launch.tasks().size();
            if (kernel.isScan()) {
                work.kernel(DecodeKernel.MODULE, kernel.tileSums).launch(work.stream(), launch.blocks(), BLOCK, 0, address, tasks,
                        tileSums);
                work.kernel(DecodeKernel.MODULE, DecodeKernel.TILE_PREFIXES).launch(work.stream(), tasks, BLOCK, 0, address, tileSums);
                work.kernel(DecodeKernel.MODULE, kernel.function).launch(work.stream(), launch.blocks(), BLOCK, 0, address, tasks,
                        tileSums);
            } else {
                work.kernel(DecodeKernel.MODULE, kernel.function).launch(work.stream(), launch.blocks(), BLOCK, 0, address, tasks);
            }
            address += (long) tasks * DecodeTask.LONGS * Long.BYTES;
        }
    }
}
