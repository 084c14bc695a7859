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
 * one device buffer. The decoder follows seed paper 000 (section 4), adapted to chunks of up to
 * 2^20 rows: one launch per layer step serves every chunk of the column (a table of tasks, one per
 * stream of a chunk), never a launch per chunk. Bit-unpacking and the frame of reference are fused
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
 * intermediate streams (up to 8 MiB) do not fit in a block's shared memory. The scans (run ends,
 * deltas) still take the paper's shape, a thread block per chunk looping over its tiles, which
 * needs no cross-block look-back and fills the GPU once a column has as many chunks as there are
 * SMs; the expansions and stores are spread over all blocks. Layers other than the outermost go
 * through global memory (scratch freed at the end); the outermost writes the column directly
 * unless a dictionary or NULL zeroing needs a final store.
 */
public final class DeviceDecoder {
    /** Threads per block of every decode kernel (decode.cu's BLOCK). */
    private static final int BLOCK = 256;

    private DeviceDecoder() {
    }

    /**
     * The chunks of one column (in row order) as one device column; returns without waiting for the
     * device.
     */
    public static DeviceColumn decode(DataType type, List<EncodedColumnChunk> chunks, DeviceWork work) {
        long total = chunks.stream().mapToLong(EncodedColumnChunk::rowCount).sum();
        if (total > Integer.MAX_VALUE) {
            throw new GpuOutOfMemoryException("a GPU column holds at most 2^31-1 rows, not " + total);
        }
        int width = DeviceColumn.width(type);
        boolean hasNulls = chunks.stream().anyMatch(c -> !(c.validity() instanceof ChunkValidity.NoNulls));
        MergedDictionary merged = type.kind().isString() ? MergedDictionary.of(dictionaries(chunks)) : null;
        DecodePlan plan = new DecodePlan(type.kind(), width, hasNulls, merged != null && merged.renumbers() ? merged : null);
        chunks.forEach(plan::add);
        int rows = (int) total;
        DeviceBuffer values = work.allocate((long) rows * width, "decoded column values");
        DeviceBuffer validity = null;
        List<DeviceBuffer> temporaries = new ArrayList<>();
        try {
            Map<Location.Region, Long> bases = new EnumMap<>(Location.Region.class);
            bases.put(Location.Region.VALUES, values.address());
            if (hasNulls) {
                validity = work.allocate(rows, "decoded column validity");
                bases.put(Location.Region.VALIDITY, validity.address());
            }
            if (plan.chunkBytes() > 0) {
                DeviceBuffer stored = temporary(temporaries, work, plan.chunkBytes(), "encoded chunks");
                bases.put(Location.Region.CHUNKS, stored.address());
                work.countToDevice(upload(plan.chunks(), stored, work));
            }
            if (plan.scratchBytes() > 0) {
                bases.put(Location.Region.SCRATCH, temporary(temporaries, work, plan.scratchBytes(), "decode scratch").address());
            }
            int[] codeMaps = plan.codeMaps();
            if (codeMaps.length > 0) {
                DeviceBuffer maps = work.upload(codeMaps, "string code maps");
                temporaries.add(maps);
                bases.put(Location.Region.CODE_MAPS, maps.address());
            }
            launch(plan.launches(), bases, temporaries, work);
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        } finally {
            // Freed with the kernels queued: the pool reuses the memory only after they have run.
            temporaries.forEach(DeviceBuffer::close);
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

    private static DeviceBuffer temporary(List<DeviceBuffer> temporaries, DeviceWork work, long bytes, String owner) {
        DeviceBuffer b = work.allocate(bytes, owner);
        temporaries.add(b);
        return b;
    }

    /** Copies the chunks back to back, each padded to 8 bytes, through pinned staging; returns the bytes copied. */
    private static long upload(List<ByteBuffer> chunks, DeviceBuffer target, DeviceWork work) {
        PinnedStaging staging = work.device().staging();
        synchronized (staging) {
            PinnedStaging.Upload upload = staging.upload(target, work.stream());
            for (ByteBuffer chunk : chunks) {
                ByteBuffer whole = chunk.duplicate();
                whole.clear();
                upload.put(whole);
                for (long pad = DecodePlan.roundUp8(whole.capacity()) - whole.capacity(); pad > 0; pad--) {
                    upload.putByte((byte) 0);
                }
            }
            return upload.finish();
        }
    }

    /** Writes every task table into one upload and launches the kernels in order on the work's stream. */
    private static void launch(List<DecodePlan.Launch> launches, Map<Location.Region, Long> bases, List<DeviceBuffer> temporaries,
            DeviceWork work) {
        if (launches.isEmpty()) {
            return;
        }
        int taskCount = launches.stream().mapToInt(l -> l.tasks().size()).sum();
        long[] table = new long[taskCount * DecodeTask.LONGS];
        int task = 0;
        for (DecodePlan.Launch launch : launches) {
            int firstBlock = 0;
            for (DecodeTask t : launch.tasks()) {
                t.write(table, task++, firstBlock, bases);
                firstBlock += t.blocks();
            }
        }
        DeviceBuffer tables = work.upload(table, "decode tasks");
        temporaries.add(tables);
        long address = tables.address();
        for (DecodePlan.Launch launch : launches) {
            DecodeKernel kernel = launch.kernel();
            int tasks = launch.tasks().size();
            if (kernel.blockPerTask) {
                work.kernel(DecodeKernel.MODULE, kernel.function).launch(work.stream(), launch.blocks(), BLOCK, 0, address);
            } else {
                work.kernel(DecodeKernel.MODULE, kernel.function).launch(work.stream(), launch.blocks(), BLOCK, 0, address, tasks);
            }
            address += (long) tasks * DecodeTask.LONGS * Long.BYTES;
        }
    }
}
