package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Rows per second through the exchange's plain wire format (nodes of one host), encoded and decoded,
 * for a batch shaped like TPC-H q10's customer rows: a distinct name and comment per row and a
 * market segment of five values, each column over a stored segment's UTF-8 dictionary. Run it with
 * {@code main} on the test class path (the command is in docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WireStringsBenchmark {
    static final int ROWS = 1 << 16;
    private static final Schema SCHEMA = new Schema(List.of(new Field("c_name", DataType.varchar(25)),
            new Field("c_comment", DataType.varchar(117)), new Field("c_mktsegment", DataType.chars(10))));

    private BufferAllocator allocator;
    private Batch batch;

    @Setup
    public void setUp() {
        allocator = new RootAllocator();
        Random random = new Random(42);
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        String[] segments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
        for (int c = 0; c < SCHEMA.size(); c++) {
            int column = c;
            int entries = c == 2 ? segments.length : ROWS;
            Utf8Strings.Builder dictionary = new Utf8Strings.Builder(entries, entries * 64);
            for (int e = 0; e < entries; e++) {
                String value = switch (column) {
                    case 0 -> String.format("Customer#%09d", e);
                    case 1 -> comment(random);
                    default -> segments[e];
                };
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                dictionary.add(bytes, 0, bytes.length);
            }
            FieldVector codes = Vectors.allocate(SCHEMA.field(c).name(), SCHEMA.type(c), ROWS, allocator);
            for (int r = 0; r < ROWS; r++) {
                Vectors.setNormalized(codes, SCHEMA.type(c), r, column == 2 ? random.nextInt(segments.length) : r);
            }
            codes.setValueCount(ROWS);
            vectors.add(codes);
            dictionaries.add(StringDictionary.ofUtf8(dictionary.build(), true));
        }
        batch = new Batch(SCHEMA, vectors, dictionaries, ROWS);
    }

    /** A comment of 29 to 116 letters and spaces, as TPC-H's text generator's lengths. */
    private static String comment(Random random) {
        StringBuilder text = new StringBuilder();
        int length = 29 + random.nextInt(88);
        while (text.length() < length) {
            text.append(random.nextInt(6) == 0 ? ' ' : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    @TearDown
    public void tearDown() {
        batch.close();
        allocator.close();
    }

    /** One batch encoded as a sender does and decoded as a receiver does; a value per row and column. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int roundTrip() {
        ByteBuffer schemaFrame;
        ByteBuffer received;
        try (WireCodec sender = WireCodec.forSending(SCHEMA, false, allocator, new WireCodec.Choices(SCHEMA));
                ArrowBuf frame = sender.encode(batch)) {
            schemaFrame = sender.schemaFrame();
            received = ByteBuffer.allocateDirect((int) frame.writerIndex());
            frame.getBytes(0, received);
            received.clear();
        }
        try (WireCodec receiver = WireCodec.forReceiving(schemaFrame, allocator);
                ArrowBuf frame = WireCodec.frameOf(received, allocator);
                Batch decoded = receiver.decode(frame)) {
            return decoded.dictionary(1).size();
        }
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(WireStringsBenchmark.class.getName()).forks(1).warmupIterations(3)
                .warmupTime(TimeValue.seconds(1)).measurementIterations(5).measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g").build()).run();
    }
}
