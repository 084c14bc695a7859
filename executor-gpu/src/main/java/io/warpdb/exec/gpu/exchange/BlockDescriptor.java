package io.warpdb.exec.gpu.exchange;

import java.nio.ByteBuffer;

/**
 * The rows of one exported part as a peer finds them in the sender's arena: per column the offset
 * of its values and of its validity bytes (-1: no NULLs), and the bytes per value. Its frame:
 * rows, columns, then per column width, values offset, validity offset.
 */
record BlockDescriptor(int rows, int[] widths, long[] values, long[] validity) {
    int columns() {
        return widths.length;
    }

    /** Bytes the rows take on the device. */
    long bytes() {
        long total = 0;
        for (int c = 0; c < widths.length; c++) {
            total += (long) rows * (widths[c] + (validity[c] < 0 ? 0 : 1));
        }
        return total;
    }

    ByteBuffer encode() {
        ByteBuffer out = ByteBuffer.allocate(8 + widths.length * 20);
        out.putInt(rows).putInt(widths.length);
        for (int c = 0; c < widths.length; c++) {
            out.putInt(widths[c]).putLong(values[c]).putLong(validity[c]);
        }
        return out.flip();
    }

    static BlockDescriptor decode(ByteBuffer frame) {
        ByteBuffer in = frame.duplicate();
        int rows = in.getInt();
        int columns = in.getInt();
        if (rows < 0 || columns < 0 || in.remaining() != columns * 20L) {
            throw new IllegalArgumentException("not a device block descriptor: " + frame.remaining() + " bytes");
        }
        int[] widths = new int[columns];
        long[] values = new long[columns];
        long[] validity = new long[columns];
        for (int c = 0; c < columns; c++) {
            widths[c] = in.getInt();
            values[c] = in.getLong();
            validity[c] = in.getLong();
        }
        return new BlockDescriptor(rows, widths, values, validity);
    }
}
