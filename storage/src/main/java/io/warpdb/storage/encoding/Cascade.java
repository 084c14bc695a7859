package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.IntegerStream;
import io.warpdb.core.data.encoded.IntegerStream.BitPacked;
import io.warpdb.core.data.encoded.IntegerStream.Deltas;
import io.warpdb.core.data.encoded.IntegerStream.RunLengths;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A stack of integer layers that always ends in {@link FrameOfReferenceBitPack}, e.g.
 * rle+delta+rle+bitpack, after the cascaded compression of Gao &amp; Sakharnykh (seed paper 000,
 * section 4). Used on a column's values and on every integer stream inside other encodings
 * (dictionary codes, string lengths).
 *
 * <p>Composition rule, that of nvcomp's cascaded compressor which the paper's Figure 5d shows:
 * the layers apply in order to the <em>values</em> stream (RLE hands down its run values, Delta
 * its differences), and the last values stream is FOR+bitpacked. The run lengths of every RLE
 * layer go straight to FOR+bitpack: they are positive counts whose range bitpacking already
 * captures, and a Delta would only widen them (lengths 1..7 become differences -6..6).
 *
 * <p>Wire (a "cascaded stream"): {@code u8 layerCount, u8 layer id per layer (outermost first:
 * 1 = RLE, 2 = Delta), then the outermost layer's data}. The value count is not written: the
 * enclosing format knows it.
 */
record Cascade(List<Layer> layers) implements ValueEncoding {
    static final byte WIRE_ID = 1;

    enum Layer {
        RUN_LENGTH(1, "rle"),
        DELTA(2, "delta");

        final int wireId;
        final String label;

        Layer(int wireId, String label) {
            this.wireId = wireId;
            this.label = label;
        }

        static Layer ofWireId(int wireId) {
            for (Layer layer : values()) {
                if (layer.wireId == wireId) {
                    return layer;
                }
            }
            throw new IllegalArgumentException("corrupt encoded chunk: unknown cascade layer " + wireId);
        }
    }

    static final Cascade BITPACK_ONLY = new Cascade(List.of());

    /**
     * What the selector tries: 0..2 RLE and 0..1 Delta layers, always bitpacked (the paper's
     * Table 1), simplest first. Two RLE layers without a Delta between them are left out: after
     * one RLE no two neighbours are equal, so a second one only adds runs of length 1.
     */
    static final List<Cascade> CANDIDATES = List.of(
            interleaved(0, 0), interleaved(0, 1), interleaved(1, 0), interleaved(1, 1), interleaved(2, 1));

    /** Guards decoding against corrupt headers; no candidate comes near it. */
    private static final int MAX_LAYERS = 8;

    Cascade {
        layers = List.copyOf(layers);
    }

    static Cascade of(Layer... layers) {
        return new Cascade(List.of(layers));
    }

    /**
     * nvcomp's arrangement of a layer count: step i applies an RLE while RLE layers remain, then a
     * Delta while Delta layers remain. So 2 RLE + 1 Delta is rle+delta+rle: the first RLE folds
     * repeated keys, Delta turns the distinct sorted keys into small gaps, the second RLE folds
     * runs of equal gaps (the paper's choice for TPC-H orderkeys).
     */
    static Cascade interleaved(int runLengthLayers, int deltaLayers) {
        List<Layer> layers = new ArrayList<>();
        for (int step = 0; step < Math.max(runLengthLayers, deltaLayers); step++) {
            if (step < runLengthLayers) {
                layers.add(Layer.RUN_LENGTH);
            }
            if (step < deltaLayers) {
                layers.add(Layer.DELTA);
            }
        }
        return new Cascade(layers);
    }

    @Override
    public byte wireId() {
        return WIRE_ID;
    }

    /** Exactly the number of bytes {@link #write} would write for {@code values}. */
    long analyze(long[] values) {
        return headerBytes() + stack().analyze(values);
    }

    /** Writes {@code values} as a cascaded stream; returns the bit width the values ended up packed in. */
    int write(long[] values, ByteWriter out) {
        out.putByte(layers.size());
        for (Layer layer : layers) {
            out.putByte(layer.wireId);
        }
        return stack().encode(values, out);
    }

    /** Reads a cascaded stream of {@code count} values into {@code target[0..count)}. */
    static void read(ByteReader in, long[] target, int count) {
        decode(readStream(in, count), target, 0);
    }

    /** Describes a cascaded stream of {@code count} values, reading past it. */
    static IntegerStream readStream(ByteReader in, int count) {
        int layerCount = in.readByte();
        if (layerCount < 0 || layerCount > MAX_LAYERS) {
            throw new IllegalArgumentException("corrupt encoded chunk: " + layerCount + " cascade layers");
        }
        List<Layer> layers = new ArrayList<>(layerCount);
        for (int i = 0; i < layerCount; i++) {
            layers.add(Layer.ofWireId(in.readByte()));
        }
        return new Cascade(layers).stack().read(in, count);
    }

    /** Decodes a described stream into {@code target[offset..offset+count)}: the host's decoder. */
    static void decode(IntegerStream stream, long[] target, int offset) {
        if (stream instanceof BitPacked packed) {
            FrameOfReferenceBitPack.unpack(packed, target, offset);
        } else if (stream instanceof RunLengths runs) {
            RunLength.expand(runs, target, offset);
        } else if (stream instanceof Deltas deltas) {
            Delta.integrate(deltas, target, offset);
        } else {
            throw new IllegalArgumentException("unknown integer stream " + stream);
        }
    }

    @Override
    public String encode(ColumnValues column, ByteWriter out) {
        return describe(write(column.values(), out));
    }

    /** Decodes a column body described by {@link #readStream} into an Arrow data buffer. */
    static void decode(IntegerStream values, PhysicalLayout layout, ArrowBuf data) {
        long[] decoded = new long[values.count()];
        decode(values, decoded, 0);
        layout.store(decoded, decoded.length, data);
    }

    /** E.g. "rle+delta+bitpack(3)", where 3 is the bit width of the final values stream. */
    String describe(int bitWidth) {
        return this + "(" + bitWidth + ")";
    }

    /** E.g. "rle+delta+bitpack". */
    @Override
    public String toString() {
        StringBuilder name = new StringBuilder();
        for (Layer layer : layers) {
            name.append(layer.label).append('+');
        }
        return name.append("bitpack").toString();
    }

    private int headerBytes() {
        return 1 + layers.size();
    }

    /** The layers as encoder objects, outermost first: each one hands its values to the next. */
    private IntegerEncoding stack() {
        IntegerEncoding encoding = FrameOfReferenceBitPack.INSTANCE;
        for (int i = layers.size() - 1; i >= 0; i--) {
            encoding = switch (layers.get(i)) {
                case RUN_LENGTH -> new RunLength(encoding);
                case DELTA -> new Delta(encoding);
            };
        }
        return encoding;
    }
}
