/**
 * Column-chunk encodings: how one column of a row group is stored, after the cascaded
 * compression of Gao &amp; Sakharnykh (seed paper 000, section 4).
 *
 * <p>Entry point {@link io.warpdb.storage.encoding.ChunkCodec}. Values of every type travel as
 * 64-bit integers ({@code PhysicalLayout}), so one set of integer layers ({@code RunLength},
 * {@code Delta}, {@code FrameOfReferenceBitPack}), stacked into a {@code Cascade}, serves INTEGER,
 * BIGINT, DECIMAL, DATE, DOUBLE (raw bits), BOOLEAN and dictionary codes. {@code CascadeSelector}
 * picks per chunk among {@code Plain}, the candidate cascades and {@code Dictionary}.
 *
 * <h2>Wire format</h2>
 * All integers little-endian; {@code u8}/{@code i32}/{@code i64} are 1/4/8 bytes.
 * <pre>
 * chunk        := u8 formatVersion (1) · u8 layout (0 BIT, 1 INT32, 2 INT64) · i32 rowCount
 *                 · validity · values            (values absent when validity is "all null")
 *               | u8 formatVersion (1) · u8 3 · i32 rowCount · validity · values · values
 *                                                a DECIMAL of precision over 18 (Arrow decimal128): the
 *                                                low 64-bit words, then the high ones, each as INT64 values
 * validity     := u8 0                           no NULLs
 *               | u8 1                           all NULL
 *               | u8 2 · ceil(rowCount/8) bytes   Arrow's bitmap, bits past rowCount zero
 *               | u8 3 · i32 r · bitpacked(r)     lengths of alternating valid/NULL runs, valid first
 * values       := u8 0 · plain
 *               | u8 1 · cascaded(rowCount)
 *               | u8 2 · i32 n · entries(n) · cascaded(rowCount)     dictionary; the last part is the codes
 * plain        := the rowCount values exactly as the Arrow data buffer holds them (bits LSB first)
 * entries(n)   := cascaded(n) UTF-8 byte lengths · the UTF-8 bytes back to back   (VARCHAR, CHAR)
 *               | cascaded(n) distinct values, ascending                          (other types)
 * cascaded(c)  := u8 L · L × u8 layer id (1 RLE, 2 Delta, outermost first) · layer_1(c)
 * layer_k(c)   := RLE:   i32 r · layer_k+1(r) run values · bitpacked(r) run lengths
 *               | Delta: nothing if c = 0, else i64 first value · layer_k+1(c-1) differences
 * layer_L+1(c) := bitpacked(c)
 * bitpacked(c) := nothing if c = 0, else i64 reference (the minimum) · u8 width (0..64)
 *                 · ceil(c·width/64) × i64 words holding value - reference, value i at bits [i·width, (i+1)·width)
 * </pre>
 * NULL slots are encoded as the nearest earlier non-null value, so they extend runs and deltas
 * rather than break them; decoding leaves that value under the NULL.
 */
package io.warpdb.storage.encoding;
