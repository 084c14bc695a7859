package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.TextValues;

/**
 * A string function of one string argument (UPPER, LOWER, TRIM, SUBSTRING or CONCAT with
 * constants, CAST between string types) applied to the dictionary entry by entry: the rows keep
 * their codes and get the mapped dictionary, which may repeat values (UPPER of 'a' and 'A'),
 * so it is marked non-unique. The mapping is computed once per input dictionary, unless the rows
 * seen with that dictionary are few next to its size (TPC-H Q22's SUBSTRING of 6 K phones out of
 * a 150 K-entry dictionary): those rows are mapped one by one, until they add up to half the
 * dictionary, so a large dictionary is never mapped for a few rows and never costs more than
 * half again its mapping.
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
    /** The dictionary whose rows are being mapped one by one, and how many rows of it were. */
    private StringDictionary rowwiseSource;
    private long rowwiseRows;
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
        StringDictionary dictionary = s.dictionary();
        if (dictionary != source) {
            if (dictionary != rowwiseSource) {
                rowwiseSource = dictionary;
                rowwiseRows = 0;
            }
            rowwiseRows += input.rowCount();
            if (rowwiseRows * 2 < dictionary.size()) {
                return mapRows(s, input.rowCount());
            }
            map(dictionary);
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

    /** The function of each row's string, with a fresh dictionary of just these rows' results. */
    private Column mapRows(Column s, int rows) {
        Column results = perEntry.evaluate(new ColumnsInput(rows, s));
        if (checkLength) {
            for (int i = 0; i < rows; i++) {
                if (!results.isNull(i)) {
                    TextValues.checkLength(results.string(i), type);
                }
            }
        }
        return Column.ofCodes(type, results.longs(), results.nulls(), results.dictionary());
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
