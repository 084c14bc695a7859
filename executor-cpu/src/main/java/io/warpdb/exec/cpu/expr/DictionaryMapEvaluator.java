package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.TextValues;

/**
 * A string function of one string argument (UPPER, LOWER, TRIM, SUBSTRING or CONCAT with
 * constants, CAST between string types) applied to the dictionary entry by entry: the rows keep
 * their codes and get the mapped dictionary, which may repeat values (UPPER of 'a' and 'A'),
 * so it is marked non-unique. The mapping is computed once per input dictionary.
 */
final class DictionaryMapEvaluator implements Evaluator {
    private final Evaluator strings;
    /** The function over a one-column input whose rows are dictionary entries. */
    private final Evaluator perEntry;
    private final DataType type;
    /** For CAST to VARCHAR(n)/CHAR(n): results longer than n raise 22001, but only for entries rows use. */
    private final boolean checkLength;

    private StringDictionary source;
    private StringDictionary mapped;
    /** Entries the function maps to NULL (e.g. SUBSTRING(s, NULL)); null when none. */
    private boolean[] nullEntries;
    /** Entries too long for the CAST's type; null when none. */
    private boolean[] tooLongEntries;

    DictionaryMapEvaluator(Evaluator strings, Evaluator perEntry, DataType type, boolean checkLength) {
        this.strings = strings;
        this.perEntry = perEntry;
        this.type = type;
        this.checkLength = checkLength && type.precision() > 0;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column s = strings.evaluate(input);
        if (s.dictionary() != source) {
            map(s.dictionary());
        }
        long[] codes = s.longs();
        boolean[] nulls = s.nulls();
        if (nullEntries != null) {
            nulls = nulls == null ? new boolean[codes.length] : nulls.clone();
            for (int i = 0; i < codes.length; i++) {
                nulls[i] |= !s.isNull(i) && nullEntries[(int) codes[i]];
            }
        }
        if (tooLongEntries != null) {
            for (int i = 0; i < codes.length; i++) {
                if (!s.isNull(i) && tooLongEntries[(int) codes[i]]) {
                    TextValues.checkLength(mapped.get((int) codes[i]), type);
                }
            }
        }
        return Column.ofCodes(type, codes, nulls, mapped);
    }

    private void map(StringDictionary dictionary) {
        int size = dictionary.size();
        long[] allCodes = new long[size];
        for (int code = 0; code < size; code++) {
            allCodes[code] = code;
        }
        Column results = perEntry.evaluate(new ColumnsInput(size, Column.ofCodes(strings.type(), allCodes, null, dictionary)));
        String[] values = new String[size];
        nullEntries = results.nulls();
        tooLongEntries = null;
        for (int code = 0; code < size; code++) {
            values[code] = results.isNull(code) ? "" : results.string(code);
            if (checkLength && TextValues.length(values[code]) > type.precision()) {
                if (tooLongEntries == null) {
                    tooLongEntries = new boolean[size];
                }
                tooLongEntries[code] = true;
            }
        }
        source = dictionary;
        mapped = StringDictionary.ofValues(values);
    }
}
