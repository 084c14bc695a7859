package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.column.Column;

/**
 * A non-string function of one string argument (a comparison with a constant, LIKE, IN, CAST
 * to a number or date, CHAR_LENGTH) computed once per dictionary entry instead of once per row:
 * the entries a batch uses and that are not known yet are evaluated together, remembered for
 * the dictionary, and the rows then look their code up. Only entries that rows use are
 * evaluated, so an unused entry that would fail (CAST('abc' AS INTEGER)) raises nothing.
 */
final class DictionaryLookupEvaluator implements Evaluator {
    private final Evaluator strings;
    /** The function over a one-column input whose rows are dictionary entries. */
    private final Evaluator perEntry;
    private final boolean isDouble;

    /** The dictionary the remembered results belong to, and the results by code. */
    private StringDictionary dictionary;
    private boolean[] known;
    private boolean[] resultNulls;
    private long[] resultLongs;
    private double[] resultDoubles;

    DictionaryLookupEvaluator(Evaluator strings, Evaluator perEntry) {
        this.strings = strings;
        this.perEntry = perEntry;
        this.isDouble = perEntry.type().kind() == TypeKind.DOUBLE;
    }

    @Override
    public DataType type() {
        return perEntry.type();
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column s = strings.evaluate(input);
        if (s.dictionary() != dictionary) {
            forget(s.dictionary());
        }
        evaluateNewEntries(s);
        int rows = s.size();
        long[] codes = s.longs();
        boolean[] nulls = null;
        for (int i = 0; i < rows; i++) {
            if (s.isNull(i) || resultNulls[(int) codes[i]]) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[i] = true;
            }
        }
        if (isDouble) {
            double[] out = new double[rows];
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = resultDoubles[(int) codes[i]];
                }
            }
            return Column.ofDoubles(type(), out, nulls);
        }
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = resultLongs[(int) codes[i]];
            }
        }
        return Column.ofLongs(type(), out, nulls);
    }

    private void forget(StringDictionary newDictionary) {
        int size = newDictionary.size();
        dictionary = newDictionary;
        known = new boolean[size];
        resultNulls = new boolean[size];
        resultLongs = isDouble ? null : new long[size];
        resultDoubles = isDouble ? new double[size] : null;
    }

    private void evaluateNewEntries(Column s) {
        long[] codes = s.longs();
        int count = 0;
        int[] fresh = new int[Math.min(codes.length, dictionary.size())];
        for (int i = 0; i < codes.length; i++) {
            int code = (int) codes[i];
            if (!s.isNull(i) && !known[code]) {
                // Marked before it is computed: if the computation fails, the query fails with it.
                known[code] = true;
                fresh[count++] = code;
            }
        }
        if (count == 0) {
            return;
        }
        long[] entryCodes = new long[count];
        for (int k = 0; k < count; k++) {
            entryCodes[k] = fresh[k];
        }
        Column entries = Column.ofCodes(s.type(), entryCodes, null, dictionary);
        Column results = perEntry.evaluate(new ColumnsInput(count, entries));
        for (int k = 0; k < count; k++) {
            int code = fresh[k];
            resultNulls[code] = results.isNull(k);
            if (isDouble) {
                resultDoubles[code] = results.doubles()[k];
            } else {
                resultLongs[code] = results.longs()[k];
            }
        }
    }
}
