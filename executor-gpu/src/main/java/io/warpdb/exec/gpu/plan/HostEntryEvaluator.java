package io.warpdb.exec.gpu.plan;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.HostEvaluator;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Evaluates per-dictionary-entry expressions with the {@link HostEvaluator} (the CPU executor's),
 * so string functions have exactly one implementation; the GPU only ever sees the resulting
 * lookup tables. A large dictionary is evaluated in pieces on several cores. When a piece fails
 * (a CAST of a bad string), its entries are evaluated one by one so that only rows holding a
 * failing entry raise its error. Results are kept per dictionary while it lives: a
 * dictionary of columns cached in device memory meets the same expressions query after query
 * (a LIKE over a million comments costs far more than the GPU's whole filter).
 */
final class HostEntryEvaluator implements EntryEvaluator {
    private static final Cache<StringDictionary, Map<EntryExpression, EntryValues>> BY_DICTIONARY =
            Caffeine.newBuilder().weakKeys().maximumSize(1024).build();

    /**
     * Dictionaries of more entries than this are evaluated in pieces on several cores: TPC-H q13's
     * LIKE over o_comment (15 M entries at SF 10) took its first run 10 s on one.
     */
    private static final int PIECE_ENTRIES = 1 << 16;

    /** Null until a query first evaluates per entry; see {@link #host()}. */
    private static volatile HostEvaluator hostEvaluator;

    private final ExecContext context;

    /** An expression over a dictionary's entries, as the lookup tables are keyed. */
    private record EntryExpression(Expr overEntries, DataType entryType) {
    }

    HostEntryEvaluator(ExecContext context) {
        this.context = context;
    }

    /** The values of {@code overEntries} per entry (shared: callers must not change the arrays). */
    @Override
    public EntryValues evaluate(Expr overEntries, DataType entryType, StringDictionary dictionary) {
        Map<EntryExpression, EntryValues> known = BY_DICTIONARY.get(dictionary, d -> new ConcurrentHashMap<>());
        EntryExpression key = new EntryExpression(overEntries, entryType);
        EntryValues values = known.get(key);
        if (values == null) {
            values = evaluateAll(overEntries, entryType, dictionary);
            known.put(key, values);
        }
        return values;
    }

    private EntryValues evaluateAll(Expr overEntries, DataType entryType, StringDictionary dictionary) {
        int pieces = (int) Math.max(1, Math.min(ForkJoinPool.getCommonPoolParallelism(), dictionary.size() / PIECE_ENTRIES));
        return evaluateInPieces(overEntries, entryType, dictionary, pieces);
    }

    /** As {@link #evaluate} (nothing kept), the entries cut into {@code pieces} pieces evaluated at once. */
    EntryValues evaluateInPieces(Expr overEntries, DataType entryType, StringDictionary dictionary, int pieces) {
        int n = dictionary.size();
        HostEvaluator host = host();
        if (pieces == 1) {
            return evaluatePiece(host, overEntries, entryType, dictionary);
        }
        List<EntryValues> parts = IntStream.range(0, pieces).parallel().mapToObj(p -> evaluatePiece(host, overEntries, entryType,
                piece(dictionary, (int) ((long) n * p / pieces), (int) ((long) n * (p + 1) / pieces)))).toList();
        return concatenated(parts, n, overEntries.type().kind().isString());
    }

    /** Entries [from, to) of {@code dictionary} as a dictionary of their own. */
    private static StringDictionary piece(StringDictionary dictionary, int from, int to) {
        String[] entries = new String[to - from];
        for (int code = from; code < to; code++) {
            entries[code - from] = dictionary.get(code);
        }
        return StringDictionary.ofValues(entries);
    }

    /** The values of {@code overEntries} for every entry of {@code dictionary}, on this thread. */
    private EntryValues evaluatePiece(HostEvaluator host, Expr overEntries, DataType entryType, StringDictionary dictionary) {
        int n = dictionary.size();
        long[] values = new long[n];
        boolean[] nulls = new boolean[n];
        try (Batch all = run(host, overEntries, entryType, dictionary)) {
            for (int i = 0; i < n; i++) {
                read(all, i, overEntries.type(), values, nulls, i);
            }
            return new EntryValues(values, nulls, null, all.dictionary(0));
        } catch (WarpException whole) {
            WarpException[] errors = new WarpException[n];
            StringDictionary.Builder strings = new StringDictionary.Builder();
            boolean isString = overEntries.type().kind().isString();
            for (int i = 0; i < n; i++) {
                try (Batch one = run(host, overEntries, entryType, StringDictionary.ofDistinct(List.of(dictionary.get(i))))) {
                    read(one, 0, overEntries.type(), values, nulls, i);
                    if (isString && !nulls[i]) {
                        values[i] = strings.add(one.dictionary(0).get((int) values[i]));
                    }
                } catch (WarpException e) {
                    errors[i] = e;
                    nulls[i] = true;
                }
            }
            return new EntryValues(values, nulls, errors, isString ? strings.build() : null);
        }
    }

    /** The pieces' values one after another ({@code n} in all), string results in one dictionary. */
    private static EntryValues concatenated(List<EntryValues> parts, int n, boolean isString) {
        long[] values = new long[n];
        boolean[] nulls = new boolean[n];
        WarpException[] errors = null;
        StringDictionary.Builder strings = isString ? new StringDictionary.Builder() : null;
        int at = 0;
        for (EntryValues part : parts) {
            for (int i = 0; i < part.values().length; i++, at++) {
                nulls[at] = part.nulls()[i];
                values[at] = isString && !nulls[at] ? strings.add(part.dictionary().get((int) part.values()[i])) : part.values()[i];
                if (part.fails(i)) {
                    errors = errors != null ? errors : new WarpException[n];
                    errors[at] = part.errors()[i];
                }
            }
        }
        return new EntryValues(values, nulls, errors, isString ? strings.build() : null);
    }

    /**
     * The values of {@code overColumns} per combination, downloaded and evaluated together (not
     * kept: the combinations are those of one query's rows).
     */
    @Override
    public EntryValues evaluateCombinations(Expr overColumns, DeviceTable combinations, DeviceWork work) {
        try (Batch rows = DeviceToHost.download(combinations, 0, combinations.rows(), context.allocator(), work)) {
            return evaluateRows(overColumns, rows);
        }
    }

    /** The values of {@code overColumns} per row of {@code rows} (which stays the caller's). */
    EntryValues evaluateRows(Expr overColumns, Batch rows) {
        int n = rows.rowCount();
        long[] values = new long[n];
        boolean[] isNull = new boolean[n];
        try (Batch all = run(host(), overColumns, new BatchRows(rows))) {
            for (int i = 0; i < n; i++) {
                read(all, i, overColumns.type(), values, isNull, i);
            }
            return new EntryValues(values, isNull, null, all.dictionary(0));
        }
    }

    private Batch run(HostEvaluator host, Expr overEntries, DataType entryType, StringDictionary dictionary) {
        return run(host, overEntries, CodeColumns.entries(entryType, dictionary));
    }

    private Batch run(HostEvaluator host, Expr overEntries, TableSource input) {
        Schema value = Schema.of(new Field("value", overEntries.type()));
        try (BatchStream stream = host.evaluate(input, List.of(overEntries), value, context)) {
            Batch result = stream.next();
            Batch extra = stream.next();
            if (extra != null) {
                extra.close();
                result.close();
                throw new WarpException(SqlState.INTERNAL_ERROR, "per-entry evaluation returned several batches");
            }
            return result;
        }
    }

    /** The host evaluator, loaded on first use (a lost race loads it twice, harmlessly). */
    private static HostEvaluator host() {
        HostEvaluator loaded = hostEvaluator;
        if (loaded == null) {
            loaded = HostEvaluator.load();
            hostEvaluator = loaded;
        }
        return loaded;
    }

    /** Row {@code row} of the one-column batch as the interpreter's value. */
    private static void read(Batch batch, int row, DataType type, long[] values, boolean[] nulls, int at) {
        FieldVector v = batch.vector(0);
        nulls[at] = v.isNull(row);
        if (nulls[at]) {
            return;
        }
        values[at] = switch (type.kind()) {
            case BOOLEAN -> ((BitVector) v).get(row);
            case INTEGER, DATE, VARCHAR, CHAR -> v.getDataBuffer().getInt((long) row * 4);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL, DOUBLE -> v.getDataBuffer().getLong((long) row * 8);
        };
    }
}
