package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.exec.gpu.sort.StringRanks;

/**
 * Codes of two string dictionaries renumbered into one order: each code's rank among the distinct
 * values of both dictionaries together, so that comparing two ranks (on the device) compares the
 * strings as the CPU executor does ({@link String#compareTo}), and equal strings get equal ranks.
 * Built from each dictionary's own (cached) {@link StringRanks} by one merge of their sorted values.
 */
record CommonRanks(int[] left, int[] right) {
    static CommonRanks of(StringDictionary leftDictionary, StringDictionary rightDictionary) {
        StringRanks leftRanks = StringRanks.of(leftDictionary);
        StringRanks rightRanks = StringRanks.of(rightDictionary);
        StringDictionary l = leftRanks.byRank();
        StringDictionary r = rightRanks.byRank();
        int[] commonOfLeft = new int[l.size()];
        int[] commonOfRight = new int[r.size()];
        int i = 0;
        int j = 0;
        int next = 0;
        while (i < l.size() || j < r.size()) {
            int order = i == l.size() ? 1 : j == r.size() ? -1 : l.get(i).compareTo(r.get(j));
            if (order <= 0) {
                commonOfLeft[i++] = next;
            }
            if (order >= 0) {
                commonOfRight[j++] = next;
            }
            next++;
        }
        return new CommonRanks(compose(leftRanks.rankOfCode(), commonOfLeft), compose(rightRanks.rankOfCode(), commonOfRight));
    }

    /** For each code, the common rank of its own rank. */
    private static int[] compose(int[] rankOfCode, int[] commonOfRank) {
        int[] out = new int[rankOfCode.length];
        for (int code = 0; code < out.length; code++) {
            out[code] = commonOfRank[rankOfCode[code]];
        }
        return out;
    }
}
