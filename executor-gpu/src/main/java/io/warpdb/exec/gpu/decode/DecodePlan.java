package io.warpdb.exec.gpu.decode;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.encoded.ChunkSlice;
import io.warpdb.core.data.encoded.ChunkValidity;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.data.encoded.IntegerStream;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.MergedDictionary;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tasks that decode consecutive chunks of one column (all of them, or a batch that starts at
 * row {@code firstRow}), grouped into launches, with the sizes of the regions they use. A stream's height orders the work: a bit-packed stream has none to do (its consumer
 * unpacks it), an RLE or Delta layer is one more than the stream it reads. All run ends are
 * scanned first (their lengths are always bit-packed), then for each height the run expansions
 * and delta scans of every chunk, then validity, then the stores that write the column, which may
 * read the validity.
 */
final class DecodePlan {
    /** A stream as its consumer reads it, and the height of the work that produces it. */
    private record Resolved(StreamRef ref, int height) {
    }

    private final TypeKind kind;
    private final int width;
    private final boolean hasNulls;
    /** For strings whose chunks' dictionaries must be renumbered into one; else null. */
    private final MergedDictionary renumbering;

    /** Per chunk, where each of its slices taken along lies: by (offset << 32 | length) in the chunk. */
    private final Map<ByteBuffer, Map<Long, Long>> sliceOffsets = new IdentityHashMap<>();
    private final List<ByteBuffer> slices = new ArrayList<>();
    private long sliceBytes;
    private long scratchBytes;
    private final Map<StringDictionary, Location> codeMapLocations = new IdentityHashMap<>();
    private final List<int[]> codeMaps = new ArrayList<>();
    private long codeMapBytes;
    /** The column row after the chunks added so far. */
    private long rows;

    private final List<DecodeTask> runEnds = new ArrayList<>();
    private final List<List<DecodeTask>> runExpansions = new ArrayList<>();
    private final List<List<DecodeTask>> deltas = new ArrayList<>();
    private final List<DecodeTask> validity = new ArrayList<>();
    private final List<DecodeTask> stores = new ArrayList<>();

    /**
     * @param width the device column's bytes per value
     * @param hasNulls whether the column gets validity bytes (some chunk of the column has a NULL)
     * @param firstRow the column row of the first chunk's first row
     */
    DecodePlan(TypeKind kind, int width, boolean hasNulls, MergedDictionary renumbering, long firstRow) {
        this.kind = kind;
        this.width = width;
        this.hasNulls = hasNulls;
        this.renumbering = renumbering;
        this.rows = firstRow;
    }

    /** Plans the next chunk's rows, which follow those of the chunks added before. */
    void add(EncodedColumnChunk chunk) {
        int n = chunk.rowCount();
        if (n == 0) {
            return;
        }
        long rowOffset = rows;
        rows += n;
        Location validityOut = hasNulls ? new Location(Location.Region.VALIDITY, rowOffset) : null;
        if (hasNulls) {
            addValidity(chunk.validity(), validityOut, n);
        }
        Location valuesOut = new Location(Location.Region.VALUES, rowOffset * width);
        // The host upload writes 0 under NULL booleans and renumbered string codes; decoding must match it.
        boolean zeroNullRows = hasNulls && (kind == TypeKind.BOOLEAN || renumbering != null);
        ChunkValues values = chunk.values();
        if (values == null) {
            stores.add(DecodeTask.of(StreamRef.ZEROS, valuesOut, n, width));
            return;
        }
        StreamRef source = null;
        IntegerStream root = null;
        StreamRef entries = StreamRef.NONE;
        long entryCount = 0;
        if (values instanceof ChunkValues.Plain plain) {
            source = plainRef(plain.bytes());
        } else if (values instanceof ChunkValues.Cascaded cascaded) {
            root = cascaded.values();
        } else {
            ChunkValues.Dictionary dictionary = (ChunkValues.Dictionary) values;
            root = dictionary.codes();
            if (dictionary.entries() instanceof ChunkValues.NumericEntries numeric) {
                entries = resolve(numeric.sortedValues()).ref();
                entryCount = numeric.sortedValues().count();
            } else if (renumbering != null) {
                StringDictionary strings = ((ChunkValues.StringEntries) dictionary.entries()).strings();
                entries = StreamRef.of(StreamRef.Kind.INTS, codeMap(strings));
                entryCount = strings.size();
            }
        }
        if (root != null) {
            if (entries == StreamRef.NONE && !zeroNullRows && !(root instanceof IntegerStream.BitPacked)) {
                // The outermost layer writes the column itself: no pass over an intermediate stream.
                produce(root, valuesOut, width);
                return;
            }
            source = resolve(root).ref();
        }
        stores.add(new DecodeTask(source, entries, valuesOut, zeroNullRows ? validityOut : null, entryCount, n, width,
                zeroNullRows ? DecodeTask.ZERO_NULL_ROWS : 0));
    }

    private void addValidity(ChunkValidity described, Location out, int n) {
        if (described instanceof ChunkValidity.NoNulls) {
            validity.add(new DecodeTask(StreamRef.NONE, StreamRef.NONE, out, null, 0, n, 1, DecodeTask.ALL_VALID));
        } else if (described instanceof ChunkValidity.AllNull) {
            validity.add(new DecodeTask(StreamRef.NONE, StreamRef.NONE, out, null, 0, n, 1, DecodeTask.ALL_NULL));
        } else if (described instanceof ChunkValidity.Bitmap bitmap) {
            StreamRef bits = StreamRef.of(StreamRef.Kind.PLAIN_BITS, locate(bitmap.bits()));
            validity.add(new DecodeTask(bits, StreamRef.NONE, out, null, 0, n, 1, DecodeTask.BITMAP));
        } else {
            IntegerStream.BitPacked lengths = ((ChunkValidity.Runs) described).lengths();
            if (lengths.count() == 0) {
                throw new IllegalArgumentException("corrupt encoded chunk: no validity runs for " + n + " rows");
            }
            expandRuns(StreamRef.ALTERNATING, 0, lengths, n, out, 1);
        }
    }

    /** How a consumer reads {@code stream}: bit-packed in place, or decoded into scratch by planned work. */
    private Resolved resolve(IntegerStream stream) {
        if (stream instanceof IntegerStream.BitPacked packed) {
            return new Resolved(packedRef(packed), 0);
        }
        if (stream.count() == 0) {
            return new Resolved(StreamRef.ZEROS, 0);
        }
        Location scratch = scratch(stream.count());
        return new Resolved(StreamRef.of(StreamRef.Kind.LONGS, scratch), produce(stream, scratch, Long.BYTES));
    }

    /** Plans the work that writes an RLE or Delta stream (count above 0) to {@code out}; returns its height. */
    private int produce(IntegerStream stream, Location out, int outWidth) {
        if (stream instanceof IntegerStream.RunLengths runs) {
            Resolved runValues = resolve(runs.runValues());
            return expandRuns(runValues.ref(), runValues.height(), runs.runLengths(), runs.count(), out, outWidth);
        }
        IntegerStream.Deltas delta = (IntegerStream.Deltas) stream;
        Resolved differences = resolve(delta.differences());
        int height = differences.height() + 1;
        at(deltas, height).add(new DecodeTask(differences.ref(), StreamRef.NONE, out, null, delta.first(), delta.count(),
                outWidth, 0));
        return height;
    }

    private int expandRuns(StreamRef runValues, int runValuesHeight, IntegerStream.BitPacked runLengths, int count,
            Location out, int outWidth) {
        Location ends = scratch(runLengths.count());
        runEnds.add(new DecodeTask(packedRef(runLengths), StreamRef.NONE, null, ends, 0, runLengths.count(), Long.BYTES, 0));
        int height = runValuesHeight + 1;
        at(runExpansions, height).add(new DecodeTask(runValues, StreamRef.NONE, out, ends, runLengths.count(), count, outWidth, 0));
        return height;
    }

    private StreamRef packedRef(IntegerStream.BitPacked packed) {
        if (packed.count() == 0) {
            return StreamRef.ZEROS;
        }
        return StreamRef.packed(packed.width() == 0 ? null : locate(packed.words()), packed.reference(), packed.width());
    }

    private StreamRef plainRef(ChunkSlice bytes) {
        StreamRef.Kind plainKind = switch (width) {
            case 1 -> StreamRef.Kind.PLAIN_BITS;
            case 4 -> StreamRef.Kind.PLAIN_INT32;
            default -> StreamRef.Kind.PLAIN_INT64;
        };
        return StreamRef.of(plainKind, locate(bytes));
    }

    /**
     * Where a slice lies once on the device; it is taken along at first sight. Only the slices that
     * tasks read travel, not whole chunks: a string chunk's dictionary entries (most of its bytes
     * for comments and names) stay on the host, where the merged dictionary holds them.
     */
    private Location locate(ChunkSlice slice) {
        Map<Long, Long> ofChunk = sliceOffsets.computeIfAbsent(slice.chunk(), c -> new HashMap<>());
        Long offset = ofChunk.computeIfAbsent((long) slice.offset() << 32 | slice.length(), k -> {
            long at = sliceBytes;
            slices.add(slice.chunk().slice(slice.offset(), slice.length()));
            sliceBytes += roundUp8(slice.length());
            return at;
        });
        return new Location(Location.Region.CHUNKS, offset);
    }

    private Location codeMap(StringDictionary strings) {
        return codeMapLocations.computeIfAbsent(strings, d -> {
            int[] map = renumbering.codeMap(d);
            Location location = new Location(Location.Region.CODE_MAPS, codeMapBytes);
            codeMaps.add(map);
            codeMapBytes += (long) map.length * Integer.BYTES;
            return location;
        });
    }

    private Location scratch(int longs) {
        Location location = new Location(Location.Region.SCRATCH, scratchBytes);
        scratchBytes += (long) longs * Long.BYTES;
        return location;
    }

    private static List<DecodeTask> at(List<List<DecodeTask>> byHeight, int height) {
        while (byHeight.size() <= height) {
            byHeight.add(new ArrayList<>());
        }
        return byHeight.get(height);
    }

    static long roundUp8(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** The distinct slices the tasks read, in the order of their offsets in {@link Location.Region#CHUNKS}. */
    List<ByteBuffer> slices() {
        return slices;
    }

    /** Bytes of {@link #slices()} on the device, each rounded up to 8. */
    long sliceBytes() {
        return sliceBytes;
    }

    long scratchBytes() {
        return scratchBytes;
    }

    /** The string code maps back to back, in the order of their offsets in {@link Location.Region#CODE_MAPS}. */
    int[] codeMaps() {
        int[] all = new int[Math.toIntExact(codeMapBytes / Integer.BYTES)];
        int at = 0;
        for (int[] map : codeMaps) {
            System.arraycopy(map, 0, all, at, map.length);
            at += map.length;
        }
        return all;
    }

    /** The launches in the order they must run, each a kernel and its tasks (none empty). */
    List<Launch> launches() {
        List<Launch> launches = new ArrayList<>();
        addLaunch(launches, DecodeKernel.RUN_ENDS, runEnds);
        for (int height = 1; height < Math.max(runExpansions.size(), deltas.size()); height++) {
            addLaunch(launches, DecodeKernel.RUN_EXPAND, height < runExpansions.size() ? runExpansions.get(height) : List.of());
            addLaunch(launches, DecodeKernel.DELTAS, height < deltas.size() ? deltas.get(height) : List.of());
        }
        addLaunch(launches, DecodeKernel.VALIDITY, validity);
        addLaunch(launches, DecodeKernel.STORE, stores);
        return launches;
    }

    private static void addLaunch(List<Launch> launches, DecodeKernel kernel, List<DecodeTask> tasks) {
        if (!tasks.isEmpty()) {
            launches.add(new Launch(kernel, List.copyOf(tasks)));
        }
    }

    /** One kernel launch over a table of tasks. */
    record Launch(DecodeKernel kernel, List<DecodeTask> tasks) {
        int blocks() {
            return tasks.stream().mapToInt(DecodeTask::blocks).sum();
        }
    }
}
