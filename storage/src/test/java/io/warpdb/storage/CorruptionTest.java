package io.warpdb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files (flipped bytes, truncation, deletion) in segments, delete vectors and manifests
 * must fail with a clear "corrupt data file" error naming the file and its table: never a wrong
 * answer, never a silent fallback to an older version.
 */
class CorruptionTest {
    private static final StorageOptions OPTIONS = StorageOptions.defaults().withSegmentRows(1000);
    private static final int ROWS = 2500;

    @TempDir
    Path dir;
    private BufferAllocator root;
    private final Random random = new Random(42);

    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        try (Catalog catalog = open(); BufferAllocator a = allocator()) {
            Table t = catalog.create("t", DurableCatalogTest.ALL_TYPES, false);
            DurableCatalogTest.append(t, 0, ROWS, 1000, a);
            DurableCatalogTest.deleteWhere(t, k -> k % 10 == 0, a);
        }
    }

    @AfterEach
    void tearDown() {
        assertEquals(0, root.getAllocatedMemory(), "leaked Arrow memory");
        root.close();
    }

    private Catalog open() {
        return Catalog.open(dir, root, OPTIONS);
    }

    private BufferAllocator allocator() {
        return root.newChildAllocator("query", 0, Long.MAX_VALUE);
    }

    private static List<Integer> allColumns() {
        return IntStream.range(0, DurableCatalogTest.ALL_TYPES.size()).boxed().toList();
    }

    private record Chunk(Path file, ChunkLocation location, int column) {
    }

    private List<Chunk> chunks() {
        List<Chunk> chunks = new ArrayList<>();
        try (Catalog catalog = open()) {
            DataDirectory files = ((DurableStore) catalog.store()).directory();
            catalog.manifest().forEachSegment(ref -> {
                FileSegment s = (FileSegment) ref.segment();
                for (int c = 0; c < s.chunks().size(); c++) {
                    chunks.add(new Chunk(files.segmentFile(s.id()), s.chunks().get(c), c));
                }
            });
        }
        return chunks;
    }

    /** Scanning {@code columns} fails with a corrupt-data error naming {@code file} and table t. */
    private void assertScanReports(Path file, List<Integer> columns) {
        try (Catalog catalog = open(); BufferAllocator a = allocator()) {
            CorruptDataException e = assertThrows(CorruptDataException.class,
                    () -> TestData.read(catalog.table("t").orElseThrow().snapshot(), columns, List.of(), a));
            assertCorrupt(e, file, "table t");
        }
    }

    private static void assertCorrupt(CorruptDataException e, Path file, String owner) {
        assertEquals(SqlState.INTERNAL_ERROR, e.state());
        assertTrue(e.getMessage().startsWith("corrupt data file " + file + " of " + owner + ": "), e.getMessage());
    }

    private List<List<Object>> expectedRows() {
        List<List<Object>> rows = DurableCatalogTest.allTypesRows(0, ROWS);
        rows.removeIf(r -> (long) r.get(0) % 10 == 0);
        return rows;
    }

    @Test
    void aFlippedByteInAnyColumnChunkIsReportedAndOtherColumnsStillRead() throws IOException {
        for (Chunk chunk : chunks()) {
            long at = chunk.location().offset() + random.nextInt(chunk.location().length());
            flip(chunk.file(), at);
            assertScanReports(chunk.file(), allColumns());
            assertScanReports(chunk.file(), List.of(chunk.column()));
            int other = (chunk.column() + 1) % DurableCatalogTest.ALL_TYPES.size();
            try (Catalog catalog = open(); BufferAllocator a = allocator()) {
                List<List<Object>> column = TestData.read(catalog.table("t").orElseThrow().snapshot(), List.of(other), List.of(), a);
                assertEquals(expectedRows().stream().map(r -> TestData.row(r.get(other))).toList(), column);
            }
            flip(chunk.file(), at); // repair, for the next chunk
        }
        assertAllRowsReadable();
    }

    @Test
    void aTruncatedOrMissingSegmentFileIsReported() throws IOException {
        List<Chunk> chunks = chunks();
        Path file = chunks.get(chunks.size() - 1).file();
        long length = Files.size(file);
        for (long keep : new long[] {length - 1, length / 2, 9, 0}) {
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                f.setLength(keep);
            }
            assertScanReports(file, allColumns());
        }
        Files.delete(file);
        assertScanReports(file, allColumns());
    }

    @Test
    void aDamagedManifestFailsTheOpenInsteadOfFallingBack() throws IOException {
        Path manifest = manifestFile();
        byte[] good = Files.readAllBytes(manifest);
        List<Integer> positions = new ArrayList<>(List.of(0, 7, 8, good.length - 1, good.length - 4));
        for (int i = 0; i < 20; i++) {
            positions.add(random.nextInt(good.length));
        }
        for (int at : positions) {
            flip(manifest, at);
            assertCorrupt(assertThrows(CorruptDataException.class, this::open), manifest, "the catalog manifest");
            flip(manifest, at);
        }
        for (int keep : new int[] {good.length - 1, good.length / 2, 11, 0}) {
            Files.write(manifest, java.util.Arrays.copyOf(good, keep));
            assertCorrupt(assertThrows(CorruptDataException.class, this::open), manifest, "the catalog manifest");
        }
        Files.delete(manifest);
        assertCorrupt(assertThrows(CorruptDataException.class, this::open), dir, "the catalog");
        Files.write(manifest, good);
        assertAllRowsReadable(); // failed opens delete nothing
    }

    private void assertAllRowsReadable() {
        try (Catalog catalog = open(); BufferAllocator a = allocator()) {
            assertEquals(expectedRows(), TestData.read(catalog.table("t").orElseThrow().snapshot(), a));
        }
    }

    @Test
    void aDamagedDeleteVectorIsReported() throws IOException {
        Path deletes;
        try (var files = Files.list(dir.resolve("data"))) {
            deletes = files.filter(f -> f.toString().endsWith(".del")).findFirst().orElseThrow();
        }
        long at = 8 + random.nextInt((int) Files.size(deletes) - 8);
        flip(deletes, at);
        assertCorrupt(assertThrows(CorruptDataException.class, this::open), deletes, "table t");
        flip(deletes, at);
        assertAllRowsReadable();
    }

    private Path manifestFile() throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("manifest-")).findFirst().orElseThrow();
        }
    }

    private static void flip(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
    }
}
